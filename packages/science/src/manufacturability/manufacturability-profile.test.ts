import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { describe, it } from "node:test";
import { assertGeneratedBlock } from "@svc/testing";
import {
  assertNativeInCi,
  eachParsedWithNative,
  NCI_5K,
  nativeMissing,
  ofParsed,
  readNci,
  runNative,
} from "../../test/support/native-rdkit.ts";
import { loadRDKit } from "../rdkit.ts";
import { type ManufacturabilityProfile, manufacturabilityProfile } from "./manufacturability-profile.ts";

const profileOf = (smiles: string): Promise<ManufacturabilityProfile> =>
  ofParsed(smiles, (rdkit, mol) => manufacturabilityProfile(rdkit, mol));

const DOCS = new URL("../../../../docs/science.md", import.meta.url);
const n = (x: number) => x.toLocaleString("en-US");

describe("manufacturability counts", () => {
  it("a spiro bicycle fused to a bridged ring is one ring system with its spiro and bridgehead atoms", async () => {
    const p = await profileOf("C1CC2(CCC1)CCC1CCC2C1");
    assert.equal(p.ring_systems, 1);
    assert.equal(p.spiro_atoms, 1);
    assert.equal(p.bridgehead_atoms, 2);
    assert.equal(p.unspecified_stereocentres, p.stereocentres);
  });

  it("cyclododecane is a macrocycle, cycloundecane is not; biphenyl has two ring systems", async () => {
    assert.equal((await profileOf("C1CCCCCCCCCCC1")).macrocycles, 1);
    assert.equal((await profileOf("C1CCCCCCCCCC1")).macrocycles, 0);
    assert.equal((await profileOf("c1ccccc1-c1ccccc1")).ring_systems, 2);
  });

  it("flags a metal and a covalent NIBR motif in words", async () => {
    const p = await profileOf("C=CC(=O)Nc1ccc(cc1)[Sn](C)(C)C");
    assert.deepEqual(p.metals, ["Sn"]);
    assert.ok(p.flags.includes("contains Sn: metal content to control"), p.flags.join("; "));
    assert.ok(
      p.flags.some((flag) => flag.startsWith("reactive motif")),
      p.flags.join("; "),
    );
  });

  assertNativeInCi();
  it("equals native RDKit's counts on ≥ 99.5% of NCI first_5K for every key", {
    skip: nativeMissing ?? false,
  }, async () => {
    const native = runNative<Record<string, [number, number, number, number, number, number, string[]]>>(
      "manufacturability.py",
      [NCI_5K],
    );
    const rdkit = await loadRDKit();
    const keys = [
      "stereocentres",
      "unspecified_stereocentres",
      "ring_systems",
      "macrocycles",
      "spiro_atoms",
      "bridgehead_atoms",
      "metals",
    ] as const;
    const differ = new Map<string, string[]>();
    const compared = eachParsedWithNative(
      rdkit,
      readNci(readFileSync(NCI_5K, "utf8")),
      native,
      (mol, expected, id) => {
        const p = manufacturabilityProfile(rdkit, mol);
        keys.forEach((key, i) => {
          if (JSON.stringify(p[key]) !== JSON.stringify(expected[i]))
            differ.set(key, [...(differ.get(key) ?? []), `NCI-${id}`]);
        });
      },
    );
    const summary = Object.fromEntries(
      [...differ].map(([key, ids]) => [key, `${ids.length}: ${ids.slice(0, 5)}`]),
    );
    console.log(`# compared ${compared}; differing: ${JSON.stringify(summary)}`);
    assert.ok(compared >= 4900);
    for (const [key, ids] of differ)
      assert.ok(ids.length / compared <= 0.005, `${key} differs on ${ids.length}`);
    const differing = new Set([...differ.values()].flat());
    const which =
      differ.size === 0
        ? ""
        : ` (those that differ, ${[...differing].join(", ")}, differ in ${[...differ.keys()].map((k) => `\`${k}\``).join(", ")} only` +
          ([...differ.keys()].every((k) => k.includes("stereocentres"))
            ? ": the RDKit versions perceive stereo differently)"
            : ")");
    assertGeneratedBlock(
      DOCS,
      "manufacturability-native",
      "packages/science/src/manufacturability/manufacturability-profile.test.ts",
      `- **Validation.** Every count equal to native RDKit on ${n(compared - differing.size)}/${n(compared)} NCI molecules${which}.`,
    );
  });
});
