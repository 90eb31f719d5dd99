// Regenerates packages/core/schemas/*.json from the zod schemas: `node packages/core/scripts/write-schemas.ts`.
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { runFolderJsonSchemas } from "../src/run-folder/run-folder-json-schemas.ts";
import { sealJsonSchemas } from "../src/seal/seal-json-schemas.ts";

const directory = join(import.meta.dirname, "..", "schemas");
for (const [name, schema] of Object.entries({ ...sealJsonSchemas(), ...runFolderJsonSchemas() })) {
  writeFileSync(join(directory, name), `${JSON.stringify(schema, null, 2)}\n`);
  console.log(`wrote schemas/${name}`);
}
