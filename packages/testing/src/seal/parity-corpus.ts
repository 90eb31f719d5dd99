import { readFile, rm, symlink, writeFile } from "node:fs/promises";
import { join } from "node:path";
import {
  buildProvenanceStatement,
  type ClaimStrength,
  canonicalBytes,
  computeSealedRunHashes,
  formatLogProofFile,
  formatProvenanceLine,
  hashLeaf,
  IN_TOTO_PAYLOAD_TYPE,
  issuedEntryOf,
  type LogProof,
  logOriginOf,
  logProofOf,
  parseSealPayload,
  renderSealSvg,
  type SealReasonCode,
  type SigningKey,
  sha256Hex,
  signCheckpoint,
  signDsseEnvelope,
  signProvenanceFile,
  treeListingSha256,
  VERIFY_SCRIPT,
  VERIFY_SCRIPT_PATH,
} from "@svc/core";
import { writeSealedRunFolder } from "./sealed-run-folder.ts";

const INPUTS = [{ path: "compounds.csv", sha256: sha256Hex("compounds") }];

/**
 * Writes a sealed run folder as an issuer that keeps a log and signs provenance writes it: the
 * seal, `seal/log-proof.json` (a one-leaf log whose checkpoint `key` signs under the issuer's
 * origin) and `seal/provenance.intoto.jsonl` (the SLSA statement of the sealed outputs). Every
 * parity case starts from it. `beforeSeal` changes the folder before it is sealed.
 */
export async function writeParityFolder(
  runDir: string,
  key: SigningKey,
  beforeSeal?: (runDir: string) => Promise<void>,
  signed: ParitySignedFields = {},
): Promise<void> {
  const bundle = await writeSealedRunFolder(runDir, {
    key,
    ...(beforeSeal ? { beforeSeal } : {}),
    fields: { inputs_sha256: treeListingSha256(INPUTS), ...signed },
  });
  const payload = parseSealPayload(JSON.parse(bundle.sealJson));
  const hashes = await computeSealedRunHashes(runDir);
  const outputs = hashes.outputs.entries.map((entry) => ({ path: entry.path, sha256: entry.sha256 }));
  const facts = {
    outputs,
    inputs: INPUTS,
    policy_version: "policy-2026.1",
    modules: [],
    runner_version: "0.1.0",
  };
  await writeFile(
    join(runDir, "seal/provenance.intoto.jsonl"),
    signProvenanceFile(buildProvenanceStatement(payload, facts, payload.issued_at), key),
  );
  const entry = issuedEntryOf(bundle.sealJson, payload);
  const leaf = logProofOf(0, entry, [], "");
  const checkpoint = signCheckpoint(
    { origin: logOriginOf(payload.issuer), size: 1, rootHash: hashLeaf(Buffer.from(leaf.entry, "utf8")) },
    key,
  );
  await writeFile(join(runDir, "seal/log-proof.json"), formatLogProofFile({ ...leaf, checkpoint }));
}

/** Signed fields a parity case seals differently (the summary states the same claim strength). */
export interface ParitySignedFields {
  readonly claim_strength?: ClaimStrength;
}

/** One case both verifiers are run on: `svc seal verify` and the released verify.sh. */
export interface ParityCase {
  readonly name: string;
  /** Signed fields to seal the folder with (issue 37 item 3: a claim strength). */
  readonly signed?: ParitySignedFields;
  /** Changes the folder before it is sealed (e.g. the verify.sh it is sealed with). */
  readonly beforeSeal?: (runDir: string) => Promise<void>;
  /** Changes the sealed folder. */
  readonly apply?: (runDir: string, key: SigningKey) => Promise<void>;
  /** The reason code both give (svc's `reason:`, verify.sh's `(CODE)`), or null: both say it is the sealed folder. */
  readonly code: SealReasonCode | null;
}

const B64 = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

/** The same bytes spelled with an unused pad bit set: Node's decoder reads both alike. */
export function setPadBit(text: string): string {
  const at = text.length - 1 - (text.endsWith("==") ? 2 : 1);
  const next = B64[B64.indexOf(text[at] as string) + 1] as string;
  return `${text.slice(0, at)}${next}${text.slice(at + 1)}`;
}

/** The summary as the runner writes it (two-space JSON), claim_strength first, or none. */
function summaryText(fields: Record<string, unknown>): string {
  return `${JSON.stringify({ ...fields, compounds: 3 }, null, 2)}\n`;
}

/**
 * The claim the issuer signed rewritten in seal.json and redrawn on seal.svg with the signature it
 * had: the picture and both files agree, only the signature can tell (issue 37 item 3).
 */
async function forgeSignedClaim(runDir: string, claim: ClaimStrength): Promise<void> {
  const sealJson = join(runDir, "seal/seal.json");
  const payload = parseSealPayload(JSON.parse(await readFile(sealJson, "utf8")));
  const forged = parseSealPayload({ ...payload, claim_strength: claim });
  const signature = Buffer.from((await readFile(join(runDir, "seal/seal.sig"), "utf8")).trim(), "base64");
  await writeFile(sealJson, canonicalBytes(forged));
  await writeFile(join(runDir, "seal/seal.svg"), renderSealSvg(forged, signature));
}

async function editText(path: string, edit: (text: string) => string): Promise<void> {
  const before = await readFile(path, "utf8");
  const after = edit(before);
  if (after === before) throw new Error(`parity corpus: ${path} unchanged`);
  await writeFile(path, after);
}

type Envelope = { payload: string; payloadType: string; signatures: { keyid: string; sig: string }[] };

async function editEnvelope(runDir: string, edit: (envelope: Envelope) => Envelope): Promise<void> {
  await editText(join(runDir, "seal/provenance.intoto.jsonl"), (text) =>
    formatProvenanceLine(edit(JSON.parse(text) as Envelope)),
  );
}

async function editProof(runDir: string, edit: (proof: LogProof) => string): Promise<void> {
  await editText(join(runDir, "seal/log-proof.json"), (text) => edit(JSON.parse(text) as LogProof));
}

/** A provenance envelope the seal's key signs over `bytes` of junk statement. */
async function writeLargeProvenance(runDir: string, key: SigningKey, bytes: number): Promise<void> {
  const statement = Buffer.from(`{"pad":"${"x".repeat(bytes)}"}`);
  await writeFile(
    join(runDir, "seal/provenance.intoto.jsonl"),
    formatProvenanceLine(signDsseEnvelope(IN_TOTO_PAYLOAD_TYPE, statement, key)),
  );
}

/**
 * The verify.sh-vs-svc parity corpus (issue 38 item 7): each case where one verifier once said OK
 * and the other refused, and the robustness cases of item 8. Both must refuse with `code` (or
 * both accept the genuine folder).
 */
export const SEAL_PARITY_CORPUS: readonly ParityCase[] = [
  { name: "the genuine folder, with its log proof and provenance", code: null },
  // issue 37 item 3: the signed claim strength, drawn on seal.svg and stated by results/summary.json
  {
    name: "a HYPOTHESIS seal over a summary that says HYPOTHESIS",
    signed: { claim_strength: "HYPOTHESIS" },
    code: null,
  },
  {
    name: "a SUPPORTED seal over a summary that says SUPPORTED",
    signed: { claim_strength: "SUPPORTED" },
    code: null,
  },
  {
    name: "a summary that says SUPPORTED under a HYPOTHESIS seal (the job reported one, sealed the other)",
    signed: { claim_strength: "HYPOTHESIS" },
    beforeSeal: (runDir) =>
      writeFile(join(runDir, "results/summary.json"), summaryText({ claim_strength: "SUPPORTED" })),
    code: "CLAIM_STRENGTH_MISMATCH",
  },
  {
    name: "a summary without claim_strength under a HYPOTHESIS seal",
    signed: { claim_strength: "HYPOTHESIS" },
    beforeSeal: (runDir) => writeFile(join(runDir, "results/summary.json"), summaryText({})),
    code: "CLAIM_STRENGTH_MISMATCH",
  },
  {
    name: "a summary whose escaped first key says SUPPORTED before the signed HYPOTHESIS (JSON.parse keeps the last)",
    signed: { claim_strength: "HYPOTHESIS" },
    beforeSeal: (runDir) =>
      writeFile(
        join(runDir, "results/summary.json"),
        '{\n  "claim\\u005fstrength": "SUPPORTED",\n  "claim_strength": "HYPOTHESIS",\n  "compounds": 3\n}\n',
      ),
    code: "CLAIM_STRENGTH_MISMATCH",
  },
  {
    name: "a summary that says SUPPORTED on a line of its own, the key on the line before",
    signed: { claim_strength: "SUPPORTED" },
    beforeSeal: (runDir) =>
      writeFile(join(runDir, "results/summary.json"), '{\n  "claim_strength":\n    "SUPPORTED"\n}\n'),
    code: "CLAIM_STRENGTH_MISMATCH",
  },
  {
    name: "a HYPOTHESIS seal whose signed claim is rewritten to SUPPORTED in seal.json and seal.svg",
    signed: { claim_strength: "HYPOTHESIS" },
    apply: (runDir) => forgeSignedClaim(runDir, "SUPPORTED"),
    code: "SIGNATURE_INVALID",
  },
  {
    name: "a seal without claim_strength given one in seal.json and seal.svg",
    apply: (runDir) => forgeSignedClaim(runDir, "SUPPORTED"),
    code: "SIGNATURE_INVALID",
  },
  {
    name: "sealed without repro_pack/container/verify.sh",
    beforeSeal: (runDir) => rm(join(runDir, VERIFY_SCRIPT_PATH)),
    code: "VERIFY_SCRIPT_NOT_RELEASED",
  },
  {
    name: "sealed with a trojan repro_pack/container/verify.sh",
    beforeSeal: (runDir) =>
      writeFile(
        join(runDir, VERIFY_SCRIPT_PATH),
        VERIFY_SCRIPT.replace("set -euo pipefail\n", "set -euo pipefail\necho 'verify: OK'; exit 0\n"),
      ),
    code: "VERIFY_SCRIPT_NOT_RELEASED",
  },
  {
    name: "a rewritten seal/VERIFY.md",
    apply: (runDir) =>
      editText(join(runDir, "seal/VERIFY.md"), (text) =>
        text.replace("It does not attest that the science is right", "It attests that the science is right"),
      ),
    code: "SEAL_FILES_DISAGREE",
  },
  {
    name: "the checkpoint's em dash written as \\u2014 in log-proof.json",
    apply: (runDir) =>
      editText(join(runDir, "seal/log-proof.json"), (text) => text.replace("\u2014", "\\u2014")),
    code: "LOG_PROOF_INVALID",
  },
  {
    name: "an extra checkpoint signature line",
    apply: (runDir) =>
      editProof(runDir, (proof) => {
        const line = proof.checkpoint.split("\n").at(-2) as string;
        return formatLogProofFile({ ...proof, checkpoint: `${proof.checkpoint}${line}\n` });
      }),
    code: "LOG_PROOF_INVALID",
  },
  {
    name: "the checkpoint signature's pad bits set",
    apply: (runDir) =>
      editProof(runDir, (proof) => {
        const lines = proof.checkpoint.split("\n");
        const at = lines.length - 2;
        const parts = (lines[at] as string).split(" ");
        parts[parts.length - 1] = setPadBit(parts.at(-1) as string);
        lines[at] = parts.join(" ");
        return formatLogProofFile({ ...proof, checkpoint: lines.join("\n") });
      }),
    code: "LOG_PROOF_INVALID",
  },
  {
    name: "a checkpoint of another log (<issuer>/seal-log/v2), signed by the seal's key",
    apply: (runDir, key) =>
      editProof(runDir, (proof) => {
        const [origin, size, root] = proof.checkpoint.split("\n") as [string, string, string];
        const rootHash = Buffer.from(root, "base64");
        const checkpoint = signCheckpoint({ origin: `${origin}/v2`, size: Number(size), rootHash }, key);
        return formatLogProofFile({ ...proof, checkpoint });
      }),
    code: "LOG_PROOF_INVALID",
  },
  {
    name: "seal.sig with its pad bits set",
    apply: (runDir) => editText(join(runDir, "seal/seal.sig"), (text) => `${setPadBit(text.trim())}\n`),
    code: "SEAL_SIG_MALFORMED",
  },
  {
    name: "an extra DSSE signature by an unknown key",
    apply: (runDir) =>
      editEnvelope(runDir, (envelope) => ({
        ...envelope,
        signatures: [
          ...envelope.signatures,
          { keyid: "ed25519:00000000000000000000000000000000", sig: envelope.signatures[0]?.sig as string },
        ],
      })),
    code: "PROVENANCE_INVALID",
  },
  {
    name: "a bad DSSE signature carrying the seal's key id placed first",
    apply: (runDir) =>
      editEnvelope(runDir, (envelope) => ({
        ...envelope,
        signatures: [
          { keyid: envelope.signatures[0]?.keyid as string, sig: Buffer.alloc(64).toString("base64") },
          ...envelope.signatures,
        ],
      })),
    code: "PROVENANCE_INVALID",
  },
  {
    name: "the DSSE signature's pad bits set",
    apply: (runDir) =>
      editEnvelope(runDir, (envelope) => ({
        ...envelope,
        signatures: envelope.signatures.map((signature) => ({ ...signature, sig: setPadBit(signature.sig) })),
      })),
    code: "PROVENANCE_INVALID",
  },
  {
    name: "a duplicated provenance envelope line",
    apply: (runDir) => editText(join(runDir, "seal/provenance.intoto.jsonl"), (text) => `${text}${text}`),
    code: "PROVENANCE_INVALID",
  },
  {
    name: "seal/seal.json as a symbolic link to a copy of itself",
    apply: async (runDir) => {
      const sealJson = join(runDir, "seal/seal.json");
      await writeFile(join(runDir, "..", `${runDir.split("/").at(-1)}-seal.json`), await readFile(sealJson));
      await rm(sealJson);
      await symlink(join(runDir, "..", `${runDir.split("/").at(-1)}-seal.json`), sealJson);
    },
    code: "RUN_FOLDER_UNCOVERED",
  },
  {
    name: "an 8 MiB provenance payload signed by the seal's key (once a stack overflow in svc)",
    apply: (runDir, key) => writeLargeProvenance(runDir, key, 8 * 1024 * 1024),
    code: "PROVENANCE_INVALID",
  },
  {
    name: "a 48 MiB provenance envelope (over its cap: not read)",
    apply: (runDir, key) => writeLargeProvenance(runDir, key, 36 * 1024 * 1024),
    code: "SEAL_FILE_TOO_LARGE",
  },
  {
    name: "a 2 MiB seal/log-proof.json (over its cap: not read)",
    apply: (runDir) => writeFile(join(runDir, "seal/log-proof.json"), "{}".padEnd(2 * 1024 * 1024, " ")),
    code: "SEAL_FILE_TOO_LARGE",
  },
];
