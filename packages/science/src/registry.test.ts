import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { test } from "node:test";
import { IMPLEMENTED_MODULES } from "./registry.ts";
import { UNAVAILABLE_MODULES } from "./unavailable-modules.ts";

const docs = readFileSync(new URL("../../../docs/science.md", import.meta.url), "utf8");

test("every implemented module has a method card with citations, validation and limits, and a section in docs/science.md", () => {
  for (const module of IMPLEMENTED_MODULES) {
    assert.ok(module.method.citations.length > 0, module.id);
    assert.ok(module.method.validation.length > 40, module.id);
    assert.ok(module.method.limits.length > 20, module.id);
    assert.match(
      docs,
      new RegExp(`^## \`${module.id}\` — `, "m"),
      `docs/science.md has no card for ${module.id}`,
    );
  }
});

test("no module is both implemented and listed as unavailable, and docs/science.md names every unavailable one", () => {
  for (const module of IMPLEMENTED_MODULES)
    assert.equal(UNAVAILABLE_MODULES[module.id], undefined, module.id);
  for (const id of Object.keys(UNAVAILABLE_MODULES))
    assert.match(
      docs,
      new RegExp(`\\| \`${id}\` \\| not available \\|`),
      `docs/science.md does not list ${id}`,
    );
});

test("a module that reads other modules' findings runs after every implemented module it reads", () => {
  const position = new Map(IMPLEMENTED_MODULES.map((module, at) => [module.id, at]));
  for (const [at, module] of IMPLEMENTED_MODULES.entries())
    for (const read of module.reads ?? []) {
      const readAt = position.get(read);
      if (readAt !== undefined) assert.ok(readAt < at, `${module.id} reads ${read}, listed after it`);
    }
});
