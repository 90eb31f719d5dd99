import { rm } from "node:fs/promises";
import { join } from "node:path";
import {
  formatLogProofFile,
  LOG_PROOF_FILE,
  type LogProof,
  PROVENANCE_FILE,
  type PresealPayload,
  parsePresealPayload,
  RUN_FILES,
  renderPresealSvg,
  runPath,
  SEAL_FILES,
} from "@svc/core";
import type { SealBundleResponse } from "../lifecycle/entitlement-client.ts";
import { formatJson, writeFileAtomic } from "./atomic-write.ts";

/**
 * Writes the seal folder exactly as run_complete returned it (domain notes, "Seal"), with the
 * seal's log proof as `seal/log-proof.json` when the issuer keeps a log (issue 30 item 3) and its
 * signed SLSA provenance, verbatim, as `seal/provenance.intoto.jsonl` when it signed one (item 6).
 */
export async function writeSealFolder(
  runDir: string,
  seal: SealBundleResponse,
  log: LogProof | undefined,
  provenance?: string | undefined,
): Promise<void> {
  const dir = join(runDir, runPath("sealDir"));
  // seal.json must stay the exact signed bytes: written verbatim, no reformatting.
  await writeFileAtomic(join(dir, SEAL_FILES.json), seal.seal_json);
  await writeFileAtomic(join(dir, SEAL_FILES.signature), seal.seal_sig);
  await writeFileAtomic(join(dir, SEAL_FILES.svg), seal.seal_svg);
  await writeFileAtomic(join(dir, SEAL_FILES.publicKey), seal.public_key_pem);
  await writeFileAtomic(join(dir, SEAL_FILES.instructions), seal.verify_md);
  if (log !== undefined) await writeFileAtomic(join(dir, LOG_PROOF_FILE), formatLogProofFile(log));
  else await rm(join(dir, LOG_PROOF_FILE), { force: true });
  if (provenance !== undefined) await writeFileAtomic(join(dir, PROVENANCE_FILE), provenance);
  else await rm(join(dir, PROVENANCE_FILE), { force: true });
  await rm(join(dir, SEAL_FILES.preseal), { force: true });
  await rm(join(dir, SEAL_FILES.presealSvg), { force: true });
  await rm(join(dir, SEAL_FILES.pending), { recursive: true, force: true });
}

/** `seal/preseal.json` and `seal/preseal.svg`: the hashes, unsigned, until run_complete answers. */
export async function writePreseal(runDir: string, payload: PresealPayload): Promise<void> {
  const preseal = parsePresealPayload(payload);
  await writeFileAtomic(join(runDir, RUN_FILES.preseal), formatJson(preseal));
  await writeFileAtomic(join(runDir, RUN_FILES.presealSvg), renderPresealSvg(preseal));
}
