import assert from "node:assert/strict";
import { execFileSync, spawnSync } from "node:child_process";
import { describe, it } from "node:test";
import { fileURLToPath } from "node:url";
import { assertGeneratedBlock } from "@svc/testing";
import { readDataFile } from "../data/read-data-file.ts";
import { pearson } from "../numeric/pearson.ts";
import { analyseDynamicsNma, MAX_CALPHAS } from "./dynamics-nma.ts";
import { readSdfCoordinates } from "./molfile.ts";
import { parsePdb } from "./parse-pdb.ts";

const PYTHON = "/usr/bin/python3";
const prodyMissing =
  spawnSync(PYTHON, ["-c", "import prody"]).status === 0 ? null : "Debian python3-prody is not installed";
if (prodyMissing !== null && process.env.CI === "true")
  throw new Error(`ProDy reference unavailable in CI: ${prodyMissing}`);

/** The shared PoseBusters structures checked in (data/PROVENANCE.md), with their crystal ligand. */
const STRUCTURES = [
  { id: "1s3v", protein: "1s3v_protein_one_lig_removed.pdb", ligand: "1s3v_ligand.sdf" },
  { id: "1IA1", protein: "1IA1_TQ3_no_ligand_no_solvent.pdb", ligand: "1IA1_TQ3_ligand.sdf" },
];
const DOCS = new URL("../../../../docs/science.md", import.meta.url);

interface ProdyAnm {
  calphas: number;
  eigenvalues: number[];
  square_fluctuations: number[];
  prody: string;
}

const fixed = (value: number | null, digits = 4) => (value === null ? "—" : value.toFixed(digits));

describe("dynamics_nma, the ANM of Cα atoms", () => {
  it("a Cα triangle has 3 non-zero modes beyond its 6 rigid-body modes, and no pocket without a reference", () => {
    const pdb = [
      "ATOM      1  CA  ALA A   1       0.000   0.000   0.000  1.00 10.00           C",
      "ATOM      2  CA  GLY A   2       3.800   0.000   0.000  1.00 20.00           C",
      "ATOM      3  CA  SER A   3       1.900   3.291   0.000  1.00 30.00           C",
    ].join("\n");
    const result = analyseDynamicsNma(parsePdb(pdb), null);
    assert.equal(result.status, "executed");
    if (result.status !== "executed") return;
    assert.equal(result.zero_modes, 6);
    assert.equal(result.eigenvalues.length, 3);
    assert.equal(result.pocket, null);
  });

  it("a structure past the old 1,000-Cα limit is computed: three copies of 1IA1 200 Å apart (1,152 Cα) give 18 zero modes and each mode of one copy three times", () => {
    const text = readDataFile("1IA1_TQ3_no_ligand_no_solvent.pdb");
    const single = analyseDynamicsNma(parsePdb(text), null);
    // Each copy in its own chain, shifted along x (PDB columns 31–38).
    const atoms = text.split("\n").filter((line) => line.startsWith("ATOM  "));
    const copies = ["X", "Y", "Z"].flatMap((chain, copy) =>
      atoms.map(
        (line) =>
          `${line.slice(0, 21)}${chain}${line.slice(22, 30)}${(Number(line.slice(30, 38)) + 200 * copy).toFixed(3).padStart(8)}${line.slice(38)}`,
      ),
    );
    const result = analyseDynamicsNma(parsePdb(copies.join("\n")), null);
    assert.equal(single.status, "executed");
    assert.equal(result.status, "executed");
    if (result.status !== "executed" || single.status !== "executed") return;
    assert.equal(result.calpha_count, 3 * single.calpha_count);
    assert.ok(result.calpha_count > 1000);
    assert.equal(result.zero_modes, 18);
    result.eigenvalues.forEach((value, k) => {
      const expected = single.eigenvalues[Math.floor(k / 3)] as number;
      assert.ok(Math.abs(value - expected) / expected < 1e-5, `mode ${k + 1}: ${value} vs ${expected}`);
    });
  });

  it(`a structure of more than ${MAX_CALPHAS} Cα atoms is not_assessed with the reason, before any Hessian is built`, () => {
    const lines = Array.from({ length: MAX_CALPHAS + 1 }, (_, i) => {
      const x = ((i % 100) * 3.8).toFixed(3).padStart(8);
      const y = (Math.floor(i / 100) * 3.8).toFixed(3).padStart(8);
      const chain = String.fromCharCode(65 + Math.floor(i / 9999));
      const seq = String((i % 9999) + 1).padStart(4);
      return `ATOM  ${String((i % 99999) + 1).padStart(5)}  CA  ALA ${chain}${seq}    ${x}${y}   0.000  1.00 10.00           C`;
    });
    const result = analyseDynamicsNma(parsePdb(lines.join("\n")), null);
    assert.equal(result.status, "not_assessed");
    if (result.status !== "not_assessed") return;
    assert.equal(result.calpha_count, MAX_CALPHAS + 1);
    assert.match(result.reason, /10-minute CPU budget/);
  });

  it("equals ProDy's ANM (cutoff 15 Å, γ 1) on the shared PoseBusters structures, r ≥ 0.999, and the docs table is regenerated", {
    skip: prodyMissing ?? false,
  }, () => {
    const script = fileURLToPath(new URL("../../scripts/prody-anm.py", import.meta.url));
    const paths = STRUCTURES.map((entry) =>
      fileURLToPath(new URL(`../../data/${entry.protein}`, import.meta.url)),
    );
    const reference = JSON.parse(
      execFileSync(PYTHON, [script, ...paths], { encoding: "utf8", stdio: ["ignore", "pipe", "ignore"] }),
    ) as Record<string, ProdyAnm>;
    const rows: string[] = [];
    let version = "";
    STRUCTURES.forEach((entry, at) => {
      const prody = reference[paths[at] as string] as ProdyAnm;
      version = prody.prody;
      const ligand = readSdfCoordinates(readDataFile(entry.ligand));
      const result = analyseDynamicsNma(parsePdb(readDataFile(entry.protein)), {
        kind: "ligand",
        label: entry.ligand,
        atoms: ligand,
      });
      assert.equal(result.status, "executed", entry.id);
      if (result.status !== "executed" || result.pocket === null) return;
      assert.equal(result.calpha_count, prody.calphas, `${entry.id}: Cα count`);
      const rEigen = pearson(result.eigenvalues, prody.eigenvalues) ?? 0;
      const rFlucts =
        pearson(
          result.square_fluctuations.map((point) => point.value),
          prody.square_fluctuations,
        ) ?? 0;
      assert.ok(rEigen >= 0.999, `${entry.id}: eigenvalues r = ${rEigen}`);
      assert.ok(rFlucts >= 0.999, `${entry.id}: square fluctuations r = ${rFlucts}`);
      const maxRelative = Math.max(
        ...result.eigenvalues.map(
          (value, k) => Math.abs(value - (prody.eigenvalues[k] ?? 0)) / (prody.eigenvalues[k] ?? 1),
        ),
      );
      rows.push(
        `| ${entry.id} | ${result.calpha_count} | ${result.zero_modes} | ${fixed(rEigen)} | ${maxRelative < 1e-4 ? "< 10⁻⁴" : maxRelative.toExponential(1)} | ${fixed(rFlucts)} | ${fixed(result.bfactor_correlation, 3)} | ${result.pocket.residues.length} | ${result.pocket.mobile_count} |`,
      );
    });
    const table = [
      `ProDy ${version} (Debian python3-prody) \`ANM.buildHessian(calpha, cutoff=15, gamma=1)\`, \`calcModes(20)\`, \`calcSqFlucts\` against ours on the same files:`,
      "",
      "| structure | Cα | zero modes | r eigenvalues | max relative eigenvalue difference | r square fluctuations | r with Cα B-factors | pocket residues (8 Å of the crystal ligand) | mobile |",
      "|---|---|---|---|---|---|---|---|---|",
      ...rows,
      "",
      "— in the B-factor column: the file carries no B-factors (PoseBusters' processed `1s3v` receptor has them zeroed).",
    ].join("\n");
    assertGeneratedBlock(
      DOCS,
      "dynamics-nma-prody",
      "packages/science/src/structure/dynamics-nma.validation.test.ts",
      table,
    );
  });
});
