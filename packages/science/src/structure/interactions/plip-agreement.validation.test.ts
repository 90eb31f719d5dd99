import assert from "node:assert/strict";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, it } from "node:test";
import { fileURLToPath } from "node:url";
import { assertGeneratedBlock, makeTempDir } from "@svc/testing";
import { loadRDKit } from "../../rdkit.ts";
import { splitSdf } from "../molfile.ts";
import { parsePdb } from "../parse-pdb.ts";
import { interactionKey } from "./interaction-keys.ts";
import { INTERACTION_TYPES, type InteractionType, summarizeInteractions } from "./interaction-profile.ts";
import { PLIP_COMMAND, plipKeys, prepareComplexes, runPlip } from "./plip-reference.ts";
import { profileInteractions } from "./profile-interactions.ts";
import { readLigandMolblock } from "./read-ligand.ts";

const COMPLEXES = fileURLToPath(new URL("../../../data/complexes/", import.meta.url));
const DOCS = fileURLToPath(new URL("../../../../../docs/science.md", import.meta.url));
const plipMissing = existsSync(PLIP_COMMAND) ? null : `${PLIP_COMMAND} missing (Debian plip)`;

interface Tally {
  plip: number;
  ours: number;
  identical: number;
}

/** Multiset agreement: identical = keys present in both (with multiplicity). */
function tally(ours: readonly string[], theirs: readonly string[]): Tally {
  const counts = new Map<string, number>();
  for (const k of theirs) counts.set(k, (counts.get(k) ?? 0) + 1);
  let identical = 0;
  for (const k of ours) {
    const n = counts.get(k) ?? 0;
    if (n > 0) {
      identical += 1;
      counts.set(k, n - 1);
    }
  }
  return { plip: theirs.length, ours: ours.length, identical };
}

/** Share of all interactions (either tool's) that both report identically. */
function agreement(t: Tally): number {
  const union = t.plip + t.ours - t.identical;
  return union === 0 ? 1 : t.identical / union;
}

const pct = (t: Tally) => `${(100 * agreement(t)).toFixed(1)}%`;

describe("interaction profiles against PLIP", () => {
  if (plipMissing !== null && process.env.CI === "true")
    throw new Error(`PLIP reference unavailable in CI: ${plipMissing}`);

  it("counts interactions per type and distinct residues for the 1G9V crystal pose", async () => {
    const rdkit = await loadRDKit();
    const receptor = parsePdb(readFileSync(join(COMPLEXES, "1g9v", "receptor.pdb"), "utf8")).atoms;
    const [block = ""] = splitSdf(readFileSync(join(COMPLEXES, "1g9v", "ligand.sdf"), "utf8"));
    const profile = profileInteractions(receptor, readLigandMolblock(rdkit, block));
    const counts = summarizeInteractions(profile);
    // No hydrogens in the file: no hydrogen bonds can be found, contacts still are.
    assert.equal(counts.hydrogen_bond, 0);
    assert.ok(counts.hydrophobic > 0);
    assert.equal(counts.total, profile.interactions.length);
    assert.ok(profile.bindingSite.length >= counts.residues);
  });

  it("≥ 95% of interactions are identical to Debian PLIP's (type, residue, ligand atoms) on every shared complex, crystal and docked poses, and docs/science.md holds the regenerated table", {
    skip: plipMissing ?? false,
  }, async (t) => {
    const rdkit = await loadRDKit();
    const tmp = await makeTempDir("plip-agreement-", t);
    const rows: string[] = [];
    const byType = new Map<InteractionType, Tally>(
      INTERACTION_TYPES.map((type) => [type, { plip: 0, ours: 0, identical: 0 }]),
    );
    const overall: Record<"crystal" | "docked", Tally> = {
      crystal: { plip: 0, ours: 0, identical: 0 },
      docked: { plip: 0, ours: 0, identical: 0 },
    };
    for (const id of readdirSync(COMPLEXES).sort()) {
      for (const [file, kind] of [
        ["ligand.sdf", "crystal"],
        ["poses.sdf", "docked"],
      ] as const) {
        if (!existsSync(join(COMPLEXES, id, file))) continue;
        const outDir = join(tmp, `${id}-${kind}`);
        const poses = prepareComplexes(
          join(COMPLEXES, id, "receptor.pdb"),
          join(COMPLEXES, id, file),
          outDir,
        );
        const row: Tally = { plip: 0, ours: 0, identical: 0 };
        for (const pose of poses) {
          const theirs = plipKeys(runPlip(pose.dir), pose.ligandFirstSerial);
          const receptor = parsePdb(readFileSync(join(pose.dir, "complex.pdb"), "utf8")).atoms.filter(
            (a) => a.resName !== "LIG",
          );
          const [block = ""] = splitSdf(readFileSync(join(pose.dir, "ligand.sdf"), "utf8"));
          const ours = profileInteractions(receptor, readLigandMolblock(rdkit, block)).interactions;
          for (const type of INTERACTION_TYPES) {
            const s = tally(
              ours.filter((i) => i.type === type).map(interactionKey),
              theirs.filter((k) => k.type === type).map((k) => k.key),
            );
            const total = byType.get(type) ?? { plip: 0, ours: 0, identical: 0 };
            for (const target of [total, row, overall[kind]]) {
              target.plip += s.plip;
              target.ours += s.ours;
              target.identical += s.identical;
            }
          }
        }
        const label = kind === "crystal" ? "crystal" : `docked (${poses.length} poses)`;
        rows.push(`| ${id} | ${label} | ${row.plip} | ${row.ours} | ${row.identical} | ${pct(row)} |`);
      }
    }
    const all: Tally = {
      plip: overall.crystal.plip + overall.docked.plip,
      ours: overall.crystal.ours + overall.docked.ours,
      identical: overall.crystal.identical + overall.docked.identical,
    };
    const typeRows = INTERACTION_TYPES.map((type) => {
      const s = byType.get(type) ?? { plip: 0, ours: 0, identical: 0 };
      return `| ${type} | ${s.plip} | ${s.ours} | ${s.identical} | ${s.plip + s.ours === 0 ? "—" : pct(s)} |`;
    });
    const table = [
      "| complex | pose | PLIP | ours | identical | agreement |",
      "|---|---|---:|---:|---:|---:|",
      ...rows,
      `| **all** | crystal | ${overall.crystal.plip} | ${overall.crystal.ours} | ${overall.crystal.identical} | ${pct(overall.crystal)} |`,
      `| **all** | docked | ${overall.docked.plip} | ${overall.docked.ours} | ${overall.docked.identical} | ${pct(overall.docked)} |`,
      `| **all** | both | ${all.plip} | ${all.ours} | ${all.identical} | **${pct(all)}** |`,
      "",
      "| type | PLIP | ours | identical | agreement |",
      "|---|---:|---:|---:|---:|",
      ...typeRows,
    ].join("\n");

    assert.ok(agreement(all) >= 0.95, `overall agreement ${pct(all)}`);
    for (const [type, s] of byType) assert.ok(agreement(s) >= 0.95, `${type}: ${pct(s)}`);

    assertGeneratedBlock(
      DOCS,
      "plip-agreement",
      "packages/science/src/structure/interactions/plip-agreement.validation.test.ts",
      table,
    );
  });
});
