// Every workspace package declares what it imports (issue 29 item 6): npm hoists every
// dependency to the root node_modules, so an undeclared import works here and breaks the day the
// package is installed on its own (an image layer, `npm ci --workspace`). Production code must
// find its imports in `dependencies`; tests may also use `devDependencies` — `@svc/testing` is
// one of those and never a production dependency.
import assert from "node:assert/strict";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { test } from "node:test";
import { walkTree } from "@svc/core";

const ROOT = new URL("..", import.meta.url).pathname;
const PACKAGES = join(ROOT, "packages");
const SOURCE_FOLDERS = ["src", "test", "bin", "scripts"];
// `import x from "pkg";`, `export … from "pkg";`, `import("pkg")`, `import "pkg";` — anchored to
// the line's end or the call's parenthesis so prose in a string ("… from " + …) is not read.
const IMPORT =
  /\bfrom\s+"([^".][^"]*)";?\s*$|\bimport\s*\(\s*"([^".][^"]*)"\s*\)|^\s*import\s+"([^".][^"]*)";?\s*$/gm;
// Build-time code (it makes the /verify page's browser bundle; the image ships the prebuilt
// bundle) may use devDependencies like tests do.
const BUILD_TIME = [/^packages\/entitlement\/src\/verify-page\/(browser\/|build-verify-page\.ts$)/];

interface Manifest {
  name: string;
  dependencies?: Record<string, string>;
  devDependencies?: Record<string, string>;
}

/** The TypeScript and JavaScript files below `folder`, by core's one walker. */
async function typeScriptFiles(folder: string): Promise<string[]> {
  if (!existsSync(folder)) return [];
  const { files } = await walkTree(folder, { exclude: (path) => path.split("/").includes("node_modules") });
  return files.filter((path) => /\.(ts|js|mjs)$/.test(path)).map((path) => join(folder, path));
}

/** `@scope/name/sub` → `@scope/name`, `name/sub` → `name`; built-ins are not packages. */
function packageOf(specifier: string): string | undefined {
  if (specifier.startsWith("node:")) return undefined;
  const parts = specifier.split("/");
  return specifier.startsWith("@") ? parts.slice(0, 2).join("/") : parts[0];
}

/** Tests, and a package's `scripts/` (developer tools run from a checkout: training, docs), may use devDependencies. */
function isTestCode(packageDir: string, file: string): boolean {
  const path = relative(packageDir, file);
  return (
    /\.test\.ts$/.test(path) ||
    path.startsWith("test/") ||
    path.startsWith("scripts/") ||
    /(^|\/)test-support\//.test(path)
  );
}

const packageDirs = readdirSync(PACKAGES, { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => join(PACKAGES, entry.name));

for (const packageDir of packageDirs) {
  const manifest = JSON.parse(readFileSync(join(packageDir, "package.json"), "utf8")) as Manifest;
  test(`${manifest.name} declares every package its code imports`, async () => {
    const production = new Set(Object.keys(manifest.dependencies ?? {}));
    const development = new Set(Object.keys(manifest.devDependencies ?? {}));
    const problems: string[] = [];
    const files = (
      await Promise.all(SOURCE_FOLDERS.map((folder) => typeScriptFiles(join(packageDir, folder))))
    ).flat();
    for (const file of files) {
      const text = readFileSync(file, "utf8");
      const testCode =
        isTestCode(packageDir, file) || BUILD_TIME.some((pattern) => pattern.test(relative(ROOT, file)));
      for (const match of text.matchAll(IMPORT)) {
        const name = packageOf(match[1] ?? match[2] ?? match[3] ?? "");
        if (name === undefined || name === manifest.name) continue;
        if (production.has(name)) continue;
        if (testCode && development.has(name)) continue;
        const where = relative(ROOT, file);
        problems.push(
          development.has(name)
            ? `${where} imports ${name}, a devDependency, from production code`
            : `${where} imports ${name}, not declared in ${relative(ROOT, packageDir)}/package.json`,
        );
      }
    }
    assert.deepEqual([...new Set(problems)], []);
  });
}

test("@svc/testing is never a production dependency", () => {
  for (const packageDir of packageDirs) {
    const manifest = JSON.parse(readFileSync(join(packageDir, "package.json"), "utf8")) as Manifest;
    assert.equal(manifest.dependencies?.["@svc/testing"], undefined, `${manifest.name} lists @svc/testing`);
  }
});
