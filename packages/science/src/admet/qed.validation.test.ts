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
import { computeQed, type QedProperties, qedProperties } from "./qed.ts";

const DOCS = new URL("../../../../docs/science.md", import.meta.url);
const n = (x: number) => x.toLocaleString("en-US");

const NAMES: (keyof QedProperties)[] = ["MW", "ALOGP", "HBA", "HBD", "PSA", "ROTB", "AROM", "ALERTS"];

describe("QED (Bickerton 2012) against native RDKit", () => {
  assertNciInCi();
  it("agrees with native rdkit.Chem.QED within 0.005 on ≥ 99% of NCI first_5K, as docs/science.md states", {
    skip: nciMissing ?? false,
  }, async () => {
    const rdkit = await loadRDKit();
    const native = storedNative<number[]>("qed");
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
      "packages/science/src/admet/qed.validation.test.ts",
      `- QED within 1e-6 of native \`rdkit.Chem.QED\` on ${n(exact)}/${n(compared)} NCI molecules${within005}.`,
    );
  });
});
