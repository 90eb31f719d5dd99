import assert from "node:assert/strict";
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, it } from "node:test";
import { makeTempDir } from "@svc/testing";
import { RunnerError } from "../runner-error.ts";
import { parseSources } from "./sources.ts";
import { stageStructures } from "./structure-inputs.ts";

type Owner = { after: (fn: () => unknown) => void };

/** A 30-residue α-helix of Cα atoms (3.8 Å apart, 1.5 Å rise) with a ligand residue STI A 201 at its axis. */
function helixPdb(): string {
  const lines: string[] = [];
  for (let i = 0; i < 30; i++) {
    const angle = (i * 100 * Math.PI) / 180;
    const [x, y, z] = [2.3 * Math.cos(angle), 2.3 * Math.sin(angle), 1.5 * i];
    lines.push(
      `ATOM  ${String(i + 1).padStart(5)}  CA  ALA A${String(i + 1).padStart(4)}    ${x.toFixed(3).padStart(8)}${y.toFixed(3).padStart(8)}${z.toFixed(3).padStart(8)}  1.00 20.00           C`,
    );
  }
  lines.push("HETATM   31  C1  STI A 201       0.000   0.000  20.000  1.00 30.00           C");
  return `${lines.join("\n")}\nEND\n`;
}

const LIGAND_SDF = `lig
  test

  1  0  0  0  0  0  0  0  0  0999 V2000
    0.0000    0.0000   20.0000 C   0  0  0  0  0  0  0  0  0  0  0  0
M  END
$$$$
`;

async function stage(t: Owner, pdbs: unknown[], files: Record<string, string> = {}) {
  const dir = await makeTempDir("structures-", t);
  await writeFile(join(dir, "receptor.pdb"), helixPdb());
  for (const [name, text] of Object.entries(files)) await writeFile(join(dir, name), text);
  const sources = parseSources(JSON.stringify({ portfolio_selected_csv: "p.csv", pdbs }));
  return stageStructures(dir, sources.pdbs);
}

async function refusal(t: Owner, pdbs: unknown[], files: Record<string, string> = {}): Promise<string> {
  try {
    await stage(t, pdbs, files);
  } catch (error) {
    assert.ok(error instanceof RunnerError);
    assert.equal(error.code, "STRUCTURE_INVALID");
    assert.equal(error.exitCode, 2);
    return error.message;
  }
  assert.fail("expected STRUCTURE_INVALID");
}

describe("structure inputs (pdbs)", () => {
  it("accepts a plain file name, a ligand residue, a ligand SD file and a box, each giving its pocket", async (t) => {
    const staged = await stage(
      t,
      [
        "receptor.pdb",
        { file: "receptor.pdb", ligand: "STI:A:201", target: "ABL1" },
        { file: "receptor.pdb", ligand: "lig.sdf" },
        { file: "receptor.pdb", box: { center: [0, 0, 20], size: [20, 20, 20] } },
      ],
      { "lig.sdf": LIGAND_SDF },
    );
    assert.deepEqual(
      staged.map((entry) => entry.pocket?.kind ?? null),
      [null, "ligand", "ligand", "box"],
    );
    assert.deepEqual(staged[0]?.chains, ["A"]);
    assert.equal(staged[1]?.entry.target, "ABL1");
  });

  it("refuses a file that does not parse, naming the file and field", async (t) => {
    const message = await refusal(t, ["bad.pdb"], { "bad.pdb": "ATOM      1  CA  ALA A   1      xx\n" });
    assert.match(message, /01_sources\/bad\.pdb \(sources\.json pdbs\[0\]\.file\): does not parse as PDB/);
  });

  it("refuses an mmCIF file without an _atom_site loop", async (t) => {
    const message = await refusal(t, ["bad.cif"], { "bad.cif": "data_X\n_cell.length_a 10\n" });
    assert.match(message, /bad\.cif .*pdbs\[0\]\.file\): does not parse as mmCIF: no _atom_site loop/);
  });

  it("refuses a file with no protein chain", async (t) => {
    const message = await refusal(t, ["ion.pdb"], {
      "ion.pdb": "HETATM    1 CA    CA A 301       1.000   2.000   3.000  1.00 20.00          CA\n",
    });
    assert.match(message, /ion\.pdb .*pdbs\[0\]\.file\): holds no protein chain/);
  });

  it("refuses a reference ligand that is not in the file, or not of the RES:CHAIN:NUM shape", async (t) => {
    assert.match(
      await refusal(t, [{ file: "receptor.pdb", ligand: "STI:B:201" }]),
      /receptor\.pdb \(sources\.json pdbs\[0\]\.ligand\): reference ligand STI:B:201 is not in the file/,
    );
    assert.match(
      await refusal(t, [{ file: "receptor.pdb", ligand: "imatinib" }]),
      /pdbs\[0\]\.ligand\): "imatinib" is neither RES:CHAIN:NUM/,
    );
  });

  it("refuses a box that is empty, larger than 40 Å on a side, or outside the protein", async (t) => {
    assert.match(
      await refusal(t, [{ file: "receptor.pdb", box: { center: [0, 0, 20], size: [20, 0, 20] } }]),
      /pdbs\[0\]\.box\.size\): the box is empty/,
    );
    assert.match(
      await refusal(t, [{ file: "receptor.pdb", box: { center: [0, 0, 20], size: [20, 41, 20] } }]),
      /pdbs\[0\]\.box\.size\): the box is larger than 40 Å on a side/,
    );
    assert.match(
      await refusal(t, [{ file: "receptor.pdb", box: { center: [100, 100, 100], size: [20, 20, 20] } }]),
      /pdbs\[0\]\.box\.center\): the box is outside the protein/,
    );
  });

  it("refuses, before the charge, a reference ligand in empty space or inside the protein, naming the file and the distance (issue 37 item 2)", async (t) => {
    const at = (x: number, y: number, z: number) =>
      LIGAND_SDF.replace(
        "    0.0000    0.0000   20.0000",
        `${x.toFixed(4).padStart(10)}${y.toFixed(4).padStart(10)}${z.toFixed(4).padStart(10)}`,
      );
    // 33.7 Å off the helix axis: 31.8 Å from the nearest Cα (the case the issue saw charged and sealed).
    const far = await refusal(t, [{ file: "receptor.pdb", ligand: "far.sdf" }], {
      "far.sdf": at(0, 33.7, 20),
    });
    assert.match(
      far,
      /^01_sources\/receptor\.pdb \(sources\.json pdbs\[0\]\.ligand\): reference ligand far\.sdf is 31\.8 Å from the nearest protein heavy atom \(more than 5 Å\): it names no pocket/,
    );
    // On top of the first Cα (2.3, 0, 0): inside the protein.
    const inside = await refusal(t, [{ file: "receptor.pdb", ligand: "in.sdf" }], {
      "in.sdf": at(2.3, 0, 0),
    });
    assert.match(
      inside,
      /reference ligand in\.sdf overlaps the protein: a heavy atom 0\.00 Å from a protein heavy atom/,
    );
    // 2.3 Å from the helix (the fixture's own ligand) is a contact: accepted.
    const ok = await stage(t, [{ file: "receptor.pdb", ligand: "lig.sdf" }], { "lig.sdf": LIGAND_SDF });
    assert.equal(ok[0]?.pocket?.kind, "ligand");
  });

  it("refuses a malformed entry in sources.json, naming the field", () => {
    assert.throws(
      () =>
        parseSources(
          JSON.stringify({
            portfolio_selected_csv: "p.csv",
            pdbs: [{ file: "r.pdb", box: { center: [0, 0], size: [1, 1, 1] } }, 3],
          }),
        ),
      /field pdbs\[0\]\.box\.center: must be three numbers .*field pdbs\[1\]: must be a file name or an object/,
    );
  });
});
