import assert from "node:assert/strict";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { sha256Hex } from "@svc/core";
import { parse } from "yaml";
import { runTool } from "../../src/structure/run-tool.ts";
import { parseScoreOnly } from "../../src/structure/vina-output.ts";

/**
 * The congeneric series of openforcefield/protein-ligand-benchmark kept in
 * packages/science/data/protein-ligand-benchmark/ (PROVENANCE.md), as the physics validations read
 * them: physics_binding's MM-GBSA (mm-gbsa.validation.test.ts) and qmmm_analysis's QM cluster
 * (qm-cluster.validation.test.ts).
 */
export const PLB = fileURLToPath(new URL("../../data/protein-ligand-benchmark/", import.meta.url));

/** RT at 298.15 K, kcal/mol: ΔG = RT ln(Ki / 1 M). */
const RT = 0.0019872043 * 298.15;
const UNIT_MOLAR: Readonly<Record<string, number>> = { nM: 1e-9, uM: 1e-6 };

export interface BenchmarkLigand {
  readonly name: string;
  /** Its aligned pose, one SDF record. */
  readonly sdf: string;
  /** RT ln Ki at 298.15 K, kcal/mol. */
  readonly dgExp: number;
}

/** The experimental ΔG of each ligand (its Ki, as ligands.yml records it) and its aligned pose from ligands.sdf. */
export function ligandsOf(target: string): BenchmarkLigand[] {
  const measured = parse(readFileSync(join(PLB, target, "ligands.yml"), "utf8")) as Record<
    string,
    { measurement: { type: string; unit: string; value: number } }
  >;
  const blocks = readFileSync(join(PLB, target, "ligands.sdf"), "utf8")
    .split(/^\$\$\$\$\r?\n?/m)
    .filter((block) => block.trim() !== "");
  return blocks.map((block) => {
    const name = block.split("\n")[0]?.trim() ?? "";
    const m = measured[name]?.measurement;
    assert.ok(m !== undefined && m.type === "ki", `${target} ${name}: a Ki in ligands.yml`);
    const molar = UNIT_MOLAR[m.unit];
    assert.ok(molar !== undefined, `${target} ${name}: unit ${m.unit}`);
    return { name, sdf: `${block.trimEnd()}\n$$$$\n`, dgExp: RT * Math.log(m.value * molar) };
  });
}

/** At most `count` ligands spread evenly over the measured range (sorted by ΔG, evenly spaced ranks). */
export function spread(ligands: readonly BenchmarkLigand[], count: number): BenchmarkLigand[] {
  const sorted = [...ligands].sort((a, b) => a.dgExp - b.dgExp || a.name.localeCompare(b.name));
  if (sorted.length <= count) return sorted;
  return Array.from(
    { length: count },
    (_, i) => sorted[Math.round((i * (sorted.length - 1)) / (count - 1))] as BenchmarkLigand,
  );
}

/** Vina's rigid receptor for `--score_only`: the target's protein without waters, through Open Babel's PDBQT. */
export async function vinaReceptorOf(target: string, dir: string): Promise<string> {
  const dry = join(dir, "protein-dry.pdb");
  writeFileSync(
    dry,
    readFileSync(join(PLB, target, "protein.pdb"), "utf8")
      .split("\n")
      .filter((line) => /^(ATOM|HETATM)/.test(line) && line.slice(17, 20) !== "HOH")
      .join("\n"),
  );
  const receptorPdbqt = join(dir, "protein.pdbqt");
  assert.equal((await runTool("obabel", [dry, "-xr", "-O", receptorPdbqt])).status, 0);
  return receptorPdbqt;
}

/** Vina 1.2's `--score_only --autobox` score of a pose (SDF) as it is, kcal/mol. */
export async function vinaScore(receptorPdbqt: string, sdf: string): Promise<number> {
  const pdbqt = sdf.replace(/\.sdf$/, ".pdbqt");
  const converted = await runTool("obabel", [sdf, "-O", pdbqt]);
  assert.equal(converted.status, 0, converted.stderr);
  const run = await runTool("vina", [
    "--receptor",
    receptorPdbqt,
    "--ligand",
    pdbqt,
    "--score_only",
    "--autobox",
    "--cpu",
    "1",
  ]);
  const score = parseScoreOnly(run.stdout);
  assert.ok(score !== null, `vina --score_only ${sdf}: ${run.stderr}`);
  return score;
}

/** A validation's series: a target and how many of its ligands the validation scores. */
export interface BenchmarkSeries {
  readonly target: string;
  readonly ligands: number;
}

/** The ligands a validation scores of `target`: its count spread over the measured range. */
export function chosenLigands(series: readonly BenchmarkSeries[], target: string): BenchmarkLigand[] {
  return spread(ligandsOf(target), series.find((entry) => entry.target === target)?.ligands ?? 0);
}

/**
 * The stored-answer cases of a series validation (stored-answers.ts): `<target>/<ligand>` for every
 * scored ligand, with the digests of the receptor and ligand it is computed from and the settings.
 */
export function seriesCases(series: readonly BenchmarkSeries[], settings: unknown): Map<string, unknown> {
  return new Map(
    series.flatMap(({ target }) => {
      const protein = sha256Hex(readFileSync(join(PLB, target, "protein.pdb"), "utf8"));
      return chosenLigands(series, target).map((ligand) => [
        `${target}/${ligand.name}`,
        { protein, ligand: sha256Hex(ligand.sdf), settings },
      ]);
    }),
  );
}
