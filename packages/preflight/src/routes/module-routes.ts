import type { FastifyInstance } from "fastify";
import { z } from "zod";
import { PreflightError } from "../errors.ts";
import { smokeJobName } from "../kube/job-names.ts";
import type { KubeGateway } from "../kube/kube-gateway.ts";
import { buildSmokeJob, smokeJobSelector } from "../kube/smoke-job.ts";
import { deriveSmokeVerification, pickNewestJob } from "../kube/smoke-status.ts";
import { buildModuleRegistry, COMPUTATIONAL_MODULE_ID } from "../modules/module-registry.ts";
import { parseBody, readQuery, requireParam } from "../request-input.ts";
import type { RouteContext } from "../route-context.ts";

export const smokeBodySchema = z.object({ namespace: z.string().min(1) });
/** Finished smoke Jobs kept for history; older ones are deleted when a new smoke test starts. */
const SMOKE_HISTORY = 3;

function isFinished(job: { conditions: { type: string; status: string }[] }): boolean {
  return job.conditions.some(
    (condition) =>
      (condition.type === "Complete" || condition.type === "Failed") && condition.status === "True",
  );
}

// Best effort: pruning is housekeeping (ttlSecondsAfterFinished does it too); it must not fail a launch.
async function pruneOldSmokeJobs(
  kube: KubeGateway,
  namespace: string,
  log: (msg: string) => void,
): Promise<void> {
  try {
    const jobs = await kube.listJobs(namespace, smokeJobSelector(COMPUTATIONAL_MODULE_ID));
    const byAge: typeof jobs = [];
    let rest = [...jobs];
    while (rest.length > 0) {
      const newest = pickNewestJob(rest);
      if (!newest) break;
      byAge.push(newest);
      rest = rest.filter((job) => job !== newest);
    }
    for (const job of byAge.slice(SMOKE_HISTORY).filter(isFinished))
      await kube.deleteJob(namespace, job.name);
  } catch (error) {
    log(`smoke history pruning skipped: ${(error as Error).message}`);
  }
}

/** `POST /api/modules/computational/smoke` and `GET /api/modules/computational/status` (spec §4.2). */
export function registerModuleRoutes(app: FastifyInstance, context: RouteContext): void {
  const { config } = context;
  const module = buildModuleRegistry(config).find((entry) => entry.id === COMPUTATIONAL_MODULE_ID);
  if (!module) throw new Error("the module registry lacks computational");

  app.post("/api/modules/computational/smoke", async (request, reply) => {
    const { namespace } = parseBody(smokeBodySchema, request.body);
    context.validateNamespace(namespace);
    if (!module.image)
      throw new PreflightError(
        "RUNNER_NOT_CONFIGURED",
        "the smoke test needs SVC_RUNNER_IMAGE, which is not set",
      );
    const kube = context.requireKube();
    context.checkNamespace(namespace);
    const job = buildSmokeJob(config, {
      name: smokeJobName(module.id, context.clock()),
      namespace,
      module: { ...module, image: module.image },
    });
    const created = await kube.createJob(job);
    await pruneOldSmokeJobs(kube, namespace, (msg) => request.log.warn(msg));
    return reply.code(201).send({
      jobName: created.name,
      namespace,
      module: module.id,
      image: module.image,
      command: module.smokeArgv,
      activeDeadlineSeconds: config.smokeDeadlineSeconds,
    });
  });

  app.get("/api/modules/computational/status", async (request) => {
    const namespace = requireParam(readQuery(request.query, ["namespace"]), "namespace");
    context.validateNamespace(namespace);
    const kube = context.requireKube();
    context.checkNamespace(namespace);
    const jobs = await kube.listJobs(namespace, smokeJobSelector(module.id));
    const newest = pickNewestJob(jobs);
    // Pods only matter while the Job is unfinished: they carry the waiting reason (ImagePullBackOff).
    const pods =
      newest && !isFinished(newest)
        ? await kube.listPods(namespace, `batch.kubernetes.io/job-name=${newest.name}`)
        : [];
    return {
      module: module.id,
      namespace,
      runnerImage: config.runnerImage,
      runnerImageGpu: config.runnerImageGpu,
      runnerServiceAccount: config.runnerServiceAccount,
      smokeCommand: module.smokeCommand,
      verification: deriveSmokeVerification(jobs, pods),
    };
  });
}
