/// <reference lib="dom" />
// dropSealFile's waitForFunction callback runs in Chromium and reads its DOM
import { existsSync } from "node:fs";
import { type Browser, chromium, type Page } from "playwright-core";

/** Debian's Chromium, driven by playwright-core. */
export const CHROMIUM = "/usr/bin/chromium";

/** Why a browser test is skipped: never under CI=true, where a missing browser fails the test. */
export const chromiumSkip: string | false =
  !existsSync(CHROMIUM) && process.env.CI !== "true" && "no chromium";

/** A headless Chromium for page tests: no sandbox (containers), no GPU, no background traffic. */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    args: ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--no-first-run"],
  });
}

/** Drops `svg` on the /verify page's file input as `name` and waits until the page has answered that drop. */
export async function dropSealFile(page: Page, svg: string, name = "seal.svg"): Promise<void> {
  const before = await page.evaluate(() => document.getElementById("result")?.dataset.runs ?? "0");
  await page.setInputFiles("#seal-file", { name, mimeType: "image/svg+xml", buffer: Buffer.from(svg) });
  await page.waitForFunction((previous) => {
    const result = document.getElementById("result");
    return result?.dataset.status === "done" && result.dataset.runs !== previous;
  }, before);
}
