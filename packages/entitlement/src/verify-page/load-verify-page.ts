import { readFile } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import { buildVerifyPage } from "./build-verify-page.ts";
import { renderVerifyPageHtml, type VerifyPage } from "./verify-page-html.ts";

/** Where `npm run build:verify-page` writes the bundled script (generated; the image ships it). */
export const PREBUILT_VERIFY_SCRIPT = fileURLToPath(new URL("../../dist/verify-page.js", import.meta.url));

/**
 * The page, once per process: the prebuilt script when the image ships one, else bundled now with
 * esbuild (a checkout with dev dependencies). Built on the first GET /verify, not at start, so the
 * services the tests start by the dozen do not each pay for a bundle they never serve.
 */
export function createVerifyPageLoader(): () => Promise<VerifyPage> {
  let page: Promise<VerifyPage> | null = null;
  return () => {
    page ??= readFile(PREBUILT_VERIFY_SCRIPT, "utf8").then(renderVerifyPageHtml, () => buildVerifyPage());
    // a failed build is retried on the next request rather than remembered
    page.catch(() => {
      page = null;
    });
    return page;
  };
}
