import { once } from "node:events";
import { createReadStream, createWriteStream, type WriteStream } from "node:fs";
import { type FileHandle, mkdir, open, readFile, rm } from "node:fs/promises";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { readCsvRecords } from "../../inputs/csv.ts";
import { StreamingFile } from "../atomic-write.ts";
import type { RunFacts, SealState } from "../run-facts.ts";
import { type HeatmapRow, heatmapRowOf, renderAlertHeatmap } from "./alert-heatmap.ts";
import { renderAssaySection } from "./assay-section.ts";
import { type EggPoint, renderBoiledEgg } from "./boiled-egg-plot.ts";
import { renderChemicalSpace, type SpacePoint } from "./chemical-space-plot.ts";
import { CARDS_INTRO, renderCard } from "./compound-card.ts";
import { renderTableHead, renderTableRow, TABLE_TAIL } from "./compound-table.ts";
import {
  type CompoundView,
  type ModuleReasons,
  type ReportCompoundInput,
  readCompoundView,
} from "./compound-view.ts";
import { anchorId } from "./format.ts";
import { type Depicter, reportDepiction } from "./highlight-depiction.ts";
import { renderHistogram } from "./histogram-plot.ts";
import {
  PRINT_CARDS,
  PRINT_SKIP_END,
  PRINT_SKIP_START,
  PRINT_TABLE_ROWS,
  renderPageEnd,
  renderPageStart,
} from "./page-shell.ts";
import { renderPortfolioSection, TOP_PICKS } from "./portfolio-section.ts";
import { PortfolioStats } from "./portfolio-stats.ts";
import { RankKeyTable } from "./rank-key-table.ts";
import { describeRanking, rankKeyOf } from "./ranking.ts";
import type { ReportOptions } from "./report-options.ts";
import { renderSealBox, SEAL_BOX_END, SEAL_BOX_START } from "./seal-box.ts";
import { CSV_ONLY_COLUMNS, csvField, TABLE_COLUMNS } from "./table-columns.ts";

export const REPORT_HTML = "results/report.html";
export const REPORT_CSV = "results/report.csv";
/** The size bound of report.html (issue 10 item 5): cards are dropped from the end to stay under. */
export const REPORT_MAX_BYTES = 25 * 1024 * 1024;
const TARGET_ROWS_SHOWN = 50;
/** Heat-map rows: the first ranked compounds, so the figure stays readable and printable. */
export const HEATMAP_ROWS = 200;
const SCRATCH = ".report-scratch";

interface ScratchRecord {
  readonly view: CompoundView;
}

export interface ReportWriterOptions {
  readonly runDir: string;
  readonly options: ReportOptions;
  /** Why each module of the plan has no finding (its outcome and detail). */
  readonly reasons: ModuleReasons;
  /**
   * Draws the cards' depictions when the report is composed (called once, only when a card is
   * shown; it loads RDKit on this thread). Null: cards without drawings.
   */
  readonly depict: (() => Promise<Depicter | null>) | null;
  readonly targetsPath: string | null;
  /** Where the scratch files go; default `<run dir>/.report-scratch` (removed when composed). */
  readonly scratchDir?: string;
}

/**
 * The HTML report and report.csv, written in two streamed passes: while the modules run, each
 * compound's view goes to a scratch file inside the run folder and only its rank key and the
 * portfolio counts stay in memory; at the end the compounds are ranked and the scratch file is
 * read once more to write the CSV (every compound) and the page (rows, points and cards for the
 * first ranked ones). The scratch folder is removed before the outputs are hashed.
 */
export class ReportWriter {
  readonly #config: ReportWriterOptions;
  readonly #scratchDir: string;
  readonly #scratch: WriteStream;
  readonly #keys = new RankKeyTable();
  readonly #stats = new PortfolioStats();
  readonly #ran = new Set<string>();
  #composed = false;

  private constructor(config: ReportWriterOptions, scratchDir: string, scratch: WriteStream) {
    this.#config = config;
    this.#scratchDir = scratchDir;
    this.#scratch = scratch;
  }

  static async open(config: ReportWriterOptions): Promise<ReportWriter> {
    const scratchDir = config.scratchDir ?? join(config.runDir, SCRATCH);
    await mkdir(scratchDir, { recursive: true });
    const scratch = createWriteStream(join(scratchDir, "compounds.jsonl"));
    await once(scratch, "open");
    return new ReportWriter(config, scratchDir, scratch);
  }

  /**
   * One compound, in portfolio order, with every module's finding for it. No depiction is drawn
   * here: only the compounds ranked into a card get one, when the report is composed.
   */
  async add(compound: ReportCompoundInput, findings: ReadonlyMap<string, unknown>): Promise<void> {
    const view = readCompoundView(compound, findings, this.#config.reasons);
    for (const moduleId of findings.keys()) this.#ran.add(moduleId);
    this.#stats.add(view);
    this.#keys.push(rankKeyOf(view));
    const record: ScratchRecord = { view };
    if (!this.#scratch.write(`${JSON.stringify(record)}\n`)) await once(this.#scratch, "drain");
  }

  /**
   * Writes results/report.html and results/report.csv the first time; afterwards (a pre-seal
   * after run_complete failed) only the seal box of the finished page changes.
   */
  async write(facts: RunFacts, seal: SealState): Promise<string> {
    const path = join(this.#config.runDir, REPORT_HTML);
    if (this.#composed) {
      await rewriteSealBox(path, renderSealBox(seal, facts.run_id));
      return path;
    }
    this.#scratch.end();
    await once(this.#scratch, "finish");
    await this.#compose(path, facts, seal);
    this.#composed = true;
    await this.dispose();
    return path;
  }

  /** Removes the scratch folder (also after a failed run). */
  async dispose(): Promise<void> {
    if (!this.#scratch.closed) this.#scratch.destroy();
    await rm(this.#scratchDir, { recursive: true, force: true });
  }

  async #compose(path: string, facts: RunFacts, seal: SealState): Promise<void> {
    const { cards: cardLimit, rows: rowLimit } = this.#config.options;
    const order = this.#keys.order();
    const rankOf = new Int32Array(order.length);
    for (const [position, at] of order.entries()) rankOf[at] = position + 1;
    const total = order.length;
    const shownRows = Math.min(rowLimit, total);
    const cardCount = Math.min(cardLimit, shownRows);
    // Rows and cards go to a scratch file in portfolio order; only their places are kept, so the
    // page is then assembled in rank order with memory bounded by neither.
    const fragments = await Fragments.open(join(this.#scratchDir, "fragments.html"), shownRows + cardCount);
    const heat: Array<HeatmapRow & { rank: number }> = [];
    const egg: Array<EggPoint & { rank: number }> = [];
    const space: Array<SpacePoint & { rank: number }> = [];
    const top: CompoundView[] = [];
    const carded = new Set<string>();
    const csv = await StreamingFile.open(join(this.#config.runDir, REPORT_CSV));
    const csvColumns = [...TABLE_COLUMNS, ...CSV_ONLY_COLUMNS];
    await csv.write(`${csvColumns.map((column) => csvField(column.label, false)).join(",")}\r\n`);
    let at = 0;
    let depicter: Depicter | null | undefined;
    const lines = createInterface({
      input: createReadStream(join(this.#scratchDir, "compounds.jsonl"), "utf8"),
      crlfDelay: Number.POSITIVE_INFINITY,
    });
    for await (const line of lines) {
      if (line === "") continue;
      const { view } = JSON.parse(line) as ScratchRecord;
      const rank = rankOf[at++] ?? total;
      await csv.write(
        `${csvColumns.map((column) => csvField(column.cell(view, rank), column.numeric)).join(",")}\r\n`,
      );
      if (rank > shownRows) continue;
      const hasCard = rank <= cardCount;
      const href = hasCard ? `#${anchorId("card", view.candidate_id)}` : null;
      if (hasCard) {
        if (depicter === undefined) depicter = (await this.#config.depict?.()) ?? null;
        await fragments.put(shownRows + rank - 1, renderCard(view, rank, reportDepiction(view, depicter)));
        carded.add(view.candidate_id);
        if (rank <= HEATMAP_ROWS) heat.push({ ...heatmapRowOf(view, href), rank });
      }
      if (rank <= TOP_PICKS) top[rank - 1] = view;
      await fragments.put(rank - 1, renderTableRow(view, rank, hasCard));
      const p = view.props;
      // The egg's regions are decided on TPSA with S and P, so its points are placed on it too.
      if (view.parsed && p.tpsa_sp.value !== null && p.wlogp.value !== null)
        egg.push({ id: view.candidate_id, tpsa: p.tpsa_sp.value, wlogp: p.wlogp.value, href, rank });
      const vector = [p.mw, p.wlogp, p.tpsa, p.hbd, p.hba, p.rotatable_bonds, p.aromatic_rings, p.fsp3].map(
        (q) => q.value,
      );
      if (view.parsed && vector.every((value) => value !== null))
        space.push({ id: view.candidate_id, href, vector: vector as number[], rank });
    }
    await csv.commit();
    const byRank = (a: { rank: number }, b: { rank: number }) => a.rank - b.rank;
    heat.sort(byRank);
    egg.sort(byRank);
    space.sort(byRank);
    const stats = this.#stats;
    const reasonOf = (moduleId: string) => this.#config.reasons.get(moduleId) ?? null;
    const head = [
      renderPageStart(facts),
      renderSealBox(seal, facts.run_id),
      renderPortfolioSection({
        facts,
        stats,
        ranking: describeRanking(this.#ran),
        top: top.filter((view) => view !== undefined),
        carded,
        targets: await readTargets(this.#config.targetsPath),
      }),
      `<h2 id="plots">Plots</h2><div class="plots">${renderBoiledEgg(egg)}${renderChemicalSpace(space)}</div>`,
      `<h3>Distributions across the portfolio</h3><div class="hists">${[
        renderHistogram(stats.histograms.mw, null),
        renderHistogram(stats.histograms.wlogp, null),
        renderHistogram(stats.histograms.tpsa, null),
        renderHistogram(
          stats.histograms.qed,
          `admet_predictions: ${reasonOf("admet_predictions") ?? "did not run"}`,
        ),
        renderHistogram(
          stats.histograms.sa_score,
          `synthesis_audit: ${reasonOf("synthesis_audit") ?? "did not run"}`,
        ),
      ].join("")}</div>`,
      `<h3>Alerts heat map</h3>${renderAlertHeatmap(heat, total)}`,
      renderAssaySection(facts.summaries),
      `<h2 id="table">Compounds</h2>${renderTableHead(shownRows, total)}`,
    ].join("\n");
    const tail = renderPageEnd(facts);
    // Bounded size: drop cards from the end until the page fits (the CSV keeps every compound).
    let size = Buffer.byteLength(head) + Buffer.byteLength(tail) + 4096;
    for (let rank = 1; rank <= shownRows; rank++) size += fragments.size(rank - 1);
    let keep = 0;
    while (keep < cardCount && size + fragments.size(shownRows + keep) <= REPORT_MAX_BYTES)
      size += fragments.size(shownRows + keep++);
    const cardNote =
      keep < total
        ? `<p class="truncated">Cards for the ${keep} highest-ranked of ${total} compounds (limit ${cardLimit}, and the page is kept under 25 MB); the others are in <a href="report.csv">report.csv</a> and results/combined_unified_computational_outputs.json.</p>`
        : "";
    const page = await StreamingFile.open(path);
    try {
      await page.write(head);
      for (let rank = 1; rank <= shownRows; rank++) {
        if (rank === PRINT_TABLE_ROWS + 1) await page.write(PRINT_SKIP_START);
        await page.write(await fragments.get(rank - 1));
      }
      if (shownRows > PRINT_TABLE_ROWS) await page.write(PRINT_SKIP_END);
      await page.write(`${TABLE_TAIL}<h2 id="cards">Compound cards</h2>${CARDS_INTRO}${cardNote}\n`);
      for (let card = 0; card < keep; card++) {
        if (card === PRINT_CARDS) await page.write(PRINT_SKIP_START);
        await page.write(await fragments.get(shownRows + card));
      }
      if (keep > PRINT_CARDS) await page.write(PRINT_SKIP_END);
      await page.write(tail);
      await page.commit();
    } catch (error) {
      await page.abort();
      throw error;
    } finally {
      await fragments.close();
    }
  }
}

/** Numbered HTML fragments written in any order to one scratch file and read back by number. */
class Fragments {
  readonly #file: FileHandle;
  readonly #places: Float64Array;
  #end = 0;
  // Fragments not yet on disk, written together from #flushed: one write per ~1 MB rather than
  // one awaited write per table row (10,000 rows made 10,000 round trips; issue 10 item 4).
  #pending: Buffer[] = [];
  #flushed = 0;

  private constructor(file: FileHandle, count: number) {
    this.#file = file;
    this.#places = new Float64Array(count * 2);
  }

  static async open(path: string, count: number): Promise<Fragments> {
    return new Fragments(await open(path, "w+"), count);
  }

  async put(slot: number, html: string): Promise<void> {
    const bytes = Buffer.from(html, "utf8");
    this.#pending.push(bytes);
    this.#places[slot * 2] = this.#end;
    this.#places[slot * 2 + 1] = bytes.length;
    this.#end += bytes.length;
    if (this.#end - this.#flushed >= FRAGMENT_CHUNK) await this.#flush();
  }

  async #flush(): Promise<void> {
    if (this.#pending.length === 0) return;
    const chunk = Buffer.concat(this.#pending);
    this.#pending = [];
    await this.#file.write(chunk, 0, chunk.length, this.#flushed);
    this.#flushed += chunk.length;
  }

  size(slot: number): number {
    return this.#places[slot * 2 + 1] ?? 0;
  }

  async get(slot: number): Promise<string> {
    const length = this.size(slot);
    if (length === 0) return "";
    await this.#flush();
    const bytes = Buffer.alloc(length);
    await this.#file.read(bytes, 0, length, this.#places[slot * 2] ?? 0);
    return bytes.toString("utf8");
  }

  async close(): Promise<void> {
    await this.#flush();
    return this.#file.close();
  }
}

const FRAGMENT_CHUNK = 1024 * 1024;

/** The staged targets.csv, its first rows, for the context panel. */
async function readTargets(path: string | null) {
  if (path === null) return null;
  let header: readonly string[] = [];
  const rows: (readonly string[])[] = [];
  let total = 0;
  for await (const record of readCsvRecords(path)) {
    if (header.length === 0) {
      header = record.fields;
      continue;
    }
    total++;
    if (rows.length < TARGET_ROWS_SHOWN) rows.push(record.fields);
  }
  return { header, rows, total };
}

/** Replaces the seal box of a finished report (bounded at REPORT_MAX_BYTES, so read whole). */
async function rewriteSealBox(path: string, box: string): Promise<void> {
  const text = await readFile(path, "utf8");
  const start = text.indexOf(SEAL_BOX_START);
  const end = text.indexOf(SEAL_BOX_END);
  if (start < 0 || end < start) throw new Error(`${path}: seal box markers not found`);
  const file = await StreamingFile.open(path);
  await file.write(text.slice(0, start));
  await file.write(box);
  await file.write(text.slice(end + SEAL_BOX_END.length));
  await file.commit();
}
