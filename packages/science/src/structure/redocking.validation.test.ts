import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { createHash } from "node:crypto";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { assertGeneratedBlock, findGeneratedBlocks, makeTempDir, UPDATE_DOCS_ENV } from "@svc/testing";
import { runNative } from "../../test/support/native-rdkit.ts";
import { assertStructureToolsInCi, structureToolsMissing } from "../../test/support/structure-tools.ts";
import { createVinaDockingEngine, type DockedCompound } from "./docking-engine.ts";
import { createLigandPreparer } from "./ligand-preparer.ts";
import { type PocketBox, pocketBoxFromLigand } from "./pocket-box.ts";
import { createReceptorPreparer } from "./receptor-preparer.ts";
import type { Vec3 } from "./vec3.ts";

// Issue 25 item 8: redock every shared PoseBusters complex (test/fixtures/posebusters/PROVENANCE.md)
// from its crystal ligand's SMILES, box from the crystal ligand, exhaustiveness 8 and one CPU per Vina
// process (two complexes at a time), and compare with the `vina` command typed by hand on the same
// prepared receptor, ligand PDBQT, box and seed. The receptors are cropped to the pocket first
// (cropAroundBox) to keep the test's CPU time down.

const FIXTURES = fileURLToPath(new URL("../../test/fixtures/posebusters/", import.meta.url));
const DOCS = fileURLToPath(new URL("../../../../docs/science.md", import.meta.url));
const SEED = 42;
/** Ours and the hand-typed vina run the same program on the same files with the same seed. */
const SCORE_TOLERANCE = 0.1;
// Asynchronous, so the other lane's Vina runs while this one's anchor does.
const run = promisify(execFile);

interface RedockCase {
  readonly name: string;
  readonly receptor: string;
  readonly ligand: string;
  /** The crystal ligand's residue name, removed from the receptor where copies of it remain. */
  readonly ligandResidue?: string;
}

/**
 * The shared complexes whose crystal ligand has at most 6 rotatable bonds (RDKit's count). Left out
 * for CI time, not for their results: 2HA2 (SCK, 9), sanity_error (7), 5ze6 (15) and sanity_error_2
 * (a coenzyme A, 24): Vina's search time grows with the torsions, and these four would more than
 * double the test's CPU time (issue 25 asks for a test that stays within minutes on 2 cores).
 */
const CASES: readonly RedockCase[] = [
  {
    name: "1G9V_RQ3",
    receptor: "1G9V_RQ3/1G9V_RQ3_protein.pdb",
    ligand: "1G9V_RQ3/1G9V_RQ3_ligand.sdf",
    ligandResidue: "RQ3",
  },
  {
    name: "1ia1 (TQ3)",
    receptor: "1ia1/1ia1_protein_one_lig_removed.pdb",
    ligand: "1ia1/1ia1_ligand.sdf",
    ligandResidue: "TQ3",
  },
  {
    name: "1of6 (DTY)",
    receptor: "1of6/1of6_protein_one_lig_removed.pdb",
    ligand: "1of6/1of6_ligand.sdf",
    ligandResidue: "DTY",
  },
  {
    name: "1s3v (TQD)",
    receptor: "1s3v/1s3v_protein_one_lig_removed.pdb",
    ligand: "1s3v/1s3v_ligand.sdf",
    ligandResidue: "TQD",
  },
  // 2bm2 (PM2) was left out after two CI runs gave −8.276 and −7.617 kcal/mol (ours equal to the
  // hand-typed vina both times). Measured cause (issue 43): its receptor was prepared differently each
  // run — OpenMM's multithreaded CPU platform minimised the added hydrogens (up to 0.02 Å apart) and
  // Open Babel then typed HIS 166's ND1 a donor in one run and an acceptor in the other. With the
  // preparation on OpenMM's Reference platform, two fresh-clone runs of 2bm2 alone under load gave
  // −8.276 kcal/mol and 0.276 Å top-pose RMSD both times (131.5 and 170.5 CPU-s): it is back.
  {
    name: "2bm2 (PM2)",
    receptor: "2bm2/mol_2bm2_protein_one_ligand_removed.pdb",
    ligand: "2bm2/mol_2bm2_ligand.sdf",
    ligandResidue: "PM2",
  },
  {
    name: "2HA3 (CHT)",
    receptor: "2HA2_SCK_2HA3_CHT/2HA2_SCK_2HA3_CHT_smaller_receptor.pdb",
    ligand: "2HA2_SCK_2HA3_CHT/2HA2_SCK_2HA3_CHT_smaller_ligand.sdf",
    ligandResidue: "CHT",
  },
  {
    name: "7CNQ_G8X",
    receptor: "7CNQ_G8X/7CNQ_G8X_protein.pdb",
    ligand: "7CNQ_G8X/7CNQ_G8X_ligand.sdf",
    ligandResidue: "G8X",
  },
];

interface Reference {
  readonly smiles: string;
  readonly heavy_atoms: number;
  readonly positions: Vec3[];
}

interface Row {
  readonly name: string;
  readonly heavyAtoms: number;
  readonly torsions: number;
  readonly ours: DockedCompound;
  readonly anchorScore: number;
  readonly ourRmsd: readonly number[];
  readonly anchorRmsd: readonly number[];
}

test("every fixture is the file PROVENANCE.md names, byte for byte", () => {
  const table = readFileSync(join(FIXTURES, "PROVENANCE.md"), "utf8");
  const rows = [...table.matchAll(/^\| `([^`]+)` \|.*\| ([0-9a-f]{64}) \|$/gm)];
  assert.ok(rows.length >= 20, "PROVENANCE.md lists the fixture files");
  for (const [, file, sha] of rows) {
    const digest = createHash("sha256")
      .update(readFileSync(join(FIXTURES, file as string)))
      .digest("hex");
    assert.equal(digest, sha, `${file} changed: update test/fixtures/posebusters/PROVENANCE.md`);
  }
});

test("redocking the shared complexes from SMILES: our Vina scores equal the hand-typed vina command's within 0.1 kcal/mol, our success rate is at least its own, and docs/science.md holds the regenerated table", {
  skip: structureToolsMissing ?? false,
  timeout: 1_800_000,
}, async (t) => {
  assertStructureToolsInCi();
  const work = await makeTempDir("svc-redock-", t);
  const receptors = createReceptorPreparer({ cacheDir: join(work, "receptors") });
  const ligands = createLigandPreparer({ workDir: join(work, "ligands"), seed: SEED });
  const engine = createVinaDockingEngine({ workDir: join(work, "docking"), seed: SEED, cpu: 1 });
  const redock = async (entry: RedockCase, index: number): Promise<Row> => {
    const ligandPath = join(FIXTURES, entry.ligand);
    const reference = runNative<Reference>("redock-reference.py", [ligandPath]);
    const box = pocketBoxFromLigand(reference.positions);
    const cropped = join(work, `receptor-${index}.pdb`);
    writeFileSync(cropped, cropAroundBox(readFileSync(join(FIXTURES, entry.receptor), "utf8"), box));
    const receptor = await receptors.prepare(cropped, {
      removeHeterogens: entry.ligandResidue ? [entry.ligandResidue] : [],
    });
    const ligand = await ligands.prepare({ id: entry.name, smiles: reference.smiles });
    assert.equal(
      ligand.status,
      "prepared",
      `${entry.name}: ${ligand.status === "unassessed" ? ligand.reason : ""}`,
    );
    if (ligand.status !== "prepared") throw new Error("unreachable");
    const ours = await engine.dock({ ligand, receptor, box });
    assert.equal(ours.status, "docked", `${entry.name}: ${ours.status === "unassessed" ? ours.reason : ""}`);
    if (ours.status !== "docked") throw new Error("unreachable");
    // The anchor: vina as a person types it, on the same receptor and ligand PDBQT, box and seed.
    const anchorOut = join(work, `anchor-${index}.pdbqt`);
    const [cx, cy, cz] = box.center;
    const [sx, sy, sz] = box.size;
    await run(
      "vina",
      [
        ...["--receptor", receptor.pdbqtPath, "--ligand", ligand.pdbqtPath],
        ...["--center_x", `${cx}`, "--center_y", `${cy}`, "--center_z", `${cz}`],
        ...["--size_x", `${sx}`, "--size_y", `${sy}`, "--size_z", `${sz}`],
        ...[
          "--seed",
          `${SEED}`,
          "--exhaustiveness",
          "8",
          "--num_modes",
          "9",
          "--cpu",
          "1",
          "--out",
          anchorOut,
        ],
      ],
      { maxBuffer: 16 * 1024 * 1024 },
    );
    const anchorScore = Number(/REMARK VINA RESULT:\s+(\S+)/.exec(readFileSync(anchorOut, "utf8"))?.[1]);
    // The anchor's poses go to SDF by Open Babel alone (no mapping of ours in between).
    const anchorSdf = join(work, `anchor-${index}.sdf`);
    await run("obabel", [anchorOut, "-osdf", "-O", anchorSdf]);
    return {
      name: entry.name,
      heavyAtoms: reference.heavy_atoms,
      torsions: ligand.torsions,
      ours,
      anchorScore,
      ourRmsd: runNative<number[]>("redock-rmsd.py", [ours.posesSdfPath, ligandPath]),
      anchorRmsd: runNative<number[]>("redock-rmsd.py", [anchorSdf, ligandPath]),
    };
  };
  // Two complexes at a time, one Vina thread each: the machine's two cores.
  const rows: Row[] = new Array(CASES.length);
  let next = 0;
  const lane = async () => {
    while (next < CASES.length) {
      const index = next++;
      rows[index] = await redock(CASES[index] as RedockCase, index);
    }
  };
  await Promise.all([lane(), lane()]);

  const success = (rmsds: readonly number[]) => (rmsds[0] ?? Number.POSITIVE_INFINITY) <= 2;
  const ourSuccesses = rows.filter((row) => success(row.ourRmsd)).length;
  const anchorSuccesses = rows.filter((row) => success(row.anchorRmsd)).length;
  const table = renderTable(rows, ourSuccesses, anchorSuccesses);
  // The whole table goes to the log first, so a failure below shows every complex's values, not only
  // the first that differed.
  t.diagnostic(`this run's redocking table:\n${table}`);

  const offTolerance = rows
    .filter((row) => !(Math.abs(row.ours.score - row.anchorScore) <= SCORE_TOLERANCE))
    .map(
      (row) =>
        `${row.name}: ours ${row.ours.score} kcal/mol, the hand-typed vina ${row.anchorScore} kcal/mol, ` +
        `|difference| ${Math.abs(row.ours.score - row.anchorScore).toFixed(3)} > tolerance ${SCORE_TOLERANCE}`,
    );
  assert.deepEqual(offTolerance, [], `scores off the hand-typed vina's:\n${offTolerance.join("\n")}`);
  assert.ok(ourSuccesses >= anchorSuccesses, `ours ${ourSuccesses} vs vina ${anchorSuccesses} top-1 ≤ 2 Å`);

  const recorded = findGeneratedBlocks(readFileSync(DOCS, "utf8")).find((b) => b.name === "redocking");
  const moved = tableDifferences(recorded?.body ?? "", table);
  if (moved.length > 0 && process.env[UPDATE_DOCS_ENV] !== "1")
    assert.fail(`this run's redocking table differs from docs/science.md's:\n${moved.join("\n")}`);
  assertGeneratedBlock(
    DOCS,
    "redocking",
    "packages/science/src/structure/redocking.validation.test.ts",
    table,
  );
});

test("a redocking table difference names the complex, the column and both values", () => {
  const header = "| complex | Vina score, ours (kcal/mol) | `vina` by hand |\n|---|---|---|";
  const recorded = `${header}\n| 1s3v (TQD) | -9.483 | -9.483 |\n| 1ia1 (TQ3) | -8.877 | -8.877 |\n\nTop-1: 1 of 2.`;
  const rerun = `${header}\n| 1s3v (TQD) | -9.420 | -9.483 |\n| 1ia1 (TQ3) | -8.877 | -8.877 |\n\nTop-1: 2 of 2.`;
  assert.deepEqual(tableDifferences(recorded, rerun), [
    "1s3v (TQD), Vina score, ours (kcal/mol): docs/science.md -9.483, this run -9.420",
    "summary line: docs/science.md «Top-1: 1 of 2.», this run «Top-1: 2 of 2.»",
  ]);
  assert.deepEqual(tableDifferences(recorded, recorded), []);
  assert.deepEqual(
    tableDifferences(recorded, `${header}\n| 1ia1 (TQ3) | -8.877 | -8.877 |\n\nTop-1: 1 of 2.`),
    ["1s3v (TQD): in docs/science.md, not in this run"],
  );
});

/**
 * Cell by cell, what differs between the recorded table (docs/science.md) and this run's, each as
 * "complex, column: docs value, this run value"; rows matched by the complex's name, and any other
 * line (the summary) compared as a whole.
 */
function tableDifferences(recorded: string, regenerated: string): string[] {
  const parse = (body: string) => {
    const lines = body.split("\n").filter((line) => line.trim() !== "");
    const cells = (line: string) =>
      line
        .replace(/^\|/, "")
        .replace(/\|$/, "")
        .split("|")
        .map((cell) => cell.trim());
    const header = cells(lines[0] ?? "");
    const rows = new Map<string, string[]>();
    const other: string[] = [];
    for (const line of lines.slice(1)) {
      if (/^\|[-|]+\|$/.test(line)) continue;
      if (line.startsWith("|")) rows.set(cells(line)[0] ?? "", cells(line));
      else other.push(line);
    }
    return { header, rows, other };
  };
  const before = parse(recorded);
  const after = parse(regenerated);
  const out: string[] = [];
  for (const [name, cells] of after.rows) {
    const old = before.rows.get(name);
    if (!old) {
      out.push(`${name}: in this run, not in docs/science.md`);
      continue;
    }
    cells.forEach((cell, column) => {
      if (cell !== old[column])
        out.push(`${name}, ${after.header[column]}: docs/science.md ${old[column]}, this run ${cell}`);
    });
  }
  for (const name of before.rows.keys())
    if (!after.rows.has(name)) out.push(`${name}: in docs/science.md, not in this run`);
  const [oldSummary = "", newSummary = ""] = [before.other.join(" "), after.other.join(" ")];
  if (oldSummary !== newSummary)
    out.push(`summary line: docs/science.md «${oldSummary}», this run «${newSummary}»`);
  return out;
}

/**
 * The receptor's residues with any atom within 12 Å of the box: Vina's interactions stop at 8 Å
 * (Trott & Olson 2010), so scores and poses inside the box are those of the whole receptor, and
 * PDBFixer prepares 1of6's 20,912 atoms or 7CNQ's 16,396 in seconds instead of minutes. CONECT
 * records are kept when every atom they name is; TER only where it closes kept atoms.
 */
function cropAroundBox(pdb: string, box: PocketBox): string {
  const margin = 12;
  const lines = pdb.split("\n");
  const residueOf = (line: string) => line.slice(17, 27);
  const near = new Set<string>();
  for (const line of lines) {
    if (!line.startsWith("ATOM  ") && !line.startsWith("HETATM")) continue;
    const p = [Number(line.slice(30, 38)), Number(line.slice(38, 46)), Number(line.slice(46, 54))];
    const outside = [0, 1, 2].map((axis) =>
      Math.max(
        0,
        Math.abs((p[axis] as number) - (box.center[axis] as number)) - (box.size[axis] as number) / 2,
      ),
    );
    if (Math.hypot(...outside) <= margin) near.add(residueOf(line));
  }
  const kept = new Set<string>();
  const out: string[] = [];
  for (const line of lines) {
    if (line.startsWith("ATOM  ") || line.startsWith("HETATM")) {
      if (!near.has(residueOf(line))) continue;
      kept.add(line.slice(6, 11).trim());
      out.push(line);
    } else if (line.startsWith("CONECT")) {
      const serials = line.slice(6).trim().split(/\s+/);
      if (serials.every((serial) => kept.has(serial))) out.push(line);
    } else if (line.startsWith("TER") && /^(ATOM|HETATM)/.test(out.at(-1) ?? "")) {
      // Only after a kept atom: OpenMM's reader refuses a TER that closes no chain.
      out.push(line);
    }
  }
  return `${out.join("\n")}\n`;
}

function renderTable(rows: readonly Row[], ours: number, anchor: number): string {
  const fixed = (value: number | undefined, digits: number) =>
    value === undefined || !Number.isFinite(value) ? "–" : value.toFixed(digits);
  const lines = [
    "| complex | heavy atoms | torsions | Vina score, ours (kcal/mol) | `vina` by hand | LE | top-1 RMSD (Å) | best-of-9 RMSD (Å) | `vina` by hand top-1 RMSD | pose checks |",
    "|---|---|---|---|---|---|---|---|---|---|",
  ];
  for (const row of rows) {
    const failed = row.ours.poseChecks.checks.filter((check) => !check.passed).map((check) => check.name);
    lines.push(
      `| ${row.name} | ${row.heavyAtoms} | ${row.torsions} | ${fixed(row.ours.score, 3)} | ${fixed(row.anchorScore, 3)} | ${fixed(
        row.ours.ligandEfficiency ?? Number.NaN,
        3,
      )} | ${fixed(row.ourRmsd[0], 2)} | ${fixed(Math.min(...row.ourRmsd), 2)} | ${fixed(row.anchorRmsd[0], 2)} | ${
        failed.length === 0 ? "all pass" : `fail: ${failed.join(", ")}`
      } |`,
    );
  }
  lines.push("");
  lines.push(
    `Top-1 RMSD ≤ 2 Å: **${ours} of ${rows.length}** (the \`vina\` command by hand: ${anchor} of ${rows.length}); best of 9 ≤ 2 Å: ${
      rows.filter((row) => Math.min(...row.ourRmsd) <= 2).length
    } of ${rows.length}.`,
  );
  return `${lines.join("\n")}\n`;
}
