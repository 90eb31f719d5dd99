import assert from "node:assert/strict";
import { existsSync } from "node:fs";
import { readFile, rm, stat, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import { after, before, test } from "node:test";
import { pathToFileURL } from "node:url";
import { type FakeEntitlement, startFakeEntitlement } from "@svc/testing";
import { type Browser, chromium, type Page } from "playwright-core";
import { runCli, stageDemo } from "./support/run-cli.ts";

// Issue 12: the report opened in a real browser (Debian's Chromium through playwright-core), on the
// demo and on 5,000 NCI molecules. It fetches nothing, logs no error, draws one mark per assessed
// compound in every plot, sorts, filters and exports what is shown, and svc-runner printed it to a
// PDF within the page bound of the README. Under CI=true a missing browser fails the tests.
const CHROMIUM = "/usr/bin/chromium";
const NCI = "/usr/share/RDKit/Data/NCI/first_5K.smi";
const skip = !existsSync(CHROMIUM) && !process.env.CI && "no chromium";
const skipNci = (!existsSync(CHROMIUM) || !existsSync(NCI)) && !process.env.CI && "no chromium or rdkit-data";
// README "Report": the printed copy keeps the first 200 table rows and 25 cards.
const PDF_PAGE_BOUND = 80;
const REPORT_BYTE_BOUND = 25 * 1024 * 1024;

let entitlement: FakeEntitlement;
let browser: Browser | null = null;

before(async () => {
  entitlement = await startFakeEntitlement({ runs: 2 });
});
after(async () => {
  await browser?.close();
  await entitlement?.close();
});

async function audit(runId: string, prepare?: (projectDir: string) => Promise<void>) {
  const staged = await stageDemo();
  await prepare?.(staged.projectDir);
  const run = await runCli(
    [
      "--project-id",
      "demo",
      "--run-id",
      runId,
      "--input-root",
      staged.inputRoot,
      "--output-root",
      staged.outputRoot,
      "--entitlement-url",
      entitlement.url,
      "--auth-mode",
      "dev",
    ],
    { SVC_DEV_TOKEN: `token-${runId}`, SVC_REPORT_PDF: "auto" },
  );
  assert.equal(run.code, 0, run.stderr);
  return { root: dirname(staged.inputRoot), runDir: join(staged.outputRoot, runId) };
}

async function open(path: string) {
  browser ??= await chromium.launch({
    executablePath: CHROMIUM,
    args: ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--no-first-run"],
  });
  const context = await browser.newContext({ acceptDownloads: true, viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  const url = pathToFileURL(path).href;
  const requests: string[] = [];
  const problems: string[] = [];
  page.on("request", (request) => requests.push(request.url()));
  page.on("console", (message) => {
    if (message.type() === "error") problems.push(message.text());
  });
  page.on("pageerror", (error) => problems.push(error.message));
  // A correctness check, not a timing one: the 5,000-row page (~21 MB) can take Chromium over
  // Playwright's default 30 s to load on a loaded 2-core CI machine (seen once in CI); page
  // speed is for benchmarks, so the wait is generous.
  page.setDefaultNavigationTimeout(180_000);
  page.setDefaultTimeout(120_000);
  await page.goto(url, { waitUntil: "load" });
  return { page, url, requests, problems, close: () => context.close() };
}

function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = "";
  let quoted = false;
  for (let at = 0; at < text.length; at++) {
    const ch = text[at];
    if (quoted) {
      if (ch === '"' && text[at + 1] === '"') {
        field += '"';
        at++;
      } else if (ch === '"') quoted = false;
      else field += ch;
    } else if (ch === '"') quoted = true;
    else if (ch === ",") {
      row.push(field);
      field = "";
    } else if (ch === "\n") {
      row.push(field.replace(/\r$/, ""));
      rows.push(row);
      row = [];
      field = "";
    } else field += ch;
  }
  return rows;
}

// Table rows as the page holds them (the test has no DOM typings: the shape it reads).
interface RowLike {
  readonly hidden: boolean;
  readonly cells: ArrayLike<{ readonly textContent: string | null }>;
}

const visibleRows = (page: Page) =>
  page.$$eval("#compounds tbody tr", (rows) =>
    (rows as unknown as RowLike[])
      .filter((row) => !row.hidden)
      .map((row) => Array.from(row.cells).map((cell) => cell.textContent ?? "")),
  );

/** The checks both portfolios share; returns the page for portfolio-specific ones. */
async function checkReport(runDir: string) {
  const htmlPath = join(runDir, "results", "report.html");
  assert.ok((await stat(htmlPath)).size < REPORT_BYTE_BOUND, "report.html stays under 25 MB");
  const summary = JSON.parse(await readFile(join(runDir, "results", "summary.json"), "utf8"));
  const assessed: number = summary.drug_likeness.assessed;
  const total: number = summary.compounds.total;
  const csv = parseCsv(await readFile(join(runDir, "results", "report.csv"), "utf8"));
  assert.equal(csv.length, total + 1, "report.csv has every compound");
  const view = await open(htmlPath);
  const { page } = view;
  assert.deepEqual(
    view.requests.filter((url) => url !== view.url && !url.startsWith("data:")),
    [],
    "requests beyond the report itself",
  );
  assert.deepEqual(view.problems, []);

  // Plots: one mark per assessed compound (cards and the heat map: per carded compound).
  assert.equal(await page.locator("#plot-boiled-egg .mark").count(), assessed, "BOILED-Egg points");
  assert.equal(await page.locator("#plot-chemical-space .mark").count(), assessed, "chemical-space points");
  const cards = await page.locator("article.card").count();
  assert.equal(cards, Math.min(500, total));
  assert.equal(
    await page.locator("#plot-alert-heatmap .mark").count(),
    Math.min(200, cards),
    "heat-map rows",
  );
  const parsedCards = await page.locator("article.card:not(:has(p.err))").count();
  assert.equal(await page.locator("article.card svg.radar .mark").count(), parsedCards, "one radar per card");
  for (const quantity of ["MW", "WLOGP", "TPSA"])
    assert.equal(
      Number(await page.locator(`.histogram[data-quantity^="${quantity}"]`).getAttribute("data-count")),
      assessed,
      `${quantity} distribution`,
    );
  // QED and SA come from science modules: a distribution when they ran, else the reason.
  for (const quantity of ["QED", "SA score"]) {
    const figure = page.locator(`.histogram[data-quantity="${quantity}"]`);
    const count = await figure.getAttribute("data-count");
    if (count === null) assert.match((await figure.textContent()) ?? "", /not available in this build/);
    else assert.ok(Number(count) > 0 && Number(count) <= assessed, `${quantity} distribution`);
  }

  // The table: every compound, sortable, filterable, exported as shown.
  const before = await visibleRows(page);
  assert.equal(before.length, total);
  const header = await page.$$eval("#compounds thead th", (ths) =>
    ths.map((th) => th.textContent?.trim() ?? ""),
  );
  const mwAt = header.indexOf("MW");
  const sortByMw = () => page.locator("#compounds thead th", { hasText: /^MW$/ }).locator("button").click();
  await sortByMw();
  const ascending = (await visibleRows(page))
    .map((row) => row[mwAt] ?? "")
    .filter((mw) => mw !== "")
    .map(Number);
  assert.deepEqual(
    ascending,
    [...ascending].sort((a, b) => a - b),
    "sorted by MW ascending",
  );
  assert.notDeepEqual(
    (await visibleRows(page)).map((row) => row[1]),
    before.map((row) => row[1]),
    "order changed",
  );
  await sortByMw();
  const descending = (await visibleRows(page))
    .map((row) => row[mwAt] ?? "")
    .filter((mw) => mw !== "")
    .map(Number);
  assert.deepEqual(
    descending,
    [...descending].sort((a, b) => b - a),
    "sorted by MW descending",
  );

  await page.selectOption("#filter-column", { label: "MW" });
  await page.fill("#filter-query", ">500");
  const heavy = csv.slice(1).filter((row) => row[4] !== "" && Number(row[4]) > 500).length;
  const shown = await visibleRows(page);
  assert.ok(heavy > 0 && heavy < total, "the filter has something to do");
  assert.equal(shown.length, heavy, "MW > 500 rows, as counted in report.csv");
  assert.equal(await page.textContent("#shown-count"), String(heavy));

  const [download] = await Promise.all([page.waitForEvent("download"), page.click("#export-csv")]);
  const exported = parseCsv(await readFile((await download.path()) as string, "utf8"));
  assert.deepEqual(exported, [header, ...shown], "the CSV export equals the visible rows");

  // The PDF svc-runner printed.
  const pdf = await readFile(join(runDir, "results", "report.pdf"));
  assert.equal(pdf.subarray(0, 5).toString(), "%PDF-");
  const pages = pdf.toString("latin1").match(/\/Type\s*\/Page[^s]/g)?.length ?? 0;
  assert.ok(pages > 0 && pages <= PDF_PAGE_BOUND, `${pages} PDF pages (bound ${PDF_PAGE_BOUND})`);
  return view;
}

test("the demo report: portfolio first, honest seal box, plots, table and cards, all offline", {
  skip,
}, async (t) => {
  const { root, runDir } = await audit("run_report");
  t.after(() => rm(root, { recursive: true, force: true }));
  const view = await checkReport(runDir);
  t.after(() => view.close());
  const { page } = view;
  const body = (await page.textContent("body")) ?? "";
  const { module_counts: modules } = JSON.parse(
    await readFile(join(runDir, "results", "summary.json"), "utf8"),
  );
  const pct = Math.round((modules.required_executed / modules.required) * 100);
  assert.ok(
    body.includes(`Coverage: ${modules.required_executed} of ${modules.required} required modules (${pct}%)`),
    "coverage in words, e.g. 2 of 14 required modules (14%)",
  );
  assert.match(body, /FastFail triage when you only have SMILES and target symbol/);
  assert.match(body, /chronic myeloid leukaemia/);
  assert.equal(
    await page.locator("#portfolio table td", { hasText: "P00519" }).count(),
    1,
    "staged targets shown",
  );
  assert.match(body, /not a statement that the science is right/);
  const sealTop = await page.locator("#seal").boundingBox();
  const portfolioTop = await page.locator("#portfolio").boundingBox();
  assert.ok(sealTop && portfolioTop && sealTop.y < portfolioTop.y, "the seal box sits above the portfolio");
  // The mesylate salt: the parent's InChIKey (imatinib's), not the salt's.
  const salt = page.locator("#card-CAND-016");
  assert.match((await salt.textContent()) ?? "", /Parent InChIKey KTUFNOKKBVMGRW-UHFFFAOYSA-N/);
  await page.fill("#filter-query", "");
  const saltRow = (await visibleRows(page)).find((row) => row[1] === "CAND-016");
  assert.equal(saltRow?.at(-1), "KTUFNOKKBVMGRW-UHFFFAOYSA-N");
  // Evidence ids link to the finding as recorded.
  const link = page.locator('#card-CAND-001 h4 a[href="#EID-kinase_drug_likeness-000001"]');
  assert.equal(await link.count(), 1);
  assert.match(
    (await page.locator("#EID-kinase_drug_likeness-000001 pre").textContent()) ?? "",
    /"lipinski"/,
  );
  // Rule reasons are text on the card, not only a tooltip.
  assert.match(
    (await page.locator("#card-CAND-004").textContent()) ?? "",
    /lipinski: fail — MW 581\.\d+ > 500/,
  );
});

test("5,000 NCI molecules: every plot has one mark per assessed compound, cards bounded", {
  skip: skipNci,
}, async (t) => {
  const { root, runDir } = await audit("run_nci", async (projectDir) => {
    const lines = (await readFile(NCI, "utf8")).trim().split("\n");
    const rows = [
      "candidate_id,smiles",
      ...lines.map((line) => {
        const [smiles, id] = line.split(/\s+/);
        return `NCI-${id},${smiles}`;
      }),
    ];
    await writeFile(join(projectDir, "01_sources", "portfolio_selected.csv"), `${rows.join("\n")}\n`);
    await writeFile(
      join(projectDir, "01_sources", "sources.json"),
      JSON.stringify({ portfolio_selected_csv: "portfolio_selected.csv" }),
    );
  });
  t.after(() => rm(root, { recursive: true, force: true }));
  const view = await checkReport(runDir);
  t.after(() => view.close());
  assert.match(
    (await view.page.textContent("body")) ?? "",
    /Cards for the 500 highest-ranked of 4999 compounds/,
  );
});
