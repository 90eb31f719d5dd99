import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { describe, it } from "node:test";
import { assertGeneratedBlock } from "@svc/testing";
import { storedNative } from "../../test/support/native-oracles.ts";
import {
  assertNciInCi,
  eachParsedWithNative,
  NCI_5K,
  nciMissing,
  readNci,
} from "../../test/support/nci-set.ts";
import { loadRDKit } from "../rdkit.ts";
import { manufacturabilityProfile } from "./manufacturability-profile.ts";

const DOCS = new URL("../../../../docs/science.md", import.meta.url);
const n = (x: number) => x.toLocaleString("en-US");

describe("manufacturability counts against native RDKit", () => {
  assertNciInCi();
  it("equals native RDKit's counts on ≥ 99.5% of NCI first_5K for every key", {
    skip: nciMissing ?? false,
  }, async () => {
    const native =
      storedNative<[number, number, number, number, number, number, string[]]>("manufacturability");
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
      "packages/science/src/manufacturability/manufacturability-profile.validation.test.ts",
      `- **Validation.** Every count equal to native RDKit on ${n(compared - differing.size)}/${n(compared)} NCI molecules${which}.`,
    );
  });
});
