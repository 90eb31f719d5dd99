import { once } from "node:events";
import { createReadStream, createWriteStream, type WriteStream } from "node:fs";
import { type FileHandle, mkdir, open, rm } from "node:fs/promises";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { type CrypticPocketsResultFile, RUN_FILES } from "@svc/core";
import { DEFAULT_PROFILE, type TargetProductProfile } from "@svc/science/decision";
import { readCsvRecords } from "../../inputs/csv.ts";
import { StreamingFile } from "../atomic-write.ts";
import { readCrypticPocketsResult } from "../cryptic-pockets-file.ts";
import type { RunFacts } from "../run-facts.ts";
import { type HeatmapRow, heatmapRowOf, renderAlertHeatmap } from "./alert-heatmap.ts";
import { renderAssaySection } from "./assay-section.ts";
import { type EggPoint, renderBoiledEgg } from "./boiled-egg-plot.ts";
import { butinaClusters, CLUSTER_MAX, type ClusterInput, type Clustering } from "./butina-clusters.ts";
import { renderChemicalSpace, type SpacePoint } from "./chemical-space-plot.ts";
import { renderClusterSection } from "./cluster-section.ts";
import { CARDS_INTRO, renderCard } from "./compound-card.ts";
import { renderTableHead, renderTableRow, TABLE_TAIL } from "./compound-table.ts";
import {
  type CompoundView,
  type ModuleReasons,
  type ReportCompoundInput,
  readCompoundView,
} from "./compound-view.ts";
import type { CardDocking } from "./docking-panel.ts";
import { DOCKING_MODULE, type DockingRun, readDockingRun } from "./docking-results.ts";
import { findingHeader, flattenFinding } from "./finding-columns.ts";
import { anchorId } from "./format.ts";
import { type ReportChemistry, reportDepiction } from "./highlight-depiction.ts";
import { renderHistogram } from "./histogram-plot.ts";
import {
  PAGE_TITLE_END,
  PRINT_CARDS,
  PRINT_SKIP_END,
  PRINT_SKIP_START,
  PRINT_TABLE_ROWS,
  renderPageEnd,
  renderPageStart,
} from "./page-shell.ts";
import { renderPortfolioSection, TOP_PICKS } from "./portfolio-section.ts";
import { PortfolioStats } from "./portfolio-stats.ts";
import { createPoseReader } from "./pose-reader.ts";
import { poseViewerScripts } from "./pose-viewer-script.ts";
import { RankKeyTable } from "./rank-key-table.ts";
import { describeRanking, rankKeyOf } from "./ranking.ts";
import type { ReportOptions } from "./report-options.ts";
import { renderSealBox } from "./seal-box.ts";
import { readStructureRecords, type StructureRecords } from "./structure-records.ts";
import {
  loadStructurePockets,
  renderStructureSection,
  type StructureFileRef,
  type StructurePocket,
} from "./structure-section.ts";
import { REPORT_SUMMARY_CSV, SUMMARY_COLUMNS } from "./summary-columns.ts";
import {
  CSV_ONLY_COLUMNS,
  csvField,
  DOCKING_CSV_COLUMNS,
  type RowPlace,
  tableColumns,
} from "./table-columns.ts";

export const REPORT_HTML = RUN_FILES.reportHtml;
export const REPORT_CSV = RUN_FILES.reportCsv;
/** The byte-order mark report.csv and report-summary.csv start with (U+FEFF in UTF-8). */
export const UTF8_BOM = "\uFEFF";
/** The size bound of report.html (issue 10 item 5): cards are dropped from the end to stay under. */
export const REPORT_MAX_BYTES = 25 * 1024 * 1024;
const TARGET_ROWS_SHOWN = 50;
/**
 * Table rows with a structure thumbnail (and the ranked list's): the first ranked ones, so the
 * drawings (≈ 2–8 KB each after compaction) stay a bounded share of the page (issue 27 item 4).
 */
export const THUMBNAIL_ROWS = 500;
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
   * Draws depictions and thumbnails and computes the fingerprints for clusters when the report is
   * composed (called once; it loads RDKit on this thread). Null: no drawings, no clusters.
   */
  readonly chemistry: (() => Promise<ReportChemistry | null>) | null;
  readonly targetsPath: string | null;
  /** Where the scratch files go; default `<run dir>/.report-scratch` (removed when composed). */
  readonly scratchDir?: string;
  /**
   * The staged structures (sources.json `pdbs`): the structure section reads each one's pocket
   * residues for the docking box, and the cards' pose viewers draw them. None: no pocket residues.
   */
  readonly structures?: readonly StructureFileRef[];
  /** Structure modules whose per-compound records (results/<module>.json) join each compound's findings. */
  readonly structureModules?: readonly string[];
  /** The target product profile (sources.json `profile`); default oral_peripheral. */
  readonly profile?: TargetProductProfile;
  /** The customer's measured potency per candidate id (assays_csv), for the order (issue 37 item 4). */
  readonly potency?: ReadonlyMap<string, NonNullable<CompoundView["potency"]>>;
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
  // report.csv's finding columns in first-seen order, and the customer's own columns with
  // whether every value given is a number (bounded by the distinct keys, not the compounds).
  readonly #findingPaths = new Set<string>();
  readonly #customer = new Map<string, boolean>();
  // results/molecular_docking.json, written by the structure stage before the analysis (issue 25).
  readonly #docking: DockingRun | null;
  // The other structure modules' per-compound records (issue 40), shown as each compound's findings.
  readonly #structureRecords: StructureRecords;
  // results/cryptic_pockets.json (issue 40 item 5): per structure, shown in the structure section.
  readonly #crypticPockets: CrypticPocketsResultFile | null;
  #composed = false;

  private constructor(
    config: ReportWriterOptions,
    scratchDir: string,
    scratch: WriteStream,
    docking: DockingRun | null,
    structureRecords: StructureRecords,
    crypticPockets: CrypticPocketsResultFile | null,
  ) {
    this.#config = config;
    this.#scratchDir = scratchDir;
    this.#scratch = scratch;
    this.#docking = docking;
    this.#structureRecords = structureRecords;
    this.#crypticPockets = crypticPockets;
  }

  static async open(config: ReportWriterOptions): Promise<ReportWriter> {
    const scratchDir = config.scratchDir ?? join(config.runDir, SCRATCH);
    await mkdir(scratchDir, { recursive: true });
    const scratch = createWriteStream(join(scratchDir, "compounds.jsonl"));
    await once(scratch, "open");
    return new ReportWriter(
      config,
      scratchDir,
      scratch,
      await readDockingRun(config.runDir),
      await readStructureRecords(config.runDir, config.structureModules ?? []),
      await readCrypticPocketsResult(config.runDir),
    );
  }

  /**
   * One compound, in portfolio order, with every module's finding for it. No depiction is drawn
   * here: only the compounds ranked into a card get one, when the report is composed.
   */
  async add(compound: ReportCompoundInput, moduleFindings: ReadonlyMap<string, unknown>): Promise<void> {
    const records = this.#structureRecords.get(compound.row.candidateId);
    const findings = records === undefined ? moduleFindings : new Map([...moduleFindings, ...records]);
    const view = readCompoundView(compound, findings, this.#config.reasons, {
      docking: this.#docking?.byCompound.get(compound.row.candidateId) ?? [],
      potency: this.#config.potency?.get(compound.row.candidateId) ?? null,
      ...(this.#config.profile === undefined ? {} : { profile: this.#config.profile }),
    });
    for (const [moduleId, finding] of findings) {
      this.#ran.add(moduleId);
      for (const [path] of flattenFinding(moduleId, finding)) this.#findingPaths.add(path);
    }
    for (const [key, value] of Object.entries(view.metadata)) {
      const numeric = value === "" || Number.isFinite(Number(value));
      this.#customer.set(key, (this.#customer.get(key) ?? true) && numeric);
    }
    this.#stats.add(view);
    this.#keys.push(rankKeyOf(view));
    const record: ScratchRecord = { view };
    if (!this.#scratch.write(`${JSON.stringify(record)}\n`)) await once(this.#scratch, "drain");
  }

  /**
   * Writes results/report.html and results/report.csv, once: both are hashed outputs, never
   * rewritten after the seal stage hashes them (issue 29 item 2).
   */
  async write(facts: RunFacts): Promise<string> {
    const path = join(this.#config.runDir, REPORT_HTML);
    if (this.#composed) throw new Error(`${path} is already written: a hashed output is written once`);
    this.#scratch.end();
    await once(this.#scratch, "finish");
    await this.#compose(path, facts);
    this.#composed = true;
    await this.dispose();
    return path;
  }

  /** Removes the scratch folder (also after a failed run). */
  async dispose(): Promise<void> {
    if (!this.#scratch.closed) this.#scratch.destroy();
    await rm(this.#scratchDir, { recursive: true, force: true });
  }

  #cluster(rankOf: Int32Array, chemistry: ReportChemistry | null) {
    return clusterScratch(join(this.#scratchDir, "compounds.jsonl"), rankOf, chemistry);
  }

  async #compose(path: string, facts: RunFacts): Promise<void> {
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
    const chemistry = (await this.#config.chemistry?.()) ?? null;
    const { clustering, ids: clusteredIds } = await this.#cluster(rankOf, chemistry);
    // Cards a neighbour can link to (cards dropped later for the size bound lose the link target).
    const keepEstimate = cardCount;
    const docking = this.#docking;
    const pockets =
      docking === null ? [] : await loadStructurePockets(docking, this.#config.structures ?? []);
    const poses = createPoseReader(this.#config.runDir);
    let anyPose = false;
    const columns = tableColumns(
      [...this.#customer].map(([name, numeric]) => ({ name, numeric })),
      docking !== null,
    );
    const thumbnails = new Map<string, string>();
    const heat: Array<HeatmapRow & { rank: number }> = [];
    const egg: Array<EggPoint & { rank: number }> = [];
    const space: Array<SpacePoint & { rank: number }> = [];
    const top: CompoundView[] = [];
    const carded = new Set<string>();
    const csv = await StreamingFile.open(join(this.#config.runDir, REPORT_CSV));
    const summaryCsv = await StreamingFile.open(join(this.#config.runDir, REPORT_SUMMARY_CSV));
    const csvColumns = [...columns, ...CSV_ONLY_COLUMNS, ...(docking === null ? [] : DOCKING_CSV_COLUMNS)];
    const paths = [...this.#findingPaths];
    // A UTF-8 byte-order mark first: spreadsheets read a CSV without one in the locale's code page,
    // and ≥, Å, µ came out garbled (issue 37 item 8; RFC 4180 leaves the charset to the reader).
    await csv.write(
      `${UTF8_BOM}${[...csvColumns.map((column) => column.label), ...paths.map(findingHeader)].map((label) => csvField(label, false)).join(",")}\r\n`,
    );
    // The short file is in rank order (the page's order): its lines go to a scratch file by rank
    // and are read back in order, so memory stays bounded by neither (ARCHITECTURE "Streams").
    const summaryRows = await Fragments.open(join(this.#scratchDir, "summary-rows.csv"), total);
    let at = 0;
    const lines = createInterface({
      input: createReadStream(join(this.#scratchDir, "compounds.jsonl"), "utf8"),
      crlfDelay: Number.POSITIVE_INFINITY,
    });
    for await (const line of lines) {
      if (line === "") continue;
      const { view } = JSON.parse(line) as ScratchRecord;
      const rank = rankOf[at++] ?? total;
      const place: RowPlace = { rank, cluster: clustering?.clusterOf.get(rank) ?? null };
      const values = new Map<string, string | number | null>();
      for (const finding of view.findings)
        for (const [path, value] of flattenFinding(finding.module_id, finding.raw)) values.set(path, value);
      await csv.write(
        `${[
          ...csvColumns.map((column) => csvField(column.cell(view, place), column.numeric)),
          ...paths.map((path) => {
            const value = values.get(path) ?? null;
            return csvField(value, typeof value === "number");
          }),
        ].join(",")}\r\n`,
      );
      await summaryRows.put(
        rank - 1,
        `${SUMMARY_COLUMNS.map((column) => csvField(column.cell(view, place), column.numeric)).join(",")}\r\n`,
      );
      if (rank > shownRows) continue;
      const hasCard = rank <= cardCount;
      const href = hasCard ? `#${anchorId("card", view.candidate_id)}` : null;
      const thumbnail =
        rank <= THUMBNAIL_ROWS && view.parent_smiles !== null && chemistry !== null
          ? chemistry.thumbnail(view.parent_smiles)
          : null;
      if (thumbnail !== null && rank <= TOP_PICKS) thumbnails.set(view.candidate_id, thumbnail);
      if (hasCard) {
        const cluster = place.cluster === null ? null : (clustering?.clusters[place.cluster - 1] ?? null);
        const cardDocking = await cardDockingOf(view.docking, pockets, poses);
        if (cardDocking.some((entry) => entry.pose !== null && (entry.pocket?.residues.length ?? 0) > 0))
          anyPose = true;
        await fragments.put(
          shownRows + rank - 1,
          renderCard(view, rank, {
            depiction: reportDepiction(view, chemistry?.depict ?? null),
            cluster: cluster === null ? null : { id: cluster.id, size: cluster.members.length },
            neighbours: clustering?.neighbours.get(rank) ?? null,
            cardedRanks: keepEstimate,
            docking: cardDocking,
          }),
        );
        carded.add(view.candidate_id);
        if (rank <= HEATMAP_ROWS) heat.push({ ...heatmapRowOf(view, href), rank });
      }
      if (rank <= TOP_PICKS) top[rank - 1] = view;
      await fragments.put(rank - 1, renderTableRow(columns, view, place, hasCard, thumbnail));
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
    await summaryCsv.write(
      `${UTF8_BOM}${SUMMARY_COLUMNS.map((column) => csvField(column.label, false)).join(",")}\r\n`,
    );
    try {
      for (let rank = 1; rank <= total; rank++) await summaryCsv.write(await summaryRows.get(rank - 1));
    } finally {
      await summaryRows.close();
    }
    await summaryCsv.commit();
    const byRank = (a: { rank: number }, b: { rank: number }) => a.rank - b.rank;
    heat.sort(byRank);
    egg.sort(byRank);
    space.sort(byRank);
    const stats = this.#stats;
    const reasonOf = (moduleId: string) => this.#config.reasons.get(moduleId) ?? null;
    // 3Dmol.js (~0.5 MB) is inlined only when a card has a pose to show in its pocket.
    const scripts = anyPose ? poseViewerScripts() : [];
    const structureSection =
      docking !== null || this.#crypticPockets !== null || (this.#config.structures?.length ?? 0) > 0
        ? await renderStructureSection({
            run: docking ?? { mode: facts.mode, method: null, structures: [], byCompound: new Map() },
            pockets,
            carded,
            poses,
            reason: reasonOf(DOCKING_MODULE),
            crypticPockets: this.#crypticPockets,
          })
        : "";
    const head = [
      renderPageStart(facts, scripts),
      renderSealBox(facts.run_id),
      renderPortfolioSection({
        facts,
        stats,
        ranking: describeRanking(this.#ran, this.#config.profile ?? DEFAULT_PROFILE),
        top: top.filter((view) => view !== undefined),
        carded,
        thumbnails,
        targets: await readTargets(this.#config.targetsPath),
      }),
      renderClusterSection(clustering, clusteredIds, carded, Math.min(total, CLUSTER_MAX), total),
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
      structureSection,
      `<h2 id="table">Compounds</h2>${renderTableHead(columns, shownRows, total)}`,
    ].join("\n");
    const tail = renderPageEnd(facts, scripts);
    // Bounded size: drop cards from the end until the page fits (the CSV keeps every compound).
    let size = Buffer.byteLength(head) + Buffer.byteLength(tail) + 4096;
    for (let rank = 1; rank <= shownRows; rank++) size += fragments.size(rank - 1);
    let keep = 0;
    while (keep < cardCount && size + fragments.size(shownRows + keep) <= REPORT_MAX_BYTES)
      size += fragments.size(shownRows + keep++);
    const cardNote =
      keep < total
        ? `<p class="truncated">Cards for the ${keep} highest-ranked of ${total} compounds (limit ${cardLimit}, and the page is kept under 25 MB); the others are in <a href="report.csv">report.csv</a> and ${RUN_FILES.combined}.</p>`
        : "";
    const printNote = `<p class="print-note" id="print-note">Printed copy: it holds ${Math.min(PRINT_TABLE_ROWS, shownRows)} of ${total} table rows and ${Math.min(PRINT_CARDS, keep)} of ${total} compound cards (the highest-ranked), without the "Other findings" panels of modules the card has no panel for; the printed table shows ${columns.filter((column) => column.print).length} of its ${columns.length} columns (the ones with numbers a chemist sorts by); report.html has ${shownRows} rows and ${keep} cards, and report.csv every compound with every value.</p>`;
    const page = await StreamingFile.open(path);
    try {
      const afterTitle = head.indexOf(PAGE_TITLE_END) + PAGE_TITLE_END.length;
      await page.write(head.slice(0, afterTitle) + printNote + head.slice(afterTitle));
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

/**
 * Morgan fingerprints of the first CLUSTER_MAX ranked parsed compounds (one read of the scratch
 * file), then Butina clusters and nearest neighbours among them. Null without RDKit.
 */
async function clusterScratch(
  scratchFile: string,
  rankOf: Int32Array,
  chemistry: ReportChemistry | null,
): Promise<{ clustering: Clustering | null; ids: Map<number, string> }> {
  const ids = new Map<number, string>();
  if (chemistry === null) return { clustering: null, ids };
  const items: ClusterInput[] = [];
  let at = 0;
  const lines = createInterface({
    input: createReadStream(scratchFile, "utf8"),
    crlfDelay: Number.POSITIVE_INFINITY,
  });
  for await (const line of lines) {
    if (line === "") continue;
    const rank = rankOf[at++] ?? Number.MAX_SAFE_INTEGER;
    if (rank > CLUSTER_MAX) continue;
    const { view } = JSON.parse(line) as ScratchRecord;
    if (!view.parsed || view.parent_smiles === null) continue;
    const bits = chemistry.onBits(view.parent_smiles);
    if (bits === null) continue;
    items.push({ rank, candidate_id: view.candidate_id, bits: Uint16Array.from(bits) });
    ids.set(rank, view.candidate_id);
  }
  items.sort((a, b) => a.rank - b.rank);
  return { clustering: butinaClusters(items), ids };
}

/** A carded compound's docking per structure, with its pocket and its top pose read from results/poses/. */
async function cardDockingOf(
  docking: CompoundView["docking"],
  pockets: readonly StructurePocket[],
  poses: ReturnType<typeof createPoseReader>,
): Promise<CardDocking[]> {
  const out: CardDocking[] = [];
  for (const entry of docking)
    out.push({
      docking: entry,
      pocket: pockets.find((pocket) => pocket.structure.index === entry.structure) ?? null,
      pose: entry.status === "docked" ? await poses.read(entry.pose_file) : null,
    });
  return out;
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
