import type { PreflightConfig } from "../config.ts";
import type { ModuleEntry } from "../modules/module-registry.ts";
import {
  restrictedContainerSecurityContext,
  restrictedPodSecurityContext,
  TMP_MOUNT,
  TMP_VOLUME,
} from "./job-security.ts";
import type { JobManifest } from "./kube-gateway.ts";

/** Labels that identify smoke Jobs of a module; the status endpoint selects on exactly these. */
export function smokeJobLabels(moduleId: string): Record<string, string> {
  return {
    "app.kubernetes.io/name": "svc-runner",
    "app.kubernetes.io/component": "smoke",
    "app.kubernetes.io/managed-by": "svc-preflight",
    "svc.module": moduleId,
  };
}

/** The label selector of {@link smokeJobLabels}. */
export function smokeJobSelector(moduleId: string): string {
  return `app.kubernetes.io/component=smoke,svc.module=${moduleId}`;
}

/** Inputs of {@link buildSmokeJob}. */
export interface SmokeJobOptions {
  name: string;
  namespace: string;
  module: ModuleEntry & { image: string };
}

/**
 * The smoke Job of spec §4.2: runs the registry's smoke command in the runner image once
 * (`backoffLimit: 0`), bounded by `activeDeadlineSeconds` and cleaned up by
 * `ttlSecondsAfterFinished`. It mounts no data and starts no scientific run.
 */
export function buildSmokeJob(config: PreflightConfig, options: SmokeJobOptions): JobManifest {
  const labels = {
    ...smokeJobLabels(options.module.id),
    ...(config.appFullname ? { "app.kubernetes.io/instance": config.appFullname } : {}),
  };
  return {
    apiVersion: "batch/v1",
    kind: "Job",
    metadata: { name: options.name, namespace: options.namespace, labels },
    spec: {
      backoffLimit: 0,
      activeDeadlineSeconds: config.smokeDeadlineSeconds,
      ttlSecondsAfterFinished: config.jobTtlSeconds,
      template: {
        metadata: { labels },
        spec: {
          restartPolicy: "Never",
          ...(config.runnerServiceAccount ? { serviceAccountName: config.runnerServiceAccount } : {}),
          automountServiceAccountToken: false,
          securityContext: restrictedPodSecurityContext(config.runAsUser, false),
          containers: [
            {
              name: "runner",
              image: options.module.image,
              command: [...options.module.smokeArgv],
              resources: {
                requests: { cpu: "100m", memory: "128Mi" },
                limits: { cpu: "500m", memory: "512Mi" },
              },
              securityContext: restrictedContainerSecurityContext(),
              volumeMounts: [TMP_MOUNT],
            },
          ],
          volumes: [TMP_VOLUME],
        },
      },
    },
  };
}
