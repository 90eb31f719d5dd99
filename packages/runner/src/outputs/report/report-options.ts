import type { EnvReader } from "@svc/core";

/** How large the report may grow and whether a PDF is printed (README "Report"). */
export interface ReportOptions {
  /** Cards (depiction, radar, findings) for this many highest-ranked compounds. */
  readonly cards: number;
  /** Table rows and plot points for this many highest-ranked compounds. */
  readonly rows: number;
  /** "auto": print results/report.pdf when Chromium is present; "off": never. */
  readonly pdf: "auto" | "off";
  readonly chromiumPath: string;
}

export const REPORT_DEFAULTS: ReportOptions = Object.freeze({
  cards: 500,
  rows: 10_000,
  pdf: "auto",
  chromiumPath: "/usr/bin/chromium",
});

/**
 * Reads SVC_REPORT_CARDS, SVC_REPORT_ROWS, SVC_REPORT_PDF and SVC_CHROMIUM_PATH with the run
 * configuration's reader (core's one reader): its problems join the run's, in its one format.
 */
export function resolveReportOptions(read: EnvReader): ReportOptions {
  return {
    cards: read.int("SVC_REPORT_CARDS", { fallback: REPORT_DEFAULTS.cards, min: 0, max: 1_000 }),
    rows: read.int("SVC_REPORT_ROWS", { fallback: REPORT_DEFAULTS.rows, min: 0, max: 20_000 }),
    pdf: read.oneOf("SVC_REPORT_PDF", ["auto", "off"] as const, { fallback: REPORT_DEFAULTS.pdf }),
    chromiumPath: read.string("SVC_CHROMIUM_PATH", { fallback: REPORT_DEFAULTS.chromiumPath }),
  };
}
