import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, it } from "node:test";
import { runFolderJsonSchemas } from "../run-folder/run-folder-json-schemas.ts";
import { sealJsonSchemas } from "./seal-json-schemas.ts";

describe("checked-in JSON Schemas", () => {
  for (const [name, schema] of Object.entries({ ...sealJsonSchemas(), ...runFolderJsonSchemas() })) {
    it(`schemas/${name} matches the zod schema (regenerate: node packages/core/scripts/write-schemas.ts)`, () => {
      const checkedIn = JSON.parse(
        readFileSync(join(import.meta.dirname, "..", "..", "schemas", name), "utf8"),
      );
      assert.deepEqual(checkedIn, schema);
    });
  }
});
