import type { FastifyInstance } from "fastify";
import { PreflightError } from "../errors.ts";
import { DNS1123_SUBDOMAIN, findLabelSelectorError } from "../kube/label-syntax.ts";
import { readQuery, requireParam } from "../request-input.ts";
import type { RouteContext } from "../route-context.ts";

/** `GET /api/k8s/pods`: pods of a namespace, optionally of one Job or matching a label selector. */
export function registerPodRoutes(app: FastifyInstance, context: RouteContext): void {
  app.get("/api/k8s/pods", async (request) => {
    const query = readQuery(request.query, ["namespace", "jobName", "label", "context"]);
    const namespace = requireParam(query, "namespace");
    const selectors: string[] = [];
    if (query.jobName !== undefined) {
      if (query.jobName.length > 63 || !DNS1123_SUBDOMAIN.test(query.jobName))
        throw new PreflightError("INVALID_INPUT", "jobName must be a DNS-1123 name of at most 63 characters");
      // Pods of a Job carry this label (domain notes).
      selectors.push(`batch.kubernetes.io/job-name=${query.jobName}`);
    }
    if (query.label !== undefined) {
      const problem = findLabelSelectorError(query.label);
      if (problem)
        throw new PreflightError("INVALID_INPUT", `label is not a valid label selector: it ${problem}`);
      selectors.push(query.label);
    }
    if (query.context !== undefined && query.context === "")
      throw new PreflightError("INVALID_INPUT", "context must not be empty");
    context.validateNamespace(namespace);
    const kube = context.requireKube();
    context.checkNamespace(namespace);
    if (query.context !== undefined && !kube.listContexts().includes(query.context))
      throw new PreflightError(
        "KUBE_CONTEXT_UNKNOWN",
        `context "${query.context}" is not in the loaded kubeconfig`,
      );
    const selector = selectors.length > 0 ? selectors.join(",") : undefined;
    const pods = await kube.listPods(namespace, selector, query.context);
    return {
      namespace,
      context: query.context ?? null,
      selector: selector ?? null,
      pods: pods.map((pod) => ({
        name: pod.name,
        phase: pod.phase,
        startTime: pod.startTime,
        containers: pod.containers,
      })),
    };
  });
}
