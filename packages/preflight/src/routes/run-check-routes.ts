import { stat } from "node:fs/promises";
import { RUN_FILES } from "@svc/core";
import type { FastifyInstance } from "fastify";
import { PreflightError } from "../errors.ts";
import { locateRun, RUN_QUERY_FIELDS } from "../outputs/locate-run.ts";
import { checkRelativePath, resolveInsideRun } from "../outputs/safe-path.ts";
import { readQuery, requireParam } from "../request-input.ts";
import type { RouteContext } from "../route-context.ts";

/** spec §4.2 rule 3: the files a finished run must have when `paths` is omitted. */
export const DEFAULT_REQUIRED_PATHS = [RUN_FILES.combined, RUN_FILES.summary] as const;
const MAX_PATHS = 100;

interface FileCheck {
  path: string;
  exists: boolean;
  size: number | null;
  modified: string | null;
}

/** `GET /api/runs/check`: which required output files of a run exist. */
export function registerRunCheckRoutes(app: FastifyInstance, context: RouteContext): void {
  app.get("/api/runs/check", async (request) => {
    const query = readQuery(request.query, [...RUN_QUERY_FIELDS, "paths"]);
    const runId = requireParam(query, "runId");
    const paths =
      query.paths === undefined
        ? [...DEFAULT_REQUIRED_PATHS]
        : query.paths
            .split(",")
            .map((path) => path.trim())
            .filter((path) => path !== "");
    if (paths.length === 0) throw new PreflightError("INVALID_INPUT", "paths must name at least one path");
    if (paths.length > MAX_PATHS)
      throw new PreflightError("INVALID_INPUT", `paths may name at most ${MAX_PATHS} paths`);
    const segmentsOf = paths.map((path) => checkRelativePath("paths", path));

    let runRoot: string | null;
    try {
      runRoot = await locateRun(context.config.layout, { runId, projectId: query.projectId });
    } catch (error) {
      if (error instanceof PreflightError && error.code === "RUN_NOT_FOUND") runRoot = null;
      else throw error;
    }
    const files: FileCheck[] = [];
    for (const [index, segments] of segmentsOf.entries()) {
      const path = paths[index] ?? "";
      const missing = { path, exists: false, size: null, modified: null };
      if (runRoot === null) {
        files.push(missing);
        continue;
      }
      try {
        const info = await stat(await resolveInsideRun(runRoot, segments));
        files.push(
          info.isFile()
            ? { path, exists: true, size: info.size, modified: info.mtime.toISOString() }
            : missing,
        );
      } catch (error) {
        if (error instanceof PreflightError && error.code === "OUTPUT_NOT_FOUND") files.push(missing);
        else throw error;
      }
    }
    return { runId, runExists: runRoot !== null, allPresent: files.every((file) => file.exists), files };
  });
}
