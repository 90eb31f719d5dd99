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

/** Reads SVC_REPORT_CARDS, SVC_REPORT_ROWS, SVC_REPORT_PDF and SVC_CHROMIUM_PATH; problems are pushed, not thrown. */
export function resolveReportOptions(env: NodeJS.ProcessEnv, problems: string[]): ReportOptions {
  const integer = (name: string, fallback: number, max: number) => {
    const raw = env[name]?.trim();
    if (raw === undefined || raw === "") return fallback;
    const value = Number(raw);
    if (!Number.isInteger(value) || value < 0 || value > max) {
      problems.push(`${name} "${raw}": must be an integer from 0 to ${max}`);
      return fallback;
    }
    return value;
  };
  const pdf = env.SVC_REPORT_PDF?.trim() || "auto";
  if (pdf !== "auto" && pdf !== "off") problems.push(`SVC_REPORT_PDF "${pdf}": must be auto or off`);
  return Object.freeze({
    cards: integer("SVC_REPORT_CARDS", REPORT_DEFAULTS.cards, 1_000),
    rows: integer("SVC_REPORT_ROWS", REPORT_DEFAULTS.rows, 20_000),
    pdf: pdf === "off" ? "off" : "auto",
    chromiumPath: env.SVC_CHROMIUM_PATH?.trim() || REPORT_DEFAULTS.chromiumPath,
  });
}
