import assert from "node:assert/strict";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, it } from "node:test";
import { makeTempDir } from "@svc/testing";
import { NATIVE_ORACLES, REGENERATE_ORACLES, readStoredOracle } from "./support/native-oracles.ts";
import { assertNativeInCi, NCI_5K, nativeMissing, readNci, runNative } from "./support/native-rdkit.ts";

/** How many stored molecules each oracle recomputes natively. */
const SAMPLE = 200;

describe("stored native RDKit answers against native RDKit now", () => {
  assertNativeInCi();
  it(`every oracle's answers for ${SAMPLE} of its stored molecules equal native RDKit's recomputed ones`, {
    skip: nativeMissing ?? false,
  }, async (t) => {
    const dir = await makeTempDir("svc-oracle-sample-", t);
    const nci = readNci(readFileSync(NCI_5K, "utf8"));
    for (const oracle of NATIVE_ORACLES) {
      const stored = readStoredOracle<unknown>(oracle).answers;
      // Evenly spaced over the stored molecules, in NCI order.
      const ids = nci.map(([, id]) => id).filter((id) => id in stored);
      const step = Math.max(1, Math.floor(ids.length / SAMPLE));
      const sample = new Set(ids.filter((_, i) => i % step === 0).slice(0, SAMPLE));
      const smi = join(dir, `${oracle.name}.smi`);
      writeFileSync(
        smi,
        nci
          .filter(([, id]) => sample.has(id))
          .map(([smiles, id]) => `${smiles} ${id}\n`)
          .join(""),
      );
      const fresh = runNative<Record<string, unknown>>(oracle.script, [smi, ...oracle.args(dir, true)]);
      const expected = Object.fromEntries([...sample].map((id) => [id, stored[id]]));
      assert.deepEqual(
        fresh,
        expected,
        `${oracle.name}: stored answers differ from native RDKit's; run ${REGENERATE_ORACLES}`,
      );
      assert.ok(sample.size >= Math.min(SAMPLE, ids.length) - 1, `${oracle.name}: sampled ${sample.size}`);
    }
  });
});
