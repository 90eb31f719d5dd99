import type { OutgoingHttpHeaders } from "node:http";
import type { FastifyInstance } from "fastify";
import { prepareDownload } from "../outputs/download.ts";
import { listOutputs } from "../outputs/list-outputs.ts";
import { locateRun, RUN_QUERY_FIELDS } from "../outputs/locate-run.ts";
import { streamReproPack } from "../outputs/repro-pack-archive.ts";
import { readQuery, requireParam } from "../request-input.ts";
import type { RouteContext } from "../route-context.ts";

function headerValue(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

/** Output listing, single-file download and the repro pack archive (spec §4.2, §2.3). */
export function registerOutputRoutes(app: FastifyInstance, context: RouteContext): void {
  const { config } = context;

  app.get("/api/outputs/list", async (request) => {
    const query = readQuery(request.query, [...RUN_QUERY_FIELDS, "prefix"]);
    const runId = requireParam(query, "runId");
    const runRoot = await locateRun(config.layout, { runId, projectId: query.projectId });
    const listing = await listOutputs(runRoot, query.prefix === undefined ? {} : { prefix: query.prefix });
    return { runId, ...listing };
  });

  app.get("/api/outputs/download", async (request, reply) => {
    const query = readQuery(request.query, [...RUN_QUERY_FIELDS, "path"]);
    const runId = requireParam(query, "runId");
    const path = requireParam(query, "path");
    const runRoot = await locateRun(config.layout, { runId, projectId: query.projectId });
    const ifRange = headerValue(request.headers["if-range"]);
    const ifNoneMatch = headerValue(request.headers["if-none-match"]);
    const download = await prepareDownload(runRoot, path, {
      ...(request.headers.range !== undefined ? { range: request.headers.range } : {}),
      ...(ifRange !== undefined ? { ifRange } : {}),
      ...(ifNoneMatch !== undefined ? { ifNoneMatch } : {}),
    });
    reply.code(download.status).headers(download.headers);
    if (download.writeBody === null) return reply.send();
    if (request.method === "HEAD") {
      await download.discard();
      return reply.send();
    }
    // The body is written straight to the socket from reused buffers (see writeFileRange);
    // headers already set on the reply (x-request-id) go out with ours.
    reply.hijack();
    reply.raw.writeHead(download.status, reply.getHeaders() as OutgoingHttpHeaders);
    try {
      await download.writeBody(reply.raw);
      reply.raw.end();
    } catch (error) {
      // Headers are gone: all that is left is to cut the connection so the client sees a short body.
      request.log.warn({ err: error, path }, "download interrupted");
      reply.raw.destroy();
    }
  });

  app.get("/api/outputs/repro-pack.tgz", async (request, reply) => {
    const query = readQuery(request.query, RUN_QUERY_FIELDS);
    const runId = requireParam(query, "runId");
    const runRoot = await locateRun(config.layout, { runId, projectId: query.projectId });
    const archive = await streamReproPack(runRoot);
    reply
      .code(200)
      .header("content-type", "application/gzip")
      .header("content-disposition", `attachment; filename="${runId}-repro_pack.tgz"`)
      .header("cache-control", "private, no-cache")
      .header("x-content-type-options", "nosniff");
    if (request.method === "HEAD") {
      archive.destroy();
      return reply.send();
    }
    return reply.send(archive);
  });
}
