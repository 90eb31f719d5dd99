import type { FastifyInstance } from "fastify";
import { buildModuleRegistry } from "../modules/module-registry.ts";
import { missingPipelineSettings } from "../pipeline-readiness.ts";
import type { RouteContext } from "../route-context.ts";

const AUTH_DISABLED_WARNING =
  "AUTH DISABLED: SVC_AUTH_DISABLED=true, every endpoint (Job launch, pod listing, output download) is open to anyone who can reach this service";

/** The three open endpoints (spec §5.2 rule 2): health, config, module registry. */
export function registerProbeRoutes(app: FastifyInstance, context: RouteContext): void {
  const { config } = context;

  app.get("/api/health", async () => ({ status: "ok", service: "svc-preflight", version: config.version }));

  // Runtime wiring for operators; never a token, only whether auth is on.
  app.get("/api/config", async () => {
    const missing = missingPipelineSettings(config);
    return {
      service: "svc-preflight",
      version: config.version,
      inCluster: context.kube?.inCluster ?? false,
      kubernetes: {
        configured: context.kube !== null,
        source: config.kube.mode,
        ...(config.kube.mode === "none" ? { reason: config.kube.reason } : {}),
        contexts: context.kube?.listContexts() ?? [],
      },
      storage: {
        mode: config.storageMode,
        ...(config.layout.kind === "pvc"
          ? { inputRoot: config.layout.inputRoot, outputRoot: config.layout.outputRoot }
          : { bucket: config.layout.bucket, mountPath: config.layout.mountPath }),
      },
      runner: {
        image: config.runnerImage,
        imageGpu: config.runnerImageGpu,
        command: config.runnerCommand,
        serviceAccount: config.runnerServiceAccount,
        appFullname: config.appFullname,
        dataClaim: config.layout.kind === "pvc" ? config.dataClaim : null,
        coLocateWith: config.coLocateWith,
        entitlement: {
          url: config.runnerPassThroughEnv.SVC_ENTITLEMENT_URL ?? null,
          authMode: config.runnerPassThroughEnv.SVC_ENTITLEMENT_AUTH_MODE ?? "cloud",
          audience:
            config.runnerPassThroughEnv.SVC_ENTITLEMENT_AUDIENCE ??
            config.runnerPassThroughEnv.SVC_ENTITLEMENT_URL ??
            null,
        },
        gpuNodeSelector: config.gpuNodeSelector,
        pipelineLaunchReady: missing.length === 0,
        missingSettings: missing,
      },
      namespaces: { own: config.ownNamespace, allowed: config.allowedNamespaces },
      auth: config.authDisabled
        ? { enabled: false, warning: AUTH_DISABLED_WARNING }
        : { enabled: true, scheme: "Bearer" },
      warnings: config.authDisabled ? [AUTH_DISABLED_WARNING] : [],
    };
  });

  app.get("/api/modules", async () => ({
    modules: buildModuleRegistry(config).map(({ smokeArgv: _argv, ...entry }) => entry),
  }));
}
