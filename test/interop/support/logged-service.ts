import { join } from "node:path";
import { generateSigningKey, type LogProof, type SigningKey, sha256Hex, toTrustedKey } from "@svc/core";
import { createApp, SqliteLedgerStore } from "@svc/entitlement";

/** The issuer name every interop check uses: the log's origin is `seals.example/seal-log`. */
export const ISSUER_NAME = "https://seals.example";

/** A real entitlement service in this process, with its seal log in SQLite under `dataDir`. */
export interface LoggedService {
  readonly url: string;
  readonly key: SigningKey;
  /** consume → run_start → run_complete of a new run; the run_complete answer's seal id and log proof. */
  sealRun(runId: string): Promise<{ sealId: string; log: LogProof }>;
  revoke(sealId: string): Promise<void>;
  get(path: string): Promise<{ status: number; text: string }>;
  close(): Promise<void>;
}

export async function startLoggedService(dataDir: string): Promise<LoggedService> {
  const key = generateSigningKey();
  const store = SqliteLedgerStore.open(join(dataDir, "ledger.sqlite"));
  const adminToken = `adm_${sha256Hex(dataDir).slice(0, 24)}`;
  const app = await createApp({
    store,
    verifyAuthorization: async () => ({ principal: "interop@example.com", issuer: "test" }),
    adminTokens: [adminToken],
    signingKey: key,
    trustedKeys: [toTrustedKey(key.publicKey)],
    issuerName: () => ISSUER_NAME,
    verifyUrl: null,
    logger: false,
  });
  await app.listen({ port: 0, host: "127.0.0.1" });
  const address = app.server.address();
  const url = `http://127.0.0.1:${typeof address === "object" && address !== null ? address.port : 0}`;
  const post = async (path: string, body: unknown) => {
    const response = await fetch(`${url}${path}`, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        authorization: "Bearer t",
        "x-svc-admin-token": adminToken,
      },
      body: JSON.stringify(body),
    });
    const json = (await response.json()) as Record<string, unknown>;
    if (response.status !== 200) throw new Error(`${path}: ${JSON.stringify(json)}`);
    return json;
  };
  await post("/api/entitlement/issue", { principal: "interop@example.com", runs: 1000 });
  return {
    url,
    key,
    async sealRun(runId) {
      const run = { run_id: runId, project_id: "interop", mode: "standard", module_id: "computational" };
      await post("/api/entitlement/consume", run);
      await post("/api/entitlement/run_start", {
        ...run,
        category_id: "ligand_only",
        inputs_sha256: sha256Hex(`inputs ${runId}`),
        image: { reference: "runner:1.0.0", digest: null },
      });
      const done = (await post("/api/entitlement/run_complete", {
        run_id: runId,
        outputs_sha256: sha256Hex(`outputs ${runId}`),
        run_manifest_sha256: sha256Hex(`manifest ${runId}`),
      })) as { seal: { seal_id: string }; log: LogProof };
      return { sealId: done.seal.seal_id, log: done.log };
    },
    async revoke(sealId) {
      await post("/api/seal/revoke", { seal_id: sealId, reason: "interop check" });
    },
    async get(path) {
      const response = await fetch(`${url}${path}`);
      return { status: response.status, text: await response.text() };
    },
    async close() {
      await app.close();
      await store.close();
    },
  };
}
