import assert from "node:assert/strict";
import {
  foldSubtreeHashes,
  hashChildren,
  hashLeaf,
  largestPowerOfTwoBelow,
  parseLogEntry,
  subtreesOfRange,
} from "@svc/core";
import type { LedgerStore } from "../src/store/ledger-store.ts";

/** What a seal storm was answered: seal id → the leaf index the 200 answer named. */
export type AnsweredSeals = Map<string, number>;

/**
 * Eight clients consume, start and complete runs and revoke every third seal, spread over the
 * service `urls` in turn, until `stopped()` says so (issue 30 item 1, issue 38: the crash tests on
 * SQLite and PostgreSQL share one storm). A call the kill cut off proves nothing and is skipped.
 */
export async function sealStorm(
  urls: readonly string[],
  credentials: { readonly token: string; readonly adminToken: string; readonly runPrefix: string },
  stopped: () => boolean,
): Promise<AnsweredSeals> {
  const answered: AnsweredSeals = new Map();
  let sequence = 0;
  const auth = { authorization: `Bearer ${credentials.token}` };
  const post = (url: string, path: string, body: unknown, headers: Record<string, string>) =>
    fetch(`${url}${path}`, {
      method: "POST",
      headers: { "content-type": "application/json", ...headers },
      body: JSON.stringify(body),
    });
  const worker = async () => {
    while (!stopped()) {
      const number = sequence++;
      const url = urls[number % urls.length] as string;
      const run_id = `${credentials.runPrefix}_${number}`;
      try {
        const run = { run_id, project_id: "p", mode: "standard", module_id: "computational" };
        if ((await post(url, "/api/entitlement/consume", run, auth)).status !== 200) continue;
        const start = {
          ...run,
          category_id: "c",
          inputs_sha256: "a".repeat(64),
          image: { reference: "r", digest: null },
        };
        if ((await post(url, "/api/entitlement/run_start", start, auth)).status !== 200) continue;
        const done = await post(
          url,
          "/api/entitlement/run_complete",
          { run_id, outputs_sha256: "b".repeat(64), run_manifest_sha256: "c".repeat(64) },
          auth,
        );
        if (done.status !== 200) continue;
        const body = (await done.json()) as { seal: { seal_id: string }; log: { leaf_index: number } };
        answered.set(body.seal.seal_id, body.log.leaf_index);
        if (number % 3 === 0)
          await post(
            url,
            "/api/seal/revoke",
            { seal_id: body.seal.seal_id, reason: "storm" },
            { "x-svc-admin-token": credentials.adminToken },
          );
      } catch {
        // the kill dropped the connection: an unanswered call proves nothing
      }
    }
  };
  await Promise.all(Array.from({ length: 8 }, worker));
  return answered;
}

/**
 * The log after a crash: every leaf a canonical entry, every seal answered 200 logged at the index
 * its answer named, and the stored tree head the RFC 9162 §2.1.1 root of the leaves.
 */
export async function assertLogMatchesAnswers(store: LedgerStore, answered: AnsweredSeals): Promise<void> {
  const size = await store.logSize();
  const leaves: Buffer[] = [];
  for (let start = 0; start < size; start += 1000)
    for (const leaf of await store.logEntries(start, 1000)) {
      assert.ok(parseLogEntry(Buffer.from(leaf.entry)), `leaf ${leaf.leaf_index} is a canonical entry`);
      leaves.push(hashLeaf(Buffer.from(leaf.entry)));
    }
  assert.equal(leaves.length, size, "every leaf below the tree size is stored");
  for (const [sealId, index] of answered)
    assert.equal(
      await store.logLeafIndex(sealId, "issued"),
      index,
      `${sealId} answered 200 is logged at ${index}`,
    );
  const mth = (a: number, b: number): Buffer =>
    b - a === 1
      ? (leaves[a] as Buffer)
      : hashChildren(mth(a, a + largestPowerOfTwoBelow(b - a)), mth(a + largestPowerOfTwoBelow(b - a), b));
  const stored = foldSubtreeHashes(await store.logSubtreeHashes(subtreesOfRange({ start: 0, end: size })));
  assert.ok(stored.equals(mth(0, size)), "the stored root is the RFC 9162 root of the leaves");
}
