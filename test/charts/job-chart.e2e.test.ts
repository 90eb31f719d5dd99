import assert from "node:assert/strict";
import { describe, it } from "node:test";
import {
  allContainers,
  assertRestrictedSecurity,
  type Container,
  envValue,
  podTemplateOf,
} from "../support/chart-assertions.ts";
import { checkChartVariants } from "../support/chart-variants.ts";
import { renderNotes } from "../support/notes.ts";
import {
  findObject,
  type KubeObject,
  type RenderOptions,
  renderChart,
  templateChart,
} from "../support/render.ts";

const chart = "manifest/chart";
const standard = ["values-standard.yaml"];
const deep = ["values-standard.yaml", "values-deep.yaml"];
// docs/install.md §3: the plain GKE path (no marketplace) layers values-gke.yaml on the profile.
const plainGke = ["values-standard.yaml", "values-gke.yaml"];
const runConfig = {
  "job.enabled": true,
  "config.projectId": "proj-1",
  "config.runId": "run_20260101T000000Z",
  "config.entitlementUrl": "https://entitlement.example.com",
  "workloadIdentity.cloudServiceAccount": "svc-runner@proj.iam.gserviceaccount.com",
  // spec §9 rule 2: the metering agent is pinned (a test digest; operators set their registry's).
  "ubbagent.image.digest": `sha256:${"cd".repeat(32)}`,
};

const variants = {
  standard: { chart, release: "audit", valuesFiles: standard, set: runConfig },
  deep: { chart, release: "audit", valuesFiles: deep, set: runConfig },
  cloudstore: {
    chart,
    release: "audit",
    valuesFiles: standard,
    set: { ...runConfig, "storage.type": "cloudstore", "storage.cloudstore.bucket": "audit-bucket" },
  },
  jobDisabled: {
    chart,
    release: "audit",
    valuesFiles: standard,
    set: { "config.projectId": "proj-1", "ubbagent.image.digest": runConfig["ubbagent.image.digest"] },
  },
  k8sAuth: {
    chart,
    release: "audit",
    valuesFiles: standard,
    set: {
      ...runConfig,
      "config.entitlementAuthMode": "k8s",
      "workloadIdentity.enabled": false,
      "workloadIdentity.cloudServiceAccount": "",
    },
  },
  digest: {
    chart,
    release: "audit",
    valuesFiles: standard,
    set: { ...runConfig, "image.digest": `sha256:${"ab".repeat(32)}` },
  },
  noMarketplace: {
    chart,
    release: "audit",
    valuesFiles: standard,
    set: { ...runConfig, "marketplace.enabled": false, "ubbagent.enabled": false },
  },
  // The plain GKE values file and nothing about metering: no agent image is pinned.
  plainGke: {
    chart,
    release: "audit",
    valuesFiles: plainGke,
    set: { ...runConfig, "ubbagent.image.digest": "" },
  },
  // docs/install.md's first path, infrastructure only: the values files and no --set at all.
  plainGkeInfrastructure: { chart, release: "audit", namespace: "audit", valuesFiles: plainGke },
  sharded: {
    chart,
    release: "audit",
    valuesFiles: standard,
    set: { ...runConfig, "job.shards": 3, "storage.pvc.accessMode": "ReadWriteMany" },
  },
  longName: {
    chart,
    release: `a${"b".repeat(52)}`,
    valuesFiles: standard,
    set: runConfig,
  },
} satisfies Record<string, RenderOptions>;

type Variant = keyof typeof variants;
/** Each variant rendered, once the suite's `before` hook has run. */
let rendered: Record<Variant, KubeObject[]>;

function job(variant: Variant): KubeObject {
  return findObject(rendered[variant], "Job", variants[variant].release);
}

function runner(variant: Variant): Container {
  const container = podTemplateOf(job(variant)).spec.containers.find((c) => c.name === "runner");
  assert.ok(container, "no runner container");
  return container;
}

function runnerEnv(variant: Variant): Record<string, string> {
  const config = findObject(rendered[variant], "ConfigMap", `${variants[variant].release}-config`);
  return config.data as Record<string, string>;
}

describe("job chart (manifest/chart)", () => {
  rendered = checkChartVariants(variants);

  it("passes every config value to the runner as its documented environment variable", () => {
    const job = findObject(rendered.standard, "Job", "audit");
    assert.deepEqual(runner("standard").envFrom, [{ configMapRef: { name: "audit-config" } }]);
    assert.ok(podTemplateOf(job).metadata.annotations?.["checksum/config"], "no config checksum on the pod");
    assert.deepEqual(runnerEnv("standard"), {
      SVC_PROJECT_ID: "proj-1",
      SVC_RUN_ID: "run_20260101T000000Z",
      SVC_RUN_MODE: "standard",
      SVC_MODULE_ID: "computational",
      SVC_INPUT_ROOT: "/data/input",
      SVC_OUTPUT_ROOT: "/data/output",
      SVC_ENTITLEMENT_URL: "https://entitlement.example.com",
      SVC_ENTITLEMENT_AUTH_MODE: "cloud",
      SVC_ENTITLEMENT_AUDIENCE: "https://entitlement.example.com",
      SVC_ENTITLEMENT_TIMEOUT_SEC: "20",
      SVC_CATEGORY_PRESET: "auto",
      SVC_LOG_FORMAT: "json",
      SVC_DOCKING_MAX_COMPOUNDS: "500",
      SVC_IMAGE_REFERENCE: "us-docker.pkg.dev/svc-public/svc/svc-runner:1.0.0",
      SVC_METERING_URL: "http://localhost:4567",
      SVC_METRIC_NAME_STANDARD: "standard_audit_run",
      SVC_METRIC_NAME_DEEP: "deep_audit_run",
    });
  });

  it("passes region, location, audience and timeout overrides through", async () => {
    const objects = await renderChart({
      ...variants.standard,
      set: {
        ...runConfig,
        "config.cloudRegion": "europe-west4",
        "config.cloudLocation": "europe-west4-a",
        "config.entitlementAudience": "https://aud.example.com",
        "config.entitlementTimeoutSec": 45,
        "ubbagent.metricName": "override_metric",
      },
    });
    const env = findObject(objects, "ConfigMap", "audit-config").data as Record<string, string>;
    assert.equal(env.SVC_CLOUD_REGION, "europe-west4");
    assert.equal(env.SVC_CLOUD_LOCATION, "europe-west4-a");
    assert.equal(env.SVC_ENTITLEMENT_AUDIENCE, "https://aud.example.com");
    assert.equal(env.SVC_ENTITLEMENT_TIMEOUT_SEC, "45");
    assert.equal(env.SVC_METRIC_NAME, "override_metric");
  });

  it("runs the metering agent as a native sidecar fed by the reporting secret", () => {
    const spec = podTemplateOf(job("standard")).spec;
    assert.equal(spec.restartPolicy, "Never");
    const sidecar = spec.initContainers?.find((c) => c.name === "ubbagent");
    assert.ok(sidecar, "no ubbagent init container");
    assert.equal(sidecar.restartPolicy, "Always", "the sidecar must be native so the Job can complete");
    const fromSecret = Object.fromEntries(
      (sidecar.env ?? [])
        .filter((e) => e.valueFrom?.secretKeyRef)
        .map((e) => [e.valueFrom?.secretKeyRef?.key, e.valueFrom?.secretKeyRef?.name]),
    );
    assert.deepEqual(fromSecret, {
      "consumer-id": "svc-reporting-secret",
      "entitlement-id": "svc-reporting-secret",
      "reporting-key": "svc-reporting-secret",
    });
    assert.equal(envValue(sidecar, "AGENT_LOCAL_PORT"), "4567");
    assert.equal(sidecar.startupProbe?.httpGet?.path, "/status");
    const agentConfig = findObject(rendered.standard, "ConfigMap", "audit-ubbagent").data as Record<
      string,
      string
    >;
    assert.match(agentConfig["config.yaml"] ?? "", /- name: standard_audit_run[\s\S]*- name: deep_audit_run/);
  });

  it("leaves the sidecar out only outside marketplace deployments", () => {
    const spec = podTemplateOf(job("noMarketplace")).spec;
    assert.equal(spec.initContainers, undefined);
    assert.equal(runnerEnv("noMarketplace").SVC_METERING_URL, undefined);
    assert.equal(
      rendered.noMarketplace.find((o) => o.metadata.name === "audit-ubbagent"),
      undefined,
    );
  });

  it("renders the plain GKE values file with no marketplace object: no metering sidecar, agent config or reporting secret", () => {
    for (const variant of ["plainGke", "plainGkeInfrastructure"] as const) {
      const objects = rendered[variant];
      assert.equal(
        objects.find((o) => o.metadata.name.endsWith("-ubbagent")),
        undefined,
        variant,
      );
      assert.doesNotMatch(JSON.stringify(objects), /ubbagent|svc-reporting-secret|SVC_METERING/, variant);
    }
    assert.deepEqual(rendered.plainGkeInfrastructure.map((o) => o.kind).sort(), [
      "ConfigMap",
      "PersistentVolumeClaim",
      "ServiceAccount",
    ]);
    const spec = podTemplateOf(job("plainGke")).spec;
    assert.equal(spec.initContainers, undefined);
    assert.deepEqual(
      spec.containers.map((c) => c.name),
      ["runner"],
    );
  });

  it("runs every container under the restricted security context with writable volumes", () => {
    for (const variant of ["standard", "deep", "cloudstore", "k8sAuth"] as const) {
      assertRestrictedSecurity(podTemplateOf(job(variant)).spec, variant);
    }
    const volumes = podTemplateOf(job("standard")).spec.volumes ?? [];
    assert.ok(
      volumes.some((v) => v.name === "tmp" && v.emptyDir),
      "no emptyDir for /tmp",
    );
    const sidecar = podTemplateOf(job("standard")).spec.initContainers?.[0];
    assert.ok(
      sidecar?.volumeMounts?.some((m) => m.mountPath === "/var/lib/ubbagent"),
      "agent state not writable",
    );
  });

  it("annotates the service account for workload identity in cloud auth mode", () => {
    const account = findObject(rendered.standard, "ServiceAccount", "audit");
    assert.equal(
      account.metadata.annotations?.["iam.gke.io/gcp-service-account"],
      "svc-runner@proj.iam.gserviceaccount.com",
    );
    assert.equal(podTemplateOf(job("standard")).spec.serviceAccountName, "audit");
    assert.ok(!JSON.stringify(job("standard")).includes("serviceAccountToken"), "cloud mode mounts no token");
  });

  it("mounts a projected service account token for the entitlement audience in k8s auth mode", () => {
    const spec = podTemplateOf(job("k8sAuth")).spec;
    const volume = spec.volumes?.find((v) => v.name === "svc-token") as
      | { projected: { sources: { serviceAccountToken: { audience: string; path: string } }[] } }
      | undefined;
    assert.ok(volume, "no projected token volume");
    assert.deepEqual(
      volume.projected.sources[0]?.serviceAccountToken.audience,
      "https://entitlement.example.com",
    );
    assert.equal(volume.projected.sources[0]?.serviceAccountToken.path, "token");
    assert.ok(runner("k8sAuth").volumeMounts?.some((m) => m.name === "svc-token" && m.readOnly));
    assert.equal(runnerEnv("k8sAuth").SVC_K8S_TOKEN_FILE, "/var/run/secrets/svc/token");
    assert.equal(runnerEnv("k8sAuth").SVC_ENTITLEMENT_AUTH_MODE, "k8s");
    const account = findObject(rendered.k8sAuth, "ServiceAccount", "audit");
    assert.equal(account.metadata.annotations?.["iam.gke.io/gcp-service-account"], undefined);
  });

  it("keeps the claim <release>-data on uninstall and sizes it per profile", () => {
    const claim = findObject(rendered.standard, "PersistentVolumeClaim", "audit-data");
    assert.equal(claim.metadata.annotations?.["helm.sh/resource-policy"], "keep");
    const spec = claim.spec as { resources: { requests: { storage: string } }; accessModes: string[] };
    assert.equal(spec.resources.requests.storage, "50Gi");
    assert.deepEqual(spec.accessModes, ["ReadWriteOnce"]);
    const deepClaim = findObject(rendered.deep, "PersistentVolumeClaim", "audit-data");
    assert.equal((deepClaim.spec as typeof spec).resources.requests.storage, "200Gi");
    const volumes = podTemplateOf(job("standard")).spec.volumes ?? [];
    assert.deepEqual(
      volumes.find((v) => v.name === "data"),
      { name: "data", persistentVolumeClaim: { claimName: "audit-data" } },
    );
  });

  it("drops the keep policy only when asked", async () => {
    const objects = await renderChart({
      ...variants.jobDisabled,
      set: { ...variants.jobDisabled.set, "storage.pvc.keep": false },
    });
    const claim = findObject(objects, "PersistentVolumeClaim", "audit-data");
    assert.equal(claim.metadata.annotations?.["helm.sh/resource-policy"], undefined);
  });

  it("uses the GPU-tagged image, Deep resources, one GPU, toleration and node selector only in deep", () => {
    const deepRunner = runner("deep");
    assert.equal(deepRunner.image, "us-docker.pkg.dev/svc-public/svc/svc-runner:1.0.0-gpu");
    assert.deepEqual(deepRunner.resources, {
      requests: { cpu: "4", memory: "32Gi" },
      limits: { cpu: "8", memory: "64Gi", "nvidia.com/gpu": 1 },
    });
    const spec = podTemplateOf(job("deep")).spec;
    assert.deepEqual(spec.nodeSelector, { "cloud.google.com/gke-accelerator": "nvidia-tesla-t4" });
    assert.deepEqual(spec.tolerations, [{ key: "nvidia.com/gpu", operator: "Exists", effect: "NoSchedule" }]);
    assert.equal(runnerEnv("deep").SVC_RUN_MODE, "deep");

    const standardRunner = runner("standard");
    assert.equal(standardRunner.image, "us-docker.pkg.dev/svc-public/svc/svc-runner:1.0.0");
    assert.deepEqual(standardRunner.resources, {
      requests: { cpu: "2", memory: "8Gi" },
      limits: { cpu: "4", memory: "16Gi" },
    });
    assert.ok(!JSON.stringify(job("standard")).includes("nvidia.com/gpu"), "GPU in the standard profile");
    assert.equal(podTemplateOf(job("standard")).spec.nodeSelector, undefined);
  });

  it("pins the runner image by digest when one is given", () => {
    const digest = `sha256:${"ab".repeat(32)}`;
    assert.equal(runner("digest").image, `us-docker.pkg.dev/svc-public/svc/svc-runner@${digest}`);
    assert.equal(runnerEnv("digest").SVC_IMAGE_DIGEST, digest);
  });

  it("mounts the bucket with the GCS FUSE CSI driver in cloudstore mode", () => {
    assert.equal(
      rendered.cloudstore.find((o) => o.kind === "PersistentVolumeClaim"),
      undefined,
      "no claim in cloudstore mode",
    );
    const template = podTemplateOf(job("cloudstore"));
    assert.equal(template.metadata.annotations?.["gke-gcsfuse/volumes"], "true");
    const data = template.spec.volumes?.find((v) => v.name === "data") as {
      csi: { driver: string; volumeAttributes: Record<string, string> };
    };
    assert.equal(data.csi.driver, "gcsfuse.csi.storage.gke.io");
    assert.equal(data.csi.volumeAttributes.bucketName, "audit-bucket");
    assert.equal(runnerEnv("cloudstore").SVC_INPUT_ROOT, "/data");
    assert.equal(runnerEnv("cloudstore").SVC_OUTPUT_ROOT, "/data/proj-1/results");
    assert.equal(podTemplateOf(job("standard")).metadata.annotations?.["gke-gcsfuse/volumes"], undefined);
  });

  it("makes a sharded run an Indexed Job with one pod per shard, and tells the runner the shard count", () => {
    const spec = job("sharded").spec as Record<string, unknown>;
    assert.equal(spec.completionMode, "Indexed");
    assert.equal(spec.completions, 3);
    assert.equal(spec.parallelism, 3);
    assert.equal(runnerEnv("sharded").SVC_SHARDS, "3");
    assert.equal((job("standard").spec as Record<string, unknown>).completionMode, undefined);
    assert.equal(runnerEnv("standard").SVC_SHARDS, undefined);
  });

  it("installs only the infrastructure when job.enabled=false", () => {
    const kinds = rendered.jobDisabled.map((o) => `${o.kind}/${o.metadata.name}`).sort();
    assert.deepEqual(kinds, [
      "ConfigMap/audit-config",
      "ConfigMap/audit-ubbagent",
      "PersistentVolumeClaim/audit-data",
      "ServiceAccount/audit",
    ]);
  });

  it("names the Job after the release and keeps long names within 63 characters", () => {
    const release = variants.longName.release;
    const names = rendered.longName.map((o) => o.metadata.name);
    assert.ok(names.includes(release), "the Job carries the release name");
    assert.ok(names.some((n) => n.endsWith("-data") && n.length <= 63));
    for (const name of names) assert.ok(name.length <= 63 && !name.endsWith("-"), name);
  });

  it("gives every container a name and image", () => {
    for (const container of allContainers(podTemplateOf(job("deep")).spec)) {
      assert.ok(container.name && container.image);
    }
  });
});

describe("job chart refuses unsupported configurations with a clear message", () => {
  const failing: { name: string; set: Record<string, string | number | boolean>; message: RegExp }[] = [
    {
      name: "a blank reporting secret in a marketplace deployment",
      set: { ...runConfig, "marketplace.reportingSecret": "" },
      message: /marketplace\.reportingSecret must name the reporting secret/,
    },
    {
      name: "the metering agent disabled in a marketplace deployment",
      set: { ...runConfig, "ubbagent.enabled": false },
      message: /ubbagent\.enabled=false is not supported in a marketplace deployment/,
    },
    {
      name: "cloudstore without a bucket",
      set: { "storage.type": "cloudstore" },
      message: /storage\.type=cloudstore requires storage\.cloudstore\.bucket/,
    },
    {
      name: "a Job without project id, run id and entitlement URL",
      set: { "job.enabled": true, "workloadIdentity.cloudServiceAccount": "sa@p.iam.gserviceaccount.com" },
      message: /job\.enabled=true requires config\.projectId, config\.runId, config\.entitlementUrl/,
    },
    {
      name: "cloud auth without workload identity",
      set: { ...runConfig, "workloadIdentity.cloudServiceAccount": "" },
      message:
        /entitlementAuthMode=cloud requires workloadIdentity\.enabled=true and workloadIdentity\.cloudServiceAccount/,
    },
    {
      name: "shards on a ReadWriteOnce claim",
      set: { ...runConfig, "job.shards": 2 },
      message:
        /job\.shards=2 needs storage every pod can mount at once: a ReadWriteOnce claim attaches to one node only/,
    },
    {
      name: "an unknown run mode (values schema)",
      set: { ...runConfig, "config.runMode": "turbo" },
      message: /runMode/,
    },
    {
      name: "a misspelt value (values schema)",
      set: { ...runConfig, "config.projectID": "x" },
      message: /Additional property projectID is not allowed/,
    },
  ];
  for (const { name, set, message } of failing) {
    it(`fails on ${name}`, async () => {
      const result = await templateChart({ chart, valuesFiles: standard, set });
      assert.notEqual(result.code, 0, "the render should have failed");
      assert.match(result.stderr, message);
    });
  }

  it("reports every problem of one render together", async () => {
    const result = await templateChart({
      chart,
      valuesFiles: standard,
      set: { "job.enabled": true, "storage.type": "cloudstore", "marketplace.reportingSecret": "" },
    });
    assert.notEqual(result.code, 0);
    for (const fragment of ["reportingSecret", "cloudstore.bucket", "config.projectId", "workloadIdentity"]) {
      assert.ok(result.stderr.includes(fragment), `missing ${fragment} in:\n${result.stderr}`);
    }
  });
});

describe("job chart NOTES", () => {
  it("tells how to watch the Job and fetch the outputs", async () => {
    const notes = await renderNotes(variants.standard);
    assert.match(notes, /kubectl get job audit --namespace audit --watch/);
    assert.match(notes, /kubectl logs job\/audit --namespace audit --all-containers --timestamps --follow/);
    assert.match(
      notes,
      /tools\/fetch_outputs\.sh --namespace audit --release audit --run-id run_20260101T000000Z --dest \.\/outputs/,
    );
  });

  it("tells the next steps after an infrastructure-only install", async () => {
    const notes = await renderNotes(variants.jobDisabled);
    assert.match(notes, /Infrastructure only \(job\.enabled=false\)/);
    assert.match(notes, /tools\/stage_inputs\.sh --namespace audit --release audit/);
  });
});

describe("job chart pins the metering agent and co-locates with preflight", () => {
  it("refuses the marketplace path on its defaults, naming the metering image to pin and the plain GKE way out", async () => {
    const result = await templateChart({
      chart,
      release: "audit",
      namespace: "audit",
      valuesFiles: standard,
    });
    assert.notEqual(result.code, 0);
    assert.match(
      result.stderr,
      /pin the metering agent image gcr\.io\/cloud-marketplace-tools\/metering\/ubbagent \(its digest: skopeo inspect docker:\/\/gcr\.io\/cloud-marketplace-tools\/metering\/ubbagent:<version>, field Digest\)/,
    );
    assert.match(result.stderr, /Not a marketplace deployment\? Add -f values-gke\.yaml/);
  });

  it("refuses an unpinned or latest ubbagent image with the reason", async () => {
    for (const tag of ["", "latest"]) {
      const result = await templateChart({
        chart,
        release: "audit",
        valuesFiles: standard,
        set: { ...runConfig, "ubbagent.image.digest": "", "ubbagent.image.tag": tag },
      });
      assert.notEqual(result.code, 0, tag);
      assert.match(result.stderr, /ubbagent\.enabled=true requires ubbagent\.image\.digest/);
    }
    const pinned = await renderChart({
      chart,
      release: "audit",
      valuesFiles: standard,
      set: { ...runConfig, "ubbagent.image.digest": "", "ubbagent.image.tag": "0.2.1" },
    });
    const sidecar = podTemplateOf(findObject(pinned, "Job", "audit")).spec.initContainers?.[0];
    assert.equal(sidecar?.image, "gcr.io/cloud-marketplace-tools/metering/ubbagent:0.2.1");
  });

  it("schedules the Job on the preflight pod's node when they share a ReadWriteOnce claim", async () => {
    const affinityOf = async (set: Record<string, string | boolean>) =>
      (
        podTemplateOf(
          findObject(
            await renderChart({
              chart,
              release: "audit",
              valuesFiles: standard,
              set: { ...runConfig, ...set },
            }),
            "Job",
            "audit",
          ),
        ).spec as { affinity?: unknown }
      ).affinity;
    assert.deepEqual(await affinityOf({ "storage.pvc.coLocateWithPreflight": "svc-preflight" }), {
      podAffinity: {
        requiredDuringSchedulingIgnoredDuringExecution: [
          {
            labelSelector: {
              matchLabels: {
                "app.kubernetes.io/instance": "svc-preflight",
                "app.kubernetes.io/name": "svc-preflight",
              },
            },
            topologyKey: "kubernetes.io/hostname",
          },
        ],
      },
    });
    const rwx = {
      "storage.pvc.coLocateWithPreflight": "svc-preflight",
      "storage.pvc.accessMode": "ReadWriteMany",
    };
    assert.equal(await affinityOf(rwx), undefined);
  });
});
