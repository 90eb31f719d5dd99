import { execFile } from "node:child_process";
import { access, constants, mkdtemp, readFile, rename, rm, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import { pathToFileURL } from "node:url";
import { RUN_FILES } from "@svc/core";
import { PRINT_SKIP_END, PRINT_SKIP_START } from "./page-shell.ts";
import type { ReportOptions } from "./report-options.ts";

export const REPORT_PDF = RUN_FILES.reportPdf;
// Generous: a 10,000-row page on a busy node takes minutes; a slower print is skipped, not fatal.
const PRINT_TIMEOUT_MS = 600_000;

export type PdfOutcome =
  | { readonly printed: true; readonly path: string }
  | { readonly printed: false; readonly reason: string };

/**
 * Prints report.html to report.pdf with headless Chromium's own --print-to-pdf (the page's print
 * stylesheet, A4), in a child process so the runner's heap stays flat. Skipped, with the reason,
 * when printing is off or no Chromium is installed. The page's CSP (default-src 'none') keeps the
 * browser from loading anything but the file. The PDF is then made reproducible (see
 * makePdfReproducible).
 */
export async function printReportPdf(
  htmlPath: string,
  options: ReportOptions,
  generatedAt: string,
): Promise<PdfOutcome> {
  if (options.pdf === "off") return { printed: false, reason: "SVC_REPORT_PDF=off" };
  try {
    await access(options.chromiumPath, constants.X_OK);
  } catch {
    return { printed: false, reason: `no Chromium at ${options.chromiumPath} (set SVC_CHROMIUM_PATH)` };
  }
  const results = dirname(htmlPath);
  // The browser profile is scratch inside the run folder, removed before the outputs are hashed
  // (the runner image's user has no home directory).
  const profile = await mkdtemp(join(dirname(results), ".report-chromium-"));
  const temp = join(results, `.report.pdf.tmp-${process.pid}`);
  // The copy Chromium prints: report.html without what print CSS would hide anyway. Beside it in
  // results/, so its relative links are the page's; removed below, before the outputs are hashed.
  const printed = join(results, `.report-print-${process.pid}.html`);
  try {
    await writeFile(printed, printCopyOf(await readFile(htmlPath, "utf8")));
    await runChromium(options.chromiumPath, [
      "--headless",
      "--no-sandbox",
      "--disable-gpu",
      "--disable-dev-shm-usage",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
      "--no-first-run",
      "--no-default-browser-check",
      `--user-data-dir=${profile}`,
      "--no-pdf-header-footer",
      `--print-to-pdf=${temp}`,
      pathToFileURL(printed).href,
    ]);
    const pdf = await readFile(temp);
    if (pdf.subarray(0, 5).toString("latin1") !== "%PDF-")
      return { printed: false, reason: "Chromium wrote no PDF" };
    await writeFile(temp, makePdfReproducible(pdf, generatedAt, `${pathToFileURL(results).href}/`));
    const path = join(results, "report.pdf");
    await rename(temp, path);
    return { printed: true, path };
  } catch (error) {
    return { printed: false, reason: `Chromium failed: ${(error as Error).message.split("\n")[0]}` };
  } finally {
    await rm(temp, { force: true });
    await rm(printed, { force: true });
    await rm(profile, { recursive: true, force: true });
  }
}

/**
 * The page without the runs between PRINT_SKIP_START and PRINT_SKIP_END (the report writer puts
 * them around table rows and cards the print stylesheet hides). The page is at most
 * REPORT_MAX_BYTES, so it is read whole.
 */
export function printCopyOf(html: string): string {
  const parts: string[] = [];
  let from = 0;
  for (;;) {
    const start = html.indexOf(PRINT_SKIP_START, from);
    if (start === -1) break;
    const end = html.indexOf(PRINT_SKIP_END, start);
    if (end === -1) break;
    parts.push(html.slice(from, start));
    from = end + PRINT_SKIP_END.length;
  }
  parts.push(html.slice(from));
  return parts.join("");
}

function runChromium(path: string, args: string[]): Promise<void> {
  return new Promise((resolve, reject) => {
    execFile(path, args, { timeout: PRINT_TIMEOUT_MS, maxBuffer: 4 * 1024 * 1024 }, (error) =>
      error ? reject(error) : resolve(),
    );
  });
}

/**
 * Makes the same run give the same PDF bytes: the document-information dates (ISO 32000-1
 * §14.3.3, D:YYYYMMDDHHmmSS+00'00') become the run's instant (repro_pack lists them among the
 * time fields), and links Chromium made absolute (file:///<run folder>/results/report.csv) become
 * relative again, so no local path is printed. Each replacement is padded with PDF whitespace to
 * the same length, so the cross-reference offsets hold.
 */
export function makePdfReproducible(pdf: Uint8Array, instant: string, baseUrl: string): Buffer {
  const date = new Date(instant);
  if (Number.isNaN(date.getTime())) throw new Error(`makePdfReproducible: "${instant}" is not an instant`);
  const d = Buffer.from(date.toISOString().replace(/[-:T]/g, "").slice(0, 14), "latin1");
  // The bytes are patched in place (the caller's buffer): a PDF of a 10,000-row page is tens of
  // MB, and copies of it (string, replaced string, parts, buffer) made the run's peak memory grow
  // with the portfolio (issue 10 item 4, RSS flat).
  const bytes = Buffer.from(pdf.buffer, pdf.byteOffset, pdf.byteLength);
  for (const key of ["/CreationDate (D:", "/ModDate (D:"]) {
    for (let at = bytes.indexOf(key, 0, "latin1"); at !== -1; at = bytes.indexOf(key, at + 1, "latin1")) {
      const digits = at + key.length;
      const stamp = bytes.toString("latin1", digits, digits + 14 + 8);
      if (/^\d{14}\+00'00'\)$/.test(stamp)) d.copy(bytes, digits);
    }
  }
  const uri = Buffer.from(`/URI (${Buffer.from(baseUrl, "utf8").toString("latin1")}`, "latin1");
  const lead = "/URI (".length;
  const baseLength = uri.length - lead;
  for (let at = bytes.indexOf(uri); at !== -1; at = bytes.indexOf(uri, at + 1)) {
    // "/URI (<base><link>)" becomes "/URI (<link>)" and as many spaces as <base> had.
    const link = at + uri.length;
    const close = bytes.indexOf(")", link, "latin1");
    if (close === -1) break;
    bytes.copy(bytes, at + lead, link, close + 1);
    bytes.fill(0x20, close + 1 - baseLength, close + 1);
  }
  return bytes;
}
