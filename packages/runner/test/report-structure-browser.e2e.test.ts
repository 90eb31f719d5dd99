import assert from "node:assert/strict";
import { existsSync } from "node:fs";
import { readFile, stat } from "node:fs/promises";
import { join } from "node:path";
import { after, test } from "node:test";
import { pathToFileURL } from "node:url";
import { type Browser, chromium, type Page } from "playwright-core";
import { printReportPdf } from "../src/outputs/report/print-report-pdf.ts";
import { REPORT_DEFAULTS } from "../src/outputs/report/report-options.ts";
import { REPORT_MAX_BYTES } from "../src/outputs/report/report-writer.ts";
import { writeDockingReport } from "./support/docking-report.ts";

// Issue 25 item 10: the report of a real docking result (test/fixtures/docking) opened in Debian's
// Chromium. WebGL comes from SwiftShader (Chromium's CPU renderer), so the 3D pose viewer draws on
// a machine with no GPU; every request the page makes is intercepted and none may leave it. Under
// CI=true a missing browser fails the test.
const CHROMIUM = "/usr/bin/chromium";
const skip = !existsSync(CHROMIUM) && !process.env.CI && "no chromium";
// README "Report": the printed copy stays within 80 A4 pages.
const PDF_PAGE_BOUND = 80;

let browser: Browser | null = null;
after(async () => {
  await browser?.close();
});

test("the pose viewer draws the docked pose in its pocket with WebGL, the page requests nothing, print shows the projection instead", {
  skip,
}, async (t) => {
  const { htmlPath } = await writeDockingReport(t);
  assert.ok((await stat(htmlPath)).size < REPORT_MAX_BYTES, "report.html stays under its size bound");
  browser ??= await chromium.launch({
    executablePath: CHROMIUM,
    args: [
      "--no-sandbox",
      "--use-gl=angle",
      "--use-angle=swiftshader",
      "--enable-unsafe-swiftshader",
      "--disable-background-networking",
      "--no-first-run",
    ],
  });
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  t.after(() => context.close());
  const url = pathToFileURL(htmlPath).href;
  const left: string[] = [];
  const requested: string[] = [];
  // Every request is intercepted: the page itself is served, anything else is recorded and refused.
  await context.route("**/*", (route) => {
    const target = route.request().url();
    if (target === url) return route.continue();
    left.push(target);
    return route.abort();
  });
  const page = await context.newPage();
  const problems: string[] = [];
  page.on("request", (request) => requested.push(request.url()));
  page.on("console", (message) => {
    if (message.type() === "error") problems.push(message.text());
  });
  page.on("pageerror", (error) => problems.push(error.message));
  await page.goto(url, { waitUntil: "load" });

  assert.equal(await page.locator("#structure .structure[data-profile=standard]").count(), 1);
  assert.equal(await page.locator("#structure .best-poses tbody tr").count(), 3);
  const cards = page.locator('article.card:has([data-panel="docking"])');
  assert.equal(await cards.count(), 3, "every docked compound's card has the docking panel");

  const card = page.locator("#card-DHFR-001");
  await card.locator("button.pose-open").click();
  const canvas = card.locator(".pose-stage canvas");
  await canvas.waitFor();
  // Drawn pixels, read back through a 2D canvas (the viewer keeps its drawing buffer): the pose,
  // the residues and the box on a white background.
  const drawn = await page.waitForFunction(() => {
    type Canvas = { width: number; height: number };
    const doc = (
      globalThis as unknown as {
        document: { querySelector(s: string): unknown; createElement(s: string): unknown };
      }
    ).document;
    const source = doc.querySelector("#card-DHFR-001 .pose-stage canvas") as Canvas | null;
    if (source === null || source.width === 0) return 0;
    const copy = doc.createElement("canvas") as Canvas & {
      getContext(kind: "2d"): {
        drawImage(image: unknown, x: number, y: number): void;
        getImageData(x: number, y: number, w: number, h: number): { data: Uint8ClampedArray };
      };
    };
    copy.width = source.width;
    copy.height = source.height;
    const g = copy.getContext("2d");
    g.drawImage(source, 0, 0);
    const { data } = g.getImageData(0, 0, copy.width, copy.height);
    let coloured = 0;
    let green = 0;
    for (let at = 0; at < data.length; at += 4) {
      const [r, g, b] = [data[at] as number, data[at + 1] as number, data[at + 2] as number];
      if (r < 240 || g < 240 || b < 240) coloured++;
      if (g > r + 60 && g > b + 60) green++;
    }
    const share = coloured / (copy.width * copy.height);
    return share > 0.01 ? { share, green } : 0;
  });
  const { share, green } = (await drawn.jsonValue()) as { share: number; green: number };
  assert.ok(share > 0.01 && share < 0.9, `${(share * 100).toFixed(1)}% of the viewer's pixels are drawn`);
  assert.ok(green > 100, `${green} pixels of the pose's green carbons (3Dmol's greenCarbon scheme)`);
  assert.deepEqual(left, [], "no request leaves the page");
  assert.deepEqual(
    requested.filter((target) => target !== url && !target.startsWith("data:")),
    [],
    "the page asked for nothing but itself",
  );
  assert.deepEqual(problems, [], "no error and no CSP refusal in the console");

  await page.setViewportSize({ width: 1400, height: 900 });
  assert.deepEqual(await overflowing(page), [], "the docking panels' contents stay inside them on screen");
  await page.emulateMedia({ media: "print" });
  // A4 at 96 dpi less the 12 mm margins: the printed page's width.
  await page.setViewportSize({ width: 703, height: 1033 });
  assert.equal(await card.locator(".pose-stage").isVisible(), false, "no viewer in print");
  assert.equal(await card.locator("svg.pose-2d").isVisible(), true, "the projection in print");
  assert.deepEqual(await overflowing(page), [], "and in print");
  await page.emulateMedia({ media: "screen" });

  const pdf = await printReportPdf(htmlPath, { ...REPORT_DEFAULTS, pdf: "auto" }, "2026-11-27T00:00:00Z");
  assert.ok(pdf.printed, pdf.printed ? "" : pdf.reason);
  const pages =
    (await readFile(join(htmlPath, "..", "report.pdf"))).toString("latin1").match(/\/Type\s*\/Page[^s]/g)
      ?.length ?? 0;
  t.diagnostic(`${pages} PDF pages; viewer ${(share * 100).toFixed(1)}% drawn`);
  assert.ok(pages > 0 && pages <= PDF_PAGE_BOUND, `${pages} PDF pages (bound ${PDF_PAGE_BOUND})`);
});

/** Elements of a docking panel (outside SVG drawings) whose box passes the panel's edge. */
const overflowing = (page: Page) =>
  page.evaluate(() => {
    type Rect = { left: number; right: number; top: number; bottom: number; width: number };
    type El = {
      getBoundingClientRect(): Rect;
      querySelectorAll(selector: string): ArrayLike<El>;
      closest(selector: string): El | null;
      tagName: string;
      className: unknown;
    };
    const doc = (globalThis as unknown as { document: { querySelectorAll(s: string): ArrayLike<El> } })
      .document;
    const problems: string[] = [];
    for (const panel of Array.from(doc.querySelectorAll('[data-panel="docking"]'))) {
      const box = panel.getBoundingClientRect();
      if (box.width === 0) continue;
      for (const el of Array.from(panel.querySelectorAll("*"))) {
        if (el.closest("svg") !== null && el.tagName.toLowerCase() !== "svg") continue;
        const r = el.getBoundingClientRect();
        if (r.width === 0) continue;
        if (
          r.left < box.left - 1 ||
          r.right > box.right + 1 ||
          r.top < box.top - 1 ||
          r.bottom > box.bottom + 1
        )
          problems.push(
            `<${el.tagName.toLowerCase()} class="${String(el.className)}"> passes its panel's edge`,
          );
      }
    }
    return problems.slice(0, 10);
  });
