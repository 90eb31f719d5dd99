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
import { computeQed, type QedProperties, qedProperties } from "./qed.ts";

const DOCS = new URL("../../../../docs/science.md", import.meta.url);
const n = (x: number) => x.toLocaleString("en-US");

const NAMES: (keyof QedProperties)[] = ["MW", "ALOGP", "HBA", "HBD", "PSA", "ROTB", "AROM", "ALERTS"];

const qedOf = (smiles: string): Promise<number> =>
  ofParsed(smiles, (rdkit, mol) => computeQed(qedProperties(rdkit, mol)));

describe("QED (Bickerton 2012)", () => {
  // Values printed (truncated) in RDKit's QED.py doctests, from Bickerton's original implementation.
  it("reproduces the reference values of three molecules from the QED paper", async () => {
    assert.match(String(await qedOf("N=C(CCSCc1csc(N=C(N)N)n1)NS(N)(=O)=O")), /^0\.253/);
    assert.match(String(await qedOf("CNC(=NCCSCc1nc[nH]c1C)NC#N")), /^0\.234/);
    assert.match(String(await qedOf("CCCCCNC(=N)NN=Cc1c[nH]c2ccc(CO)cc12")), /^0\.234/);
  });

  assertNativeInCi();
  it("agrees with native rdkit.Chem.QED within 0.005 on ≥ 99% of NCI first_5K, as docs/science.md states", {
    skip: nativeMissing ?? false,
  }, async () => {
    const rdkit = await loadRDKit();
    const native = runNative<Record<string, number[]>>("qed.py", [NCI_5K]);
    let close = 0;
    let exact = 0;
    const propertyDiffers = new Map<string, number>();
    const compared = eachParsedWithNative(
      rdkit,
      readNci(readFileSync(NCI_5K, "utf8")),
      native,
      (mol, expected) => {
        const props = qedProperties(rdkit, mol);
        const diff = Math.abs(computeQed(props) - (expected[0] ?? Number.NaN));
        if (diff < 0.005) close++;
        if (diff < 1e-6) exact++;
        NAMES.forEach((name, i) => {
          if (Math.abs(props[name] - (expected[i + 1] ?? Number.NaN)) > 1e-6)
            propertyDiffers.set(name, (propertyDiffers.get(name) ?? 0) + 1);
        });
      },
    );
    console.log(
      `# QED |diff| < 0.005: ${close}/${compared}; < 1e-6: ${exact}; properties differing: ${JSON.stringify(Object.fromEntries(propertyDiffers))}`,
    );
    assert.ok(compared >= 4900, `compared ${compared}`);
    assert.ok(close / compared >= 0.99, `QED within 0.005 for ${close}/${compared}`);
    const within005 = close > exact ? `, within 0.005 on ${n(close)}` : "";
    assertGeneratedBlock(
      DOCS,
      "qed-native",
      "packages/science/src/admet/qed.test.ts",
      `- QED within 1e-6 of native \`rdkit.Chem.QED\` on ${n(exact)}/${n(compared)} NCI molecules${within005}.`,
    );
  });
});
