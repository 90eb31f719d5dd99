// The runner is orchestration only (ARCHITECTURE.md; issue 39's Done when: "structure modules live
// in science"): every analysis module, ligand or structure, is defined in packages/science, and
// the runner schedules the lists science exports. This scan fails the day a module is defined in
// runner/src again. Test files are left out: a stage's test defines throwaway modules to drive it.
import assert from "node:assert/strict";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, it } from "node:test";
import { walkTree } from "@svc/core";

const RUNNER_SRC = new URL("../src/", import.meta.url).pathname;

/** Comments out: a comment that names `defineStructureModule(` defines nothing. */
function withoutComments(source: string): string {
  return source.replace(/\/\*[\s\S]*?\*\//g, "").replace(/(^|[^:"'`])\/\/.*$/gm, "$1");
}

const MODULE_DEFINITIONS: readonly { readonly what: string; readonly pattern: RegExp }[] = [
  // science's two constructors, called (or declared) here
  {
    what: "a defineModule / defineStructureModule call",
    pattern: /\bdefine(?:Structure)?Module\s*(?:<[^>]*>)?\s*\(/,
  },
  // a module written by hand: the hook defined as a method or property, not called on a module
  {
    what: "an assessStructure / createRun hook defined",
    pattern: /(?:^|[^.\w])(?:async\s+)?(?:assessStructure|createRun)\s*(?::|\([^)]*\)\s*(?::[^{=;]+)?\{)/m,
  },
];

/** What in `source` defines a module, by the patterns above; empty when it only uses modules. */
function moduleDefinitionsIn(source: string): string[] {
  const code = withoutComments(source);
  return MODULE_DEFINITIONS.filter(({ pattern }) => pattern.test(code)).map(({ what }) => what);
}

describe("the runner only schedules modules; science defines them (issue 39 item 1)", () => {
  it("flags a module defined in a file, by constructor or by hand, and not a stage that calls one", () => {
    assert.deepEqual(moduleDefinitionsIn('export const m = defineStructureModule({ id: "x" });'), [
      "a defineModule / defineStructureModule call",
    ]);
    assert.deepEqual(moduleDefinitionsIn("const m = defineModule<F, A, S>({ id });"), [
      "a defineModule / defineStructureModule call",
    ]);
    assert.deepEqual(
      moduleDefinitionsIn("const m = { id: 'x', async assessStructure(context) { return 1; } };"),
      ["an assessStructure / createRun hook defined"],
    );
    assert.deepEqual(moduleDefinitionsIn("const m = { createRun: () => ({}) };"), [
      "an assessStructure / createRun hook defined",
    ]);
    assert.deepEqual(
      moduleDefinitionsIn(
        [
          "// built by science's defineStructureModule(definition)",
          "const run = await module.assessStructure(context);",
          "const started = module.createRun(options.context);",
        ].join("\n"),
      ),
      [],
    );
  });

  it("no file of packages/runner/src (tests aside) defines an analysis or structure module", async () => {
    const { files } = await walkTree(RUNNER_SRC, {
      exclude: (path) => path.split("/").includes("node_modules"),
    });
    const sources = files.filter((path) => path.endsWith(".ts") && !path.endsWith(".test.ts"));
    assert.ok(sources.length > 50, `runner sources found: ${sources.length}`);
    const found: string[] = [];
    for (const path of sources)
      for (const what of moduleDefinitionsIn(await readFile(join(RUNNER_SRC, path), "utf8")))
        found.push(`${path}: ${what}`);
    assert.deepEqual(
      found,
      [],
      "define modules in packages/science (define-module.ts, define-structure-module.ts)",
    );
  });
});
