import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { parseTdc, readTdcModelFile, TDC_DATASETS } from "@svc/science/admet";
import { readDataFile } from "@svc/science/data";
import { rocAuc } from "@svc/science/fingerprint";
import { IMPLEMENTED_MODULES, inOneThread, loadRDKit, prepareCompound } from "@svc/science/modules";
import { mulberry32 } from "@svc/science/numeric";
import { assertGeneratedBlock } from "@svc/testing";
import { readCompoundView } from "../src/outputs/report/compound-view.ts";
import { desirabilityOf, LIABILITY_LABELS, LIABILITY_WEIGHTS } from "../src/outputs/report/desirability.ts";

// Issue 36 item 1: does the report's order put compounds with a documented liability below clean
// ones? Held-back compounds of the three serious endpoints (the test part of each model's own
// scaffold split: never trained or calibrated on), each run through the same modules a run uses and
// ordered by the same desirability score, oral_peripheral profile.

const ENDPOINTS = ["herg", "dili", "ames"] as const;
type Endpoint = (typeof ENDPOINTS)[number];
/** At most this many test compounds per endpoint (hERG and DILI have fewer), drawn by a fixed seed. */
const PER_ENDPOINT = 300;
const MODULES = [
  "molecular_logic",
  "admet_predictions",
  "solubility_assessment",
  "synthesis_audit",
  "toxicity_profile",
  "cyp_assessment",
  "clinical_precedent_prior",
];

interface Scored {
  readonly endpoint: Endpoint;
  readonly label: 0 | 1;
  readonly score: number;
  /** The endpoint's own model probability as the order reads it: the anchor the order is compared with. */
  readonly own: number;
  /** max(hERG, DILI, Ames) probabilities: the simple combined anchor the issue named. */
  readonly max3: number;
}

async function scoreHeldBack(): Promise<Scored[]> {
  const rdkit = await loadRDKit();
  const runs = IMPLEMENTED_MODULES.filter((m) => MODULES.includes(m.id)).map(
    (m) => [m.id, inOneThread(m, { targets: null })] as const,
  );
  const out: Scored[] = [];
  for (const endpoint of ENDPOINTS) {
    const dataset = TDC_DATASETS.find((d) => d.key === endpoint);
    assert.ok(dataset);
    const rows = parseTdc(readDataFile(dataset.file));
    const split = readTdcModelFile(endpoint).row_split;
    const random = mulberry32(36_1);
    const test = rows
      .map((row, at) => ({ row, at, key: 0 }))
      .filter(({ at }) => split[at] === "s")
      .map((entry) => ({ ...entry, key: random() }))
      .sort((a, b) => a.key - b.key)
      .slice(0, PER_ENDPOINT);
    for (const [n, { row }] of test.entries()) {
      const compound = prepareCompound(rdkit, {
        index: n,
        line: n + 1,
        candidateId: `${endpoint}-${n}`,
        name: null,
        smiles: row.smiles,
        metadata: {},
      });
      if (!compound.ok) continue;
      const findings = new Map<string, unknown>();
      for (const [id, run] of runs) findings.set(id, run.analyze(compound, findings as never));
      const view = readCompoundView(compound, findings, new Map());
      const decision = desirabilityOf(view);
      // each model as the order reads it: in domain its probability, out of its similarity floor
      // its estimate shrunk towards 0.5, not run 0.5
      const p = (key: Endpoint) => decision.liabilities.find((l) => l.id === key)?.p ?? 0.5;
      out.push({
        endpoint,
        label: row.y === 1 ? 1 : 0,
        score: decision.score,
        own: p(endpoint),
        max3: Math.max(p("herg"), p("dili"), p("ames")),
      });
    }
  }
  return out;
}

const f3 = (value: number) => value.toFixed(3);

function figuresTable(scored: readonly Scored[]): string {
  const lines = [
    "| held-back compounds | n (positives) | the report's order | the endpoint's own model alone, read as the order reads it | max(hERG, DILI, Ames), read the same way | constant |",
    "|---|---|---|---|---|---|",
  ];
  const row = (name: string, set: readonly Scored[], own: boolean) => {
    const labels = set.map((s) => s.label);
    const positives = labels.filter((l) => l === 1).length;
    lines.push(
      `| ${name} | ${set.length} (${positives}) | ${f3(
        rocAuc(
          set.map((s) => -s.score),
          labels,
        ),
      )} | ${
        own
          ? f3(
              rocAuc(
                set.map((s) => s.own),
                labels,
              ),
            )
          : "—"
      } | ${f3(
        rocAuc(
          set.map((s) => s.max3),
          labels,
        ),
      )} | 0.500 |`,
    );
  };
  for (const endpoint of ENDPOINTS)
    row(
      endpoint,
      scored.filter((s) => s.endpoint === endpoint),
      true,
    );
  row("pooled", scored, false);
  const weights = Object.entries(LIABILITY_WEIGHTS)
    .map(([id, w]) => `${LIABILITY_LABELS[id as keyof typeof LIABILITY_LABELS]} ${w}`)
    .join("; ");
  return [
    `AUROC of each ordering for a positive label (a liability) against a negative, on the test part of each model's own scaffold split (at most ${PER_ENDPOINT} per endpoint, seeded draw), oral_peripheral profile. A model is read as the order reads it: its probability in domain, its estimate shrunk towards 0.5 by the skill it keeps below its similarity floor out of domain, 0.5 when not run. Liability weights w in (1 − p)^w: ${weights}.`,
    "",
    ...lines,
  ].join("\n");
}

describe("the report's order on held-back TDC compounds (issue 36 item 1)", () => {
  it("orders compounds with a positive hERG, DILI or Ames label below negatives better than chance on every endpoint, and docs/science.md holds the regenerated table beside the anchors", async () => {
    const scored = await scoreHeldBack();
    const auc = (set: readonly Scored[]) =>
      rocAuc(
        set.map((s) => -s.score),
        set.map((s) => s.label),
      );
    for (const endpoint of ENDPOINTS) {
      const set = scored.filter((s) => s.endpoint === endpoint);
      assert.ok(set.length >= 90, `${endpoint}: ${set.length} held-back compounds`);
      // Regression guards about 0.05 below today's figures (the table); the 0.85 is not met,
      // and why is in docs/science.md: the other endpoints' liabilities are label noise for each
      // endpoint, and out of a model's domain floor its estimates count only for the skill kept there.
      const floor = { herg: 0.73, dili: 0.53, ames: 0.71 }[endpoint];
      assert.ok(auc(set) >= floor, `${endpoint}: order AUROC ${auc(set)}, below ${floor}`);
    }
    assertGeneratedBlock(
      new URL("../../../docs/science.md", import.meta.url),
      "decision-order",
      "packages/runner/test/decision-order.validation.test.ts",
      figuresTable(scored),
    );
  });
});
