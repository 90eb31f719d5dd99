import { cp, mkdir, readFile, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import {
  computeSealedRunHashes,
  formatLogProofFile,
  generateSigningKey,
  type LogProof,
  type SigningKey,
  sha256Hex,
  toTrustedKey,
} from "@svc/core";
import { createApp, SqliteLedgerStore } from "@svc/entitlement";
import { writeSealedRunFolder } from "@svc/testing";

/** The principal, run and category writeSealedRunFolder's manifest names. */
const PRINCIPAL = "runner@customer.example";
const RUN = {
  project_id: "demo",
  mode: "standard",
  module_id: "computational",
  category_id: "SMALL_MOLECULE__LIGAND_ONLY__NO_STRUCTURE__NO_ASSAYS",
};

/** A real entitlement service in this process (SQLite in `dataDir`), whose log these tests read. */
export interface LoggedIssuer {
  readonly url: string;
  readonly key: SigningKey;
  /** Seals the folder through consume → run_start → run_complete and writes seal/ as the runner does. */
  sealFolder(runDir: string, runId: string): Promise<{ sealId: string; log: LogProof }>;
  close(): Promise<void>;
}

/**
 * Starts the service on a loopback port. `issuerName` (default: its own URL) names the log, so
 * two services given the same name and key are two logs claiming to be one (a fork).
 */
export async function startLoggedIssuer(
  dataDir: string,
  options: { key?: SigningKey; issuerName?: string } = {},
): Promise<LoggedIssuer> {
  const key = options.key ?? generateSigningKey();
  const store = SqliteLedgerStore.open(join(dataDir, "ledger.sqlite"));
  const adminToken = `adm_${sha256Hex(dataDir).slice(0, 24)}`;
  let url = "";
  const app = await createApp({
    store,
    verifyAuthorization: async () => ({ principal: PRINCIPAL, issuer: "test" }),
    adminTokens: [adminToken],
    signingKey: key,
    trustedKeys: [toTrustedKey(key.publicKey)],
    issuerName: () => options.issuerName ?? url,
    verifyUrl: null,
    logger: false,
  });
  await app.listen({ port: 0, host: "127.0.0.1" });
  const address = app.server.address();
  url = `http://127.0.0.1:${typeof address === "object" && address !== null ? address.port : 0}`;
  const call = async (path: string, body: unknown) => {
    const response = await fetch(`${url}${path}`, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        authorization: "Bearer test",
        "x-svc-admin-token": adminToken,
      },
      body: JSON.stringify(body),
    });
    const json = (await response.json()) as Record<string, unknown>;
    if (response.status !== 200) throw new Error(`${path}: ${JSON.stringify(json)}`);
    return json;
  };
  await call("/api/entitlement/issue", { principal: PRINCIPAL, runs: 1000 });
  return {
    url,
    key,
    async sealFolder(runDir, runId) {
      // the fixture's files, then a seal from this service instead of the fixture's own
      await writeSealedRunFolder(runDir, { key, fields: { run_id: runId } });
      await rm(join(runDir, "seal"), { recursive: true, force: true });
      const manifestPath = join(runDir, "run_manifest.json");
      const manifest = JSON.parse(await readFile(manifestPath, "utf8"));
      await writeFile(manifestPath, `${JSON.stringify({ ...manifest, run_id: runId }, null, 2)}\n`);
      const hashes = await computeSealedRunHashes(runDir);
      const run = { run_id: runId, ...RUN };
      await call("/api/entitlement/consume", {
        run_id: runId,
        project_id: RUN.project_id,
        mode: RUN.mode,
        module_id: RUN.module_id,
      });
      await call("/api/entitlement/run_start", {
        ...run,
        inputs_sha256: sha256Hex("inputs"),
        image: { reference: "runner:1.0.0", digest: null },
      });
      const done = (await call("/api/entitlement/run_complete", {
        run_id: runId,
        outputs_sha256: hashes.outputs_sha256,
        run_manifest_sha256: hashes.run_manifest_sha256,
      })) as { seal: Record<string, string>; log: LogProof };
      const seal = join(runDir, "seal");
      await mkdir(seal, { recursive: true });
      await writeFile(join(seal, "seal.json"), done.seal.seal_json as string);
      await writeFile(join(seal, "seal.sig"), done.seal.seal_sig as string);
      await writeFile(join(seal, "seal.svg"), done.seal.seal_svg as string);
      await writeFile(join(seal, "public_key.pem"), done.seal.public_key_pem as string);
      await writeFile(join(seal, "VERIFY.md"), done.seal.verify_md as string);
      await writeFile(join(seal, "log-proof.json"), formatLogProofFile(done.log));
      return { sealId: done.seal.seal_id as string, log: done.log };
    },
    async close() {
      await app.close();
      await store.close();
    },
  };
}

/** A copy of a sealed folder to tamper with. */
export async function copyFolder(from: string, to: string): Promise<string> {
  await cp(from, to, { recursive: true });
  return to;
}
