// Science's public surface is its subpath exports (issue 41 item 5): other packages import
// `@svc/science/<concept>`, never a file of science's src/ by path (ARCHITECTURE.md: packages import
// each other's public entry), and each subpath's index.ts lists only names some other package
// imports, so the surface says what the rest of the repository depends on and nothing more.
import assert from "node:assert/strict";
import { existsSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { test } from "node:test";
import { walkTree } from "@svc/core";

const ROOT = new URL("..", import.meta.url).pathname;
const SCIENCE = join(ROOT, "packages", "science");
const PACKAGE = "@svc/science";
/** Where code outside science lives (git ls-files: .ts/.js only under these). */
const OUTSIDE_FOLDERS = ["packages", "bench", "scripts", "test"];

// `… from "x";` (an import or a re-export) and `import("x")`, anchored like
// workspace-dependencies.test.ts so prose in a string is not read.
const SPECIFIER = /\bfrom\s+"([^"]+)";?\s*$|\bimport\s*\(\s*"([^"]+)"\s*\)|^\s*import\s+"([^"]+)";?\s*$/gm;
// `import { a, type b as c } from "x";`, `export { a } from "x";` and `const { a } = await import("x")`.
const NAMED =
  /\b(?:import|export)\s+(?:type\s+)?\{([^}]*)\}\s*from\s+"([^"]+)"|\{([^}]*)\}\s*=\s*await\s+import\(\s*"([^"]+)"\s*\)/g;

interface Manifest {
  readonly exports: Readonly<Record<string, string>>;
}

const manifest = JSON.parse(readFileSync(join(SCIENCE, "package.json"), "utf8")) as Manifest;
/** "@svc/science/admet" → packages/science/src/admet/index.ts */
const SUBPATHS = new Map(
  Object.entries(manifest.exports).map(([key, target]) => [
    `${PACKAGE}${key.slice(1)}`,
    join(SCIENCE, target),
  ]),
);

/**
 * The names of a `{ … }` list: as the module it comes from spells them (`side` "source": `a` of
 * `a as b`), or as the list makes them (`side` "bound": `b`).
 */
function namesOf(list: string, side: "source" | "bound"): string[] {
  return list
    .split(",")
    .map((entry) => {
      const parts = entry
        .trim()
        .replace(/^type\s+/, "")
        .split(/\s+as\s+/);
      return (side === "source" ? parts[0] : parts.at(-1))?.trim();
    })
    .filter((name): name is string => name !== undefined && name !== "");
}

/** Code files outside packages/science (TypeScript and JavaScript; node_modules left out). */
async function outsideFiles(): Promise<string[]> {
  const found: string[] = [];
  for (const folder of OUTSIDE_FOLDERS) {
    const root = join(ROOT, folder);
    const { files } = await walkTree(root, {
      exclude: (path) => path.split("/").includes("node_modules") || join(root, path) === SCIENCE,
    });
    for (const path of files) if (/\.(ts|mts|js|mjs)$/.test(path)) found.push(join(root, path));
  }
  return found;
}

const files = await outsideFiles();

test("no file outside science imports one of science's files by path, or science without a subpath", () => {
  const problems: string[] = [];
  for (const file of files) {
    const text = readFileSync(file, "utf8");
    for (const match of text.matchAll(SPECIFIER)) {
      const specifier = match[1] ?? match[2] ?? match[3] ?? "";
      const where = relative(ROOT, file);
      if (specifier.startsWith(".")) {
        const target = resolve(dirname(file), specifier);
        if (target === SCIENCE || target.startsWith(`${SCIENCE}/`))
          problems.push(`${where} imports ${specifier}: a science file by path, not a subpath`);
      } else if (specifier === PACKAGE || specifier.startsWith(`${PACKAGE}/`)) {
        if (!SUBPATHS.has(specifier))
          problems.push(
            `${where} imports ${specifier}, not one of science's subpaths (${[...SUBPATHS.keys()].join(", ")})`,
          );
      } else if (/(^|\/)packages\/science\//.test(specifier)) problems.push(`${where} imports ${specifier}`);
    }
  }
  assert.deepEqual(problems, []);
});

test("each subpath of science is an index.ts that only re-exports", () => {
  for (const [subpath, file] of SUBPATHS) {
    assert.ok(existsSync(file), `${subpath} → ${relative(ROOT, file)} does not exist`);
    assert.match(file, /\/index\.ts$/, `${subpath} is not a folder's index.ts`);
    // Statements, comments left out: each is `export [type] { … } from "…"` (ARCHITECTURE.md 7).
    const statements = readFileSync(file, "utf8")
      .replace(/^\s*\/\/.*$/gm, "")
      .split(";")
      .map((statement) => statement.trim())
      .filter((statement) => statement !== "");
    for (const statement of statements)
      assert.match(
        statement,
        /^export\s+(type\s+)?\{[^}]*\}\s*from\s+"\.{1,2}\/[^"]+"$/,
        `${subpath}: ${statement}`,
      );
  }
});

test("every name a science subpath exports is imported from it by some other package (no dead public surface)", () => {
  const used = new Map<string, Set<string>>([...SUBPATHS.keys()].map((subpath) => [subpath, new Set()]));
  for (const file of files)
    for (const match of readFileSync(file, "utf8").matchAll(NAMED)) {
      const specifier = match[2] ?? match[4] ?? "";
      for (const name of namesOf(match[1] ?? match[3] ?? "", "source")) used.get(specifier)?.add(name);
    }
  const dead: string[] = [];
  for (const [subpath, file] of SUBPATHS)
    for (const match of readFileSync(file, "utf8").matchAll(NAMED))
      for (const name of namesOf(match[1] ?? "", "bound"))
        if (!used.get(subpath)?.has(name))
          dead.push(`${subpath} exports ${name}, which no other package imports`);
  assert.deepEqual(dead, []);
});
