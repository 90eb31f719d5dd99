import assert from "node:assert/strict";
import { readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, it } from "node:test";
import { assertGeneratedBlock, makeTempDir } from "@svc/testing";
import {
  assertOracleCurrent,
  currentInputsSha256,
  NATIVE_ORACLES,
  ORACLE_DIR,
  ORACLE_PROVENANCE,
  ORACLE_PROVENANCE_SOURCE,
  oracleByName,
  oracleInputsSha256,
  provenanceTable,
  REGENERATE_ORACLES,
  readStoredOracle,
} from "./support/native-oracles.ts";
import { assertNciInCi, NCI_5K, nciMissing } from "./support/nci-set.ts";

describe("stored native RDKit answers (test/oracles)", () => {
  it("holds one file per oracle and nothing else, each listed in PROVENANCE.md with its sha256", () => {
    const files = readdirSync(ORACLE_DIR).filter((name) => name !== "PROVENANCE.md");
    assert.deepEqual(files.sort(), NATIVE_ORACLES.map((o) => `${o.name}.json.gz`).sort());
    assertGeneratedBlock(ORACLE_PROVENANCE, "native-oracles", ORACLE_PROVENANCE_SOURCE, provenanceTable());
  });

  assertNciInCi();
  it("every stored file was made from today's script, NCI file and arguments", {
    skip: nciMissing ?? false,
  }, () => {
    for (const oracle of NATIVE_ORACLES) {
      const stored = readStoredOracle<unknown>(oracle);
      assert.equal(stored.oracle, oracle.name);
      assert.ok(
        Object.keys(stored.answers).length >= 100,
        `${oracle.name}: ${Object.keys(stored.answers).length} answers`,
      );
      assertOracleCurrent(oracle, stored.inputs_sha256, currentInputsSha256(oracle));
    }
  });

  it("a changed argument file changes the inputs digest, and answers made before it are refused with the regeneration command", async (t) => {
    const dir = await makeTempDir("svc-oracle-digest-", t);
    const oracle = oracleByName("salt-remover");
    const salts = join(dir, "salts.txt");
    writeFileSync(salts, "[Cl,Br,I]\n");
    const before = oracleInputsSha256(oracle, NCI_5K, [salts]);
    writeFileSync(salts, "[Cl,Br,I]\n[Na]\n");
    const after = oracleInputsSha256(oracle, NCI_5K, [salts]);
    assert.notEqual(before, after);
    assert.equal(oracleInputsSha256(oracle, NCI_5K, [salts]), after, "the digest is deterministic");
    assert.throws(
      () => assertOracleCurrent(oracle, before, after),
      (error: Error) => {
        assert.match(error.message, /salt-remover\.json\.gz was made from other inputs/);
        assert.ok(error.message.includes(REGENERATE_ORACLES), error.message);
        return true;
      },
    );
  });
});
