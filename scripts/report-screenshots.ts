// `npm run report:screenshots`: runs the demo into a temporary folder and photographs its report
// in headless Chromium (the top section, one compound card, the BOILED-Egg, the table's first rows)
// into docs/images/, so the README shows what a run gives before anyone runs one.
import { execFile } from "node:child_process";
import { mkdir, mkdtemp, readdir, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { promisify } from "node:util";
import { chromium } from "playwright-core";

const REPO = resolve(import.meta.dirname, "..");
const IMAGES = join(REPO, "docs", "images");
const CHROMIUM = process.env.SVC_CHROMIUM_PATH ?? "/usr/bin/chromium";
// Lapatinib: fails Lipinski, Veber and Egan, so its card shows reasons in words.
const CARD = "#card-CAND-004";

const USAGE = `Usage: npm run report:screenshots   (node scripts/report-screenshots.ts)

Runs the demo into a temporary folder and photographs its report in headless Chromium into
docs/images/: report-top.png, report-card.png, report-boiled-egg.png, report-table.png.
  -h, --help  print this and do nothing else
Env: SVC_CHROMIUM_PATH  the Chromium binary (default /usr/bin/chromium)
`;

async function main(): Promise<void> {
  const out = await mkdtemp(join(tmpdir(), "svc-report-screenshots-"));
  try {
    process.stdout.write("running the demo (npm run demo) …\n");
    await promisify(execFile)(process.execPath, [join(REPO, "scripts", "demo.ts")], {
      env: { ...process.env, SVC_DEMO_OUT: out, SVC_REPORT_PDF: "off" },
      maxBuffer: 16 * 1024 * 1024,
    });
    const runs = (await readdir(join(out, "output"))).filter((name) => name.startsWith("run_"));
    if (runs.length !== 1) throw new Error(`expected one demo run in ${out}, found ${runs.length}`);
    const report = join(out, "output", runs[0] as string, "results", "report.html");
    await mkdir(IMAGES, { recursive: true });
    const browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: ["--no-sandbox", "--disable-gpu"],
    });
    try {
      const page = await browser.newPage({ viewport: { width: 1280, height: 1500 }, deviceScaleFactor: 1 });
      await page.goto(pathToFileURL(report).href, { waitUntil: "load" });
      await page.screenshot({
        path: join(IMAGES, "report-top.png"),
        clip: { x: 0, y: 0, width: 1280, height: 1500 },
      });
      await page.locator(CARD).screenshot({ path: join(IMAGES, "report-card.png") });
      await page.locator("#plot-boiled-egg").screenshot({ path: join(IMAGES, "report-boiled-egg.png") });
      // The first table rows with their thumbnails, score, confidence and cluster.
      // Page coordinates (a bounding box is relative to the scrolled viewport).
      const table = await page.evaluate(() => {
        const doc = (
          globalThis as unknown as {
            document: {
              getElementById(
                id: string,
              ): { getBoundingClientRect(): { x: number; y: number; width: number } } | null;
            };
          }
        ).document;
        const scrollY = (globalThis as unknown as { scrollY: number }).scrollY;
        const box = doc.getElementById("compounds")?.getBoundingClientRect();
        return box ? { x: box.x, y: box.y + scrollY, width: box.width } : null;
      });
      if (table === null) throw new Error("no compound table in the report");
      await page.screenshot({
        path: join(IMAGES, "report-table.png"),
        fullPage: true,
        clip: { x: table.x, y: table.y, width: Math.min(table.width, 1280 - table.x), height: 560 },
      });
    } finally {
      await browser.close();
    }
    for (const name of ["report-top.png", "report-card.png", "report-boiled-egg.png", "report-table.png"])
      process.stdout.write(`wrote docs/images/${name}\n`);
  } finally {
    await rm(out, { recursive: true, force: true });
  }
}

const args = process.argv.slice(2);
if (args.includes("--help") || args.includes("-h")) process.stdout.write(USAGE);
else if (args.length > 0) {
  process.stderr.write(`report:screenshots: unknown argument ${args[0]}\n${USAGE}`);
  process.exitCode = 2;
} else
  main().catch((error: unknown) => {
    process.stderr.write(`report:screenshots: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exitCode = 1;
  });
