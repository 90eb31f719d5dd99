import type { MeteringSidecarConfig } from "../config.ts";
import { restrictedContainerSecurityContext } from "./job-security.ts";
import type { SidecarManifest, VolumeManifest } from "./kube-gateway.ts";

const CONFIG_DIR = "/etc/ubbagent";
const STATE_DIR = "/var/lib/ubbagent";

/**
 * The metering agent as a native sidecar of a pipeline Job, configured as the job chart configures
 * its own (manifest/chart templates/job.yaml): it starts before the runner, serves it on localhost
 * for the whole run, and is stopped when the runner exits, so the Job completes. Returns the
 * sidecar, its volumes and the runner's `SVC_METERING_URL` (docs/contracts/runner-env.md).
 */
export function buildMeteringSidecar(metering: MeteringSidecarConfig): {
  sidecar: SidecarManifest;
  volumes: VolumeManifest[];
  meteringUrl: string;
} {
  const secret = (key: string) => ({ secretKeyRef: { name: metering.reportingSecret, key } });
  return {
    sidecar: {
      name: "ubbagent",
      image: metering.image,
      restartPolicy: "Always",
      env: [
        { name: "AGENT_CONFIG_FILE", value: `${CONFIG_DIR}/config.yaml` },
        { name: "AGENT_LOCAL_PORT", value: String(metering.port) },
        { name: "AGENT_STATE_DIR", value: STATE_DIR },
        { name: "AGENT_ENCODED_KEY", valueFrom: secret("reporting-key") },
        { name: "AGENT_CONSUMER_ID", valueFrom: secret("consumer-id") },
        { name: "AGENT_ENTITLEMENT_ID", valueFrom: secret("entitlement-id") },
      ],
      ports: [{ name: "metering", containerPort: metering.port, protocol: "TCP" }],
      startupProbe: {
        httpGet: { path: "/status", port: "metering" },
        periodSeconds: 2,
        failureThreshold: 30,
      },
      volumeMounts: [
        { name: "ubbagent-config", mountPath: CONFIG_DIR, readOnly: true },
        { name: "ubbagent-state", mountPath: STATE_DIR },
      ],
      resources: { requests: { cpu: "50m", memory: "64Mi" }, limits: { cpu: "200m", memory: "128Mi" } },
      securityContext: restrictedContainerSecurityContext(),
    },
    volumes: [
      { name: "ubbagent-config", configMap: { name: metering.configMap } },
      { name: "ubbagent-state", emptyDir: { sizeLimit: "64Mi" } },
    ],
    meteringUrl: `http://localhost:${metering.port}`,
  };
}
