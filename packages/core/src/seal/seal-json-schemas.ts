import { z } from "zod";
import { crypticPocketsResultSchema } from "../contracts/cryptic-pockets-result.ts";
import { dockingResultSchema } from "../contracts/docking-result.ts";
import { runStatusSchema } from "../contracts/run-status.ts";
import { RUN_FILES } from "../run-folder/run-files.ts";
import { presealPayloadSchema, sealPayloadSchema } from "./seal-payload.ts";

/**
 * JSON Schema documents generated from the zod schemas (one schema per data shape,
 * ARCHITECTURE.md convention 5). Checked in under `packages/core/schemas/` for third-party
 * verifiers; a test keeps them in sync.
 */
export function sealJsonSchemas(): Record<string, unknown> {
  return {
    "seal-payload.schema.json": {
      $id: "urn:svc:seal:v1:payload",
      title: "svc.seal/v1 payload",
      ...z.toJSONSchema(sealPayloadSchema),
    },
    "preseal-payload.schema.json": {
      $id: "urn:svc:seal:v1:preseal",
      title: "svc.preseal/v1 payload",
      ...z.toJSONSchema(presealPayloadSchema),
    },
    "docking-result.schema.json": {
      $id: "urn:svc:structure-module:v1:molecular_docking",
      title: `${RUN_FILES.dockingResult} (svc.structure-module/v1, molecular_docking)`,
      ...z.toJSONSchema(dockingResultSchema),
    },
    "cryptic-pockets-result.schema.json": {
      $id: "urn:svc:structure-module:v1:cryptic_pockets",
      title: `${RUN_FILES.crypticPocketsResult} (svc.structure-module/v1, cryptic_pockets)`,
      ...z.toJSONSchema(crypticPocketsResultSchema),
    },
    "run-status.schema.json": {
      $id: "urn:svc:run-status:v1",
      title: "svc.run-status/v1 record",
      ...z.toJSONSchema(runStatusSchema),
    },
  };
}
