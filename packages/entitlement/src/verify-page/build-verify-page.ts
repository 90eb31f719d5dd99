import { fileURLToPath } from "node:url";
import { renderVerifyPageHtml, type VerifyPage } from "./verify-page-html.ts";

const here = (file: string): string => fileURLToPath(new URL(file, import.meta.url));

/**
 * Bundles the page's script with esbuild: core's verifier as it is, with `node:crypto` replaced
 * by the WebCrypto/noble stand-in, `Buffer` by a Uint8Array one, and every other Node module by
 * a stub that throws if the verify path ever reached it (it does not: those serve run folders).
 * esbuild is a dev dependency, loaded only here: the bundle is generated, never hand-edited.
 */
export async function bundleVerifyPageScript(): Promise<string> {
  const esbuild = await import("esbuild");
  const result = await esbuild.build({
    entryPoints: [here("./browser/verify-page-main.ts")],
    bundle: true,
    write: false,
    format: "iife",
    platform: "browser",
    target: "chrome120",
    minify: true,
    legalComments: "none",
    charset: "utf8",
    inject: [here("./browser/browser-buffer.ts")],
    plugins: [
      {
        name: "node-builtins-for-the-page",
        setup(build) {
          build.onResolve({ filter: /^node:crypto$/ }, () => ({
            path: here("./browser/browser-node-crypto.ts"),
          }));
          build.onResolve({ filter: /^node:/ }, (args) => ({ path: args.path, namespace: "unavailable" }));
          build.onLoad({ filter: /.*/, namespace: "unavailable" }, (args) => ({
            loader: "js",
            contents: `module.exports = new Proxy({}, { get: (_, name) => () => { throw new Error(${JSON.stringify(args.path)} + "." + String(name) + " is not available in the verification page"); } });`,
          }));
        },
      },
    ],
  });
  const script = result.outputFiles?.[0]?.text;
  if (!script) throw new Error("esbuild produced no verification page script");
  return script;
}

/** The page with a script bundled now (see bundleVerifyPageScript). */
export async function buildVerifyPage(): Promise<VerifyPage> {
  return renderVerifyPageHtml(await bundleVerifyPageScript());
}
