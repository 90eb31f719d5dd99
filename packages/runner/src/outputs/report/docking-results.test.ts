import assert from "node:assert/strict";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { test } from "node:test";
import type { DockedCompoundRecord } from "@svc/core";
import type { InteractionCounts } from "@svc/science/structure";
import { DOCKING_FIXTURE, deepVariant } from "../../../test/support/docking-report.ts";
import { RunnerError } from "../../runner-error.ts";
import { parseDockingResult } from "../docking-result-file.ts";
import { bestDocking, type CompoundDocking, dockingRunOf } from "./docking-results.ts";

const fixtureJson = async (): Promise<{ structures: { compounds: Record<string, unknown>[] }[] }> =>
  JSON.parse(await readFile(join(DOCKING_FIXTURE, "results", "molecular_docking.json"), "utf8"));

// Type level: the report reads the records as the schema types them, so a field the module does not
// write cannot be read (this line stops typechecking the day the schema gains such a field, and any
// report code reading an unwritten field never typechecks).
function unwritten(record: Extract<DockedCompoundRecord, { status: "docked" }>): unknown {
  // @ts-expect-error molecular_docking writes no per-type residue list
  return record.interaction_residues;
}
void unwritten;

// Type level, the writer's side: science's interaction counts have exactly the schema's keys (a new
// PLIP type in science stops this typechecking until the schema, and so the report, know it).
type SameKeys<A, B> = [keyof A] extends [keyof B] ? ([keyof B] extends [keyof A] ? true : false) : false;
const interactionKeysAgree: SameKeys<
  InteractionCounts,
  NonNullable<Extract<DockedCompoundRecord, { status: "docked" }>["interactions"]>
> = true;
void interactionKeysAgree;

test("a real molecular_docking file parses with core's schema and reads as one structure with its box, standard profile and three docked compounds", async () => {
  const run = dockingRunOf(parseDockingResult(await fixtureJson()));
  const [structure] = run.structures;
  assert.equal(structure?.index, 0);
  assert.equal(structure?.reason, null);
  assert.deepEqual(structure?.box?.size, [15.854, 19.37, 15]);
  assert.equal(structure?.box?.source, "reference_ligand");
  assert.deepEqual(structure?.profile, {
    name: "standard",
    exhaustiveness: 8,
    poses: 9,
    seed: 42,
    scoring: "vina",
    rescoring: [],
    receptors: 1,
    ensemble_rule: null,
  });
  assert.deepEqual(
    structure?.docked.map((compound) => [compound.candidate_id, compound.score, compound.ligand_efficiency]),
    [
      ["DHFR-001", -9.191, 0.34],
      ["DHFR-004", -7.446, 0.355],
      ["DHFR-009", -5.764, 0.524],
    ],
  );
  assert.deepEqual(run.byCompound.get("DHFR-001")?.[0]?.pose_checks, {
    passed: false,
    failed: ["inside_box"],
  });
});

test("the deep profile's record is read: profile, ensemble rule, Vinardo and consensus, best receptor; a not-docked compound is counted by its reason", async () => {
  const file = deepVariant(parseDockingResult(await fixtureJson()));
  file.structures[0]?.compounds.push({ candidate_id: "DHFR-010", status: "not_assessed", reason: "cap" });
  const run = dockingRunOf(file);
  const read = run.structures[0];
  assert.deepEqual(read?.profile, {
    name: "deep",
    exhaustiveness: 32,
    poses: 9,
    seed: 42,
    scoring: "vina",
    rescoring: ["Vinardo", "AD4"],
    receptors: 7,
    ensemble_rule: "crystal + 6 ANM conformers",
  });
  const first = read?.docked[0];
  const vinardo = Number(((first?.score ?? 0) * 0.9).toFixed(3));
  assert.deepEqual(
    [first?.vinardo, first?.ad4, first?.consensus, first?.best_receptor],
    [vinardo, null, vinardo, "crystal"],
  );
  assert.deepEqual([...(read?.not_docked ?? [])], [["cap", 1]]);
  assert.equal(run.byCompound.get("DHFR-010")?.[0]?.status, "not_assessed");
});

test("a file holding a field the module does not write is the runner's own fault (INTERNAL), named by its path", async () => {
  const file = await fixtureJson();
  const [structure] = file.structures;
  assert.ok(structure);
  structure.compounds[0] = {
    ...structure.compounds[0],
    interaction_residues: { hydrogen_bond: ["A:GLU30"] },
  };
  assert.throws(
    () => parseDockingResult(file),
    (error: unknown) =>
      error instanceof RunnerError &&
      error.code === "INTERNAL" &&
      /molecular_docking\.json does not match its schema at structures\.0\.compounds\.0: .*interaction_residues/.test(
        error.message,
      ),
  );
  assert.throws(() => parseDockingResult({ no: "structures" }), RunnerError);
});

test("a compound's best docking is its lowest score over the structures; none when nothing docked it", async () => {
  const [base] = dockingRunOf(parseDockingResult(await fixtureJson())).byCompound.get("DHFR-001") ?? [];
  assert.ok(base);
  const entry = (
    structure: number,
    score: number | null,
    status: "docked" | "not_assessed" = "docked",
  ): CompoundDocking => ({ ...base, structure, score, status });
  assert.equal(bestDocking([entry(0, -6), entry(1, -8.5), entry(2, -9, "not_assessed")])?.structure, 1);
  assert.equal(bestDocking([entry(0, null, "not_assessed")]), null);
});
