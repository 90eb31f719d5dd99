import { z } from "zod";
import {
  expectedHashesSchema,
  inputHashesSchema,
  modulePlanFileSchema,
  moduleResultSchema,
  runManifestSchema,
  runSummaryFileSchema,
} from "./run-file-schemas.ts";

/**
 * JSON Schema documents of the run folder's files (docs/contracts/run-folder.md), generated from
 * the zod schemas like the seal's (seal-json-schemas.ts), checked in under `packages/core/schemas/`
 * for readers in other languages; a test keeps them in sync.
 */
export function runFolderJsonSchemas(): Record<string, unknown> {
  const documents: [string, string, string, z.ZodType][] = [
    [
      "run-summary",
      "urn:svc:run-folder:summary:v2",
      "results/summary.json (svc.summary/v2)",
      runSummaryFileSchema,
    ],
    [
      "module-plan",
      "urn:svc:run-folder:module-plan:v1",
      "plans/<run_id>_module_plan.json (svc.module-plan/v1)",
      modulePlanFileSchema,
    ],
    [
      "run-manifest",
      "urn:svc:run-folder:run-manifest:v1",
      "run_manifest.json (svc.run-manifest/v1)",
      runManifestSchema,
    ],
    [
      "input-hashes",
      "urn:svc:run-folder:input-hashes:v1",
      "inputs/input_hashes.json (svc-tree/v1)",
      inputHashesSchema,
    ],
    [
      "expected-output-hashes",
      "urn:svc:run-folder:expected-output-hashes:v1",
      "repro_pack/outputs/expected_output_hashes.json",
      expectedHashesSchema,
    ],
    [
      "module-result",
      "urn:svc:run-folder:module-result",
      "results/<module>.json of a structure module",
      moduleResultSchema,
    ],
  ];
  return Object.fromEntries(
    documents.map(([name, id, title, schema]) => [
      `${name}.schema.json`,
      { $id: id, title, ...z.toJSONSchema(schema) },
    ]),
  );
}
