import assert from "node:assert/strict";
import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { valuesOutOfDomain } from "@svc/science/parent";
import { createTempDir, parseCsv, type TempDir } from "@svc/testing";
import { svc } from "./support/operator-services.ts";

/** The science package's odd-molecule corpus (issue 24 item 8), each input with its honest outcome. */
interface OddMolecule {
  readonly name: string;
  readonly category: string;
  readonly smiles: string;
  readonly compound_class: string;
  readonly out_of_domain: "every model estimate" | readonly string[];
  readonly readiness: string;
}

const CORPUS = JSON.parse(
  await readFile(
    join(import.meta.dirname, "..", "..", "science", "test", "fixtures", "odd-molecules.json"),
    "utf8",
  ),
) as { compounds: OddMolecule[] };

const ORGANIC = new Set(["organic", "organic_salt"]);

type Finding = Readonly<Record<string, unknown>>;

interface RunCompound {
  readonly candidate_id: string;
  readonly findings: Readonly<Record<string, Finding>>;
}

const id = (at: number) => `ODD-${String(at + 1).padStart(2, "0")}`;

describe("the odd-molecule corpus through the whole job: svc local run (issue 24 item 8)", () => {
  let dir: TempDir | undefined;
  let compounds: Map<string, RunCompound>;
  let table: Map<string, Record<string, string>>;

  before(async () => {
    dir = await createTempDir("svc-odd-molecules-");
    const root = dir.path;
    const quote = (text: string) => `"${text.replaceAll('"', '""')}"`;
    const csv = [
      "candidate_id,name,smiles",
      ...CORPUS.compounds.map((c, at) => `${id(at)},${quote(c.name)},${c.smiles}`),
    ].join("\r\n");
    await writeFile(join(root, "odd.csv"), `${csv}\r\n`);
    const init = await svc("project", "init", join(root, "odd.csv"), "--out", join(root, "odd"));
    assert.equal(init.code, 0, init.stderr);
    const run = await svc("local", "run", join(root, "odd"), "--out", join(root, "out"), "--json");
    assert.equal(run.code, 0, `${run.stdout}\n${run.stderr}`);
    const outcome = JSON.parse(run.stdout) as {
      runDir: string;
      seal: { offline: string };
      summary: { compounds: { total: number; parsed: number } };
    };
    assert.equal(outcome.seal.offline, "VERIFIED");
    assert.equal(outcome.summary.compounds.total, CORPUS.compounds.length);
    assert.equal(outcome.summary.compounds.parsed, CORPUS.compounds.length);
    const combined = JSON.parse(
      await readFile(join(outcome.runDir, "results", "combined_unified_computational_outputs.json"), "utf8"),
    ) as { compounds: RunCompound[] };
    compounds = new Map(combined.compounds.map((c) => [c.candidate_id, c]));
    const [header, ...rows] = parseCsv(await readFile(join(outcome.runDir, "results", "report.csv"), "utf8"));
    table = new Map(
      rows
        .filter((r) => r.length > 1)
        .map((r) => {
          const record = Object.fromEntries((header ?? []).map((label, at) => [label, r[at] ?? ""]));
          return [record.Candidate as string, record];
        }),
    );
  });

  after(async () => {
    await dir?.remove();
  });

  it("holds at least 30 odd inputs besides its drug-like controls", () => {
    assert.ok(CORPUS.compounds.filter((c) => c.category !== "drug-like control").length >= 30);
  });

  for (const [at, c] of CORPUS.compounds.entries()) {
    it(`${id(at)} ${c.name} (${c.category}): ${c.compound_class}, no value shown out of domain, readiness ${c.readiness}`, () => {
      const compound = compounds.get(id(at));
      assert.ok(compound, `${id(at)} is in the results`);
      const { findings } = compound;
      assert.equal(findings.molecular_logic?.compound_class, c.compound_class);
      // No module's result shows a value as a finding where it says it is out of its domain.
      for (const [module, finding] of Object.entries(findings))
        assert.deepEqual(valuesOutOfDomain(finding), [], module);
      const solubility = findings.solubility_assessment as Finding;
      const logd = findings.admet_predictions?.logd74 as Finding | null;
      const row = table.get(id(at));
      assert.ok(row, `${id(at)} is in report.csv`);
      if (c.out_of_domain === "every model estimate") {
        assert.equal(findings.admet_predictions?.in_domain, false);
        assert.equal(solubility.in_domain, false);
        assert.equal(findings.uncertainty_quantification?.estimates, null);
        assert.equal(findings.gcn_toxicity?.in_domain, false);
        assert.equal(findings.clinical_precedent_prior?.ct_tox_in_domain, false);
        // No confident call in the report either: no GI, QED, log S or log D cell, and the status says why.
        for (const label of ["GI abs.", "QED", "log S", "logD7.4", "Readiness"])
          assert.equal(row[label], "", label);
        assert.match(row.Status ?? "", new RegExp(`${c.compound_class}: outside every model's domain`));
      } else {
        const out = new Set(findings.uncertainty_quantification?.out_of_domain as string[]);
        for (const key of c.out_of_domain)
          assert.ok(out.has(key), `${key} out of domain (${[...out].join(", ")})`);
      }
      // A value out of its model's domain is not printed in report.csv.
      if (solubility.in_domain === false) assert.equal(row["log S"], "");
      if (logd?.in_domain === false) assert.equal(row["logD7.4"], "");
      // Readiness counts a missing or out-of-domain estimate as missing evidence.
      const coverage = Number(row["Readiness coverage"]);
      assert.equal(coverage, findings.wetlab_priority_and_readiness_determiner?.coverage);
      if (solubility.in_domain === false || findings.admet_predictions?.in_domain === false)
        assert.ok(coverage < 1, `coverage ${coverage}`);
      if (c.readiness.endsWith("coverage 1")) assert.equal(coverage, 1);
    });
  }

  it("ranks no inorganic, organometallic or other out-of-class compound above an organic one", () => {
    const rankOf = (c: OddMolecule) => Number(table.get(id(CORPUS.compounds.indexOf(c)))?.Rank);
    const organic = CORPUS.compounds.filter((c) => ORGANIC.has(c.compound_class)).map(rankOf);
    const other = CORPUS.compounds.filter((c) => !ORGANIC.has(c.compound_class)).map(rankOf);
    assert.ok(organic.length > 0 && other.length >= 20);
    assert.ok(Math.max(...organic) < Math.min(...other), `organic ${organic} / other ${other}`);
  });
});
