import type { FastifyInstance } from "fastify";
import { PreflightError } from "../errors.ts";
import type { RouteContext } from "../route-context.ts";

// An open endpoint that calls the Kubernetes API: one call per window at most, whoever asks.
const CHECK_WINDOW_MS = 5_000;
const READY_SELECTOR = "app.kubernetes.io/managed-by=svc-preflight";

/**
 * `GET /api/ready`: whether the service can reach Kubernetes with its own identity, proven by one
 * call it needs for its work (list Jobs in its namespace, allowed by its Role). 200 when it can;
 * otherwise the error of that call (503 KUBERNETES_NOT_CONFIGURED, 403 KUBE_FORBIDDEN, 502
 * KUBE_UNAVAILABLE, ...) with the reason. apptest/tester/tester.sh fails on anything but 200.
 */
export function registerReadyRoutes(app: FastifyInstance, context: RouteContext): void {
  const { config } = context;
  let last: { at: number; outcome: Promise<{ namespace: string }> } | undefined;

  const check = async (): Promise<{ namespace: string }> => {
    const kube = context.requireKube();
    const namespace = config.ownNamespace ?? config.allowedNamespaces[0];
    if (namespace === undefined)
      throw new PreflightError(
        "KUBERNETES_NOT_CONFIGURED",
        "no namespace to check: set POD_NAMESPACE or SVC_ALLOWED_NAMESPACES",
      );
    await kube.listJobs(namespace, READY_SELECTOR);
    return { namespace };
  };

  app.get("/api/ready", async () => {
    const now = context.clock().getTime();
    if (last === undefined || now - last.at >= CHECK_WINDOW_MS) {
      const outcome = check();
      outcome.catch(() => undefined); // observed by every request that awaits it
      last = { at: now, outcome };
    }
    const { namespace } = await last.outcome;
    return {
      status: "ready",
      kubernetes: {
        reachable: true,
        source: config.kube.mode,
        inCluster: context.kube?.inCluster ?? false,
        namespace,
      },
    };
  });
}
