import { defaultRunId, projectIdSchema, runIdSchema } from "@svc/core";
import type { FastifyInstance } from "fastify";
import { z } from "zod";
import { PreflightError } from "../errors.ts";
import { pipelineJobName } from "../kube/job-names.ts";
import { buildPipelineJob, type PipelineRunRequest, wantsGpu } from "../kube/pipeline-job.ts";
import { buildModuleRegistry, COMPUTATIONAL_MODULE_ID } from "../modules/module-registry.ts";
import { missingPipelineSettings } from "../pipeline-readiness.ts";
import { parseBody } from "../request-input.ts";
import type { RouteContext } from "../route-context.ts";

// spec §4.2 POST /api/pipeline/run body; unknown fields are refused so a typo such as
// `gpu_docking` cannot silently launch a run without the GPU the caller asked for.
export const pipelineBodySchema = z.strictObject({
  projectId: projectIdSchema,
  namespace: z.string().min(1),
  runId: runIdSchema.optional(),
  moduleId: z.string().min(1).default(COMPUTATIONAL_MODULE_ID),
  mode: z.enum(["standard", "deep"]).default("standard"),
  gpuDocking: z.boolean().default(false),
  // Issue 10 item 9: pods of one Indexed Job sharing the run (one charge, one seal). The claim
  // must be mountable by every pod at once (ReadWriteMany); see packages/runner README.
  shards: z.number().int().min(1).max(100).default(1),
});

/** `POST /api/pipeline/run`: launches the runner as a Job for one run id. */
export function registerPipelineRoutes(app: FastifyInstance, context: RouteContext): void {
  const { config } = context;
  const knownModules = buildModuleRegistry(config).map((entry) => entry.id);

  app.post("/api/pipeline/run", async (request, reply) => {
    const body = parseBody(pipelineBodySchema, request.body);
    if (!knownModules.includes(body.moduleId))
      throw new PreflightError(
        "INVALID_BODY",
        `moduleId: unknown module "${body.moduleId}"; known: ${knownModules.join(", ")}`,
      );
    context.validateNamespace(body.namespace);
    // The pods of a sharded run write one run folder at the same time, on any node; a
    // ReadWriteOnce claim attaches to one node (issue 10 item 9, as the job chart refuses it). The
    // chart sets SVC_CO_LOCATE_WITH exactly when the claim is ReadWriteOnce
    // (chart/preflight/templates/deployment.yaml), so that is how this server knows.
    if (body.shards > 1 && config.layout.kind === "pvc" && Object.keys(config.coLocateWith).length > 0)
      throw new PreflightError(
        "SHARDS_NEED_SHARED_STORAGE",
        `shards: ${body.shards} pods cannot share the ReadWriteOnce claim ${config.dataClaim ?? "<job-release>-data"} (it attaches to one node); launch with shards 1, or install with storage.pvc.accessMode=ReadWriteMany or cloudstore`,
      );
    const run: PipelineRunRequest = { ...body, runId: body.runId ?? defaultRunId(context.clock()) };
    const missing = missingPipelineSettings(config);
    if (wantsGpu(run) && config.runnerImage && !config.runnerImageGpu) missing.push("SVC_RUNNER_IMAGE_GPU");
    if (missing.length > 0)
      throw new PreflightError(
        "RUNNER_NOT_CONFIGURED",
        `pipeline launch needs ${missing.join(", ")}, not set on the server (spec §4.2 rule 1; GET /api/config lists them)`,
      );
    const kube = context.requireKube();
    context.checkNamespace(body.namespace);
    // A claim is namespaced: a Job elsewhere could not mount it and would hang in ContainerCreating
    // (docs/contracts/storage-layout.md). A bucket has no namespace.
    if (
      config.layout.kind === "pvc" &&
      config.ownNamespace !== null &&
      body.namespace !== config.ownNamespace
    )
      throw new PreflightError(
        "INVALID_BODY",
        `namespace: runs read and write the claim ${config.dataClaim ?? "<job-release>-data"} in namespace ${config.ownNamespace}; launch them there (other namespaces are open only in cloudstore mode)`,
      );
    const job = buildPipelineJob(config, run, {
      name: pipelineJobName(run.runId),
      runnerImage: config.runnerImage ?? "",
      runnerImageGpu: config.runnerImageGpu ?? "",
      appFullname: config.appFullname ?? "",
      dataClaim: config.dataClaim ?? "",
    });
    try {
      await kube.createJob(job);
    } catch (error) {
      // The Job name is a function of the run id, so AlreadyExists means this run id was launched.
      if (error instanceof PreflightError && error.code === "KUBE_CONFLICT")
        throw new PreflightError(
          "RUN_ALREADY_EXISTS",
          `a Job for run id ${run.runId} already exists (${job.metadata.name})`,
        );
      throw error;
    }
    return reply.code(201).send({
      jobName: job.metadata.name,
      runId: run.runId,
      namespace: run.namespace,
      projectId: run.projectId,
      moduleId: run.moduleId,
      mode: run.mode,
      gpuDocking: run.gpuDocking,
      shards: run.shards,
      gpu: wantsGpu(run),
      image: job.spec.template.spec.containers[0]?.image,
    });
  });
}
