import assert from "node:assert/strict";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, it } from "node:test";
import { startKubeApiDouble, writeKubeconfig } from "@svc/testing";
import { assertRestrictedSecurity, envValue, podTemplateOf } from "../support/chart-assertions.ts";
import { checkChartVariants, deploymentContainer } from "../support/chart-variants.ts";
import { renderNotes } from "../support/notes.ts";
import {
  findObject,
  type KubeObject,
  type RenderOptions,
  renderChart,
  templateChart,
} from "../support/render.ts";

const chart = "chart/preflight";
const release = "svc-preflight"; // spec §2.7: the default release name
const fullname = `${release}-preflight`;

// The documented install (docs/install.md §6): the job release "audit" and its entitlement service.
const installed = { jobRelease: "audit", "app.entitlementUrl": "https://entitlement.example.com" };
const variants = {
  // spec §2.7 and §8: `helm template svc-preflight ./chart/preflight` with no value at all.
  chartDefaults: { chart, release, namespace: "svc" },
  defaults: { chart, release, namespace: "svc", set: installed },
  authToken: {
    chart,
    release,
    namespace: "svc",
    set: { ...installed, "app.authToken": "operator-chosen-token" },
  },
  k8sAuth: { chart, release, namespace: "svc", set: { ...installed, "app.entitlementAuthMode": "k8s" } },
  billing: {
    chart,
    release,
    namespace: "svc",
    set: { ...installed, "billing.enabled": true, "billing.image.digest": `sha256:${"ab".repeat(32)}` },
  },
  authDisabled: { chart, release, namespace: "svc", set: { ...installed, "app.authDisabled": true } },
  cloudstore: {
    chart,
    release,
    namespace: "svc",
    set: {
      "app.entitlementUrl": "https://entitlement.example.com",
      "app.runnerServiceAccount": "audit",
      "storage.type": "cloudstore",
      "storage.cloudstore.bucket": "preflight-bucket",
    },
  },
  readWriteMany: {
    chart,
    release,
    namespace: "svc",
    set: { ...installed, "storage.pvc.accessMode": "ReadWriteMany", replicaCount: 2 },
  },
} satisfies Record<string, RenderOptions>;
type Variant = keyof typeof variants;
/** Each variant rendered, once the suite's `before` hook has run. */
let rendered: Record<Variant, KubeObject[]>;

const container = (variant: Variant) => deploymentContainer(rendered[variant], fullname);

function tokensOf(objects: KubeObject[]): unknown {
  const secret = findObject(objects, "Secret", `${fullname}-auth`);
  const data = secret.data as Record<string, string>;
  assert.deepEqual(Object.keys(data), ["K8S_API_TOKENS"]);
  return JSON.parse(Buffer.from(data.K8S_API_TOKENS ?? "", "base64").toString("utf8"));
}

describe("preflight chart (chart/preflight)", () => {
  rendered = checkChartVariants(variants);

  it("names Deployment and Service <release>-preflight, a ClusterIP on 8080", () => {
    const service = findObject(rendered.defaults, "Service", fullname);
    const spec = service.spec as { type: string; ports: { port: number; targetPort: string }[] };
    assert.equal(spec.type, "ClusterIP");
    assert.equal(spec.ports[0]?.port, 8080);
    assert.equal(spec.ports[0]?.targetPort, "http");
    findObject(rendered.defaults, "Deployment", fullname);
    assert.equal(container("defaults").ports?.[0]?.containerPort, 8080);
  });

  it("generates a token on first install: a JSON array of {token} under K8S_API_TOKENS", () => {
    const tokens = tokensOf(rendered.defaults) as { token: string }[];
    assert.equal(tokens.length, 1);
    assert.match(tokens[0]?.token ?? "", /^[A-Za-z0-9]{48}$/);
  });

  it("uses app.authToken when given", () => {
    assert.deepEqual(tokensOf(rendered.authToken), [{ token: "operator-chosen-token" }]);
  });

  it("feeds the token to the server from the secret, never as a literal", () => {
    const env = container("defaults").env ?? [];
    const tokens = env.find((e) => e.name === "K8S_API_TOKENS");
    assert.deepEqual(tokens?.valueFrom, {
      secretKeyRef: { name: `${fullname}-auth`, key: "K8S_API_TOKENS" },
    });
    assert.ok(
      !JSON.stringify(rendered.authToken.filter((o) => o.kind !== "Secret")).includes(
        "operator-chosen-token",
      ),
    );
  });

  it("restarts the pods when the secret changes (checksum annotation)", () => {
    const checksum = (variant: Variant) =>
      podTemplateOf(findObject(rendered[variant], "Deployment", fullname)).metadata.annotations?.[
        "checksum/auth"
      ];
    assert.match(checksum("authToken") ?? "", /^[0-9a-f]{64}$/);
    assert.notEqual(checksum("authToken"), checksum("defaults"));
  });

  it("sets the server environment of spec §2.7 with its defaults", () => {
    const c = container("defaults");
    assert.equal(envValue(c, "PORT"), "8080");
    assert.equal(envValue(c, "SVC_RUNNER_IMAGE"), "us-docker.pkg.dev/svc-public/svc/svc-runner:1.0.0");
    assert.equal(
      envValue(c, "SVC_RUNNER_IMAGE_GPU"),
      "us-docker.pkg.dev/svc-public/svc/svc-runner:1.0.0-gpu",
    );
    assert.equal(envValue(c, "SVC_APP_FULLNAME"), fullname);
    assert.equal(envValue(c, "SVC_OUTPUT_ROOT"), "/data/output");
    assert.equal(envValue(c, "SVC_INPUT_ROOT"), "/data/input");
    assert.equal(envValue(c, "SVC_STORAGE_MODE"), "pvc");
    assert.equal(envValue(c, "SVC_AUTH_DISABLED"), "false");
    assert.equal(envValue(c, "SVC_ALLOWED_NAMESPACES"), "svc");
    // The job chart's service account, the one workload identity is bound to.
    assert.equal(envValue(c, "SVC_RUNNER_SERVICE_ACCOUNT"), "audit");
    assert.equal(envValue(c, "SVC_ENTITLEMENT_URL"), "https://entitlement.example.com");
    assert.equal(envValue(c, "SVC_ENTITLEMENT_AUTH_MODE"), "cloud");
    assert.equal(envValue(c, "SVC_ENTITLEMENT_AUDIENCE"), "https://entitlement.example.com");
    const namespace = c.env?.find((e) => e.name === "POD_NAMESPACE");
    assert.deepEqual(namespace?.valueFrom, { fieldRef: { fieldPath: "metadata.namespace" } });
    assert.equal(c.image, "us-docker.pkg.dev/svc-public/svc/svc-preflight:1.0.0");
  });

  it("turns metering of launched Jobs on with billing.enabled: the pinned agent, the reporting secret, the job release's agent config", () => {
    const c = container("billing");
    assert.equal(
      envValue(c, "SVC_METERING_AGENT_IMAGE"),
      `gcr.io/cloud-marketplace-tools/metering/ubbagent@sha256:${"ab".repeat(32)}`,
    );
    assert.equal(envValue(c, "SVC_METERING_REPORTING_SECRET"), "svc-reporting-secret");
    assert.equal(envValue(c, "SVC_METERING_CONFIG_MAP"), "audit-ubbagent");
    assert.equal(envValue(container("defaults"), "SVC_METERING_AGENT_IMAGE"), undefined);
  });

  it("refuses billing with an unpinned metering agent, naming the value", async () => {
    const result = await templateChart({ chart, release, set: { ...installed, "billing.enabled": true } });
    assert.notEqual(result.code, 0);
    assert.match(result.stderr, /billing\.enabled=true requires billing\.image\.digest/);
  });

  it("turns auth off and selects the k8s identity when asked", () => {
    assert.equal(envValue(container("authDisabled"), "SVC_AUTH_DISABLED"), "true");
    assert.equal(envValue(container("k8sAuth"), "SVC_ENTITLEMENT_AUTH_MODE"), "k8s");
  });

  it("probes readiness and liveness on /api/health", () => {
    const c = container("defaults");
    assert.deepEqual(c.readinessProbe?.httpGet, { path: "/api/health", port: "http" });
    assert.deepEqual(c.livenessProbe?.httpGet, { path: "/api/health", port: "http" });
  });

  it("mounts the job release's claim <jobRelease>-data instead of creating one, and co-locates Jobs for ReadWriteOnce", () => {
    for (const variant of ["defaults", "readWriteMany", "cloudstore"] as const)
      assert.equal(
        rendered[variant].find((o) => o.kind === "PersistentVolumeClaim"),
        undefined,
        variant,
      );
    const data = (variant: Variant) =>
      podTemplateOf(findObject(rendered[variant], "Deployment", fullname)).spec.volumes?.find(
        (v) => v.name === "data",
      );
    assert.deepEqual(data("defaults"), { name: "data", persistentVolumeClaim: { claimName: "audit-data" } });
    assert.equal(envValue(container("defaults"), "SVC_DATA_CLAIM"), "audit-data");
    assert.equal(
      envValue(container("defaults"), "SVC_CO_LOCATE_WITH"),
      "app.kubernetes.io/instance=svc-preflight,app.kubernetes.io/name=svc-preflight",
    );
    assert.equal(envValue(container("readWriteMany"), "SVC_CO_LOCATE_WITH"), undefined);
    const strategy = (d: KubeObject) => (d.spec as { strategy?: { type: string } }).strategy?.type;
    assert.equal(strategy(findObject(rendered.defaults, "Deployment", fullname)), "Recreate");
    assert.equal(strategy(findObject(rendered.readWriteMany, "Deployment", fullname)), undefined);
  });

  it("installs on its defaults with its own 20Gi ReadWriteOnce claim <release>-data, mounted by the pod and its Jobs", () => {
    const claims = rendered.chartDefaults.filter((o) => o.kind === "PersistentVolumeClaim");
    assert.equal(claims.length, 1);
    const claim = claims[0] as KubeObject;
    assert.equal(claim.metadata.name, "svc-preflight-data");
    assert.equal(claim.metadata.annotations?.["helm.sh/resource-policy"], "keep");
    assert.deepEqual(claim.spec, {
      accessModes: ["ReadWriteOnce"],
      resources: { requests: { storage: "20Gi" } },
    });
    const pod = podTemplateOf(findObject(rendered.chartDefaults, "Deployment", fullname)).spec;
    assert.deepEqual(
      pod.volumes?.find((v) => v.name === "data"),
      { name: "data", persistentVolumeClaim: { claimName: "svc-preflight-data" } },
    );
    const c = container("chartDefaults");
    assert.deepEqual(
      c.volumeMounts?.find((m) => m.name === "data"),
      { name: "data", mountPath: "/data" },
    );
    // Launched Jobs mount the same claim and, ReadWriteOnce, run on this pod's node.
    assert.equal(envValue(c, "SVC_DATA_CLAIM"), "svc-preflight-data");
    assert.equal(
      envValue(c, "SVC_CO_LOCATE_WITH"),
      "app.kubernetes.io/instance=svc-preflight,app.kubernetes.io/name=svc-preflight",
    );
  });

  it("sizes, classes and unpins its own claim from storage.pvc.*", async () => {
    const objects = await renderChart({
      chart,
      release,
      set: {
        "storage.pvc.size": "100Gi",
        "storage.pvc.storageClassName": "premium-rwo",
        "storage.pvc.keep": false,
      },
    });
    const claim = findObject(objects, "PersistentVolumeClaim", "svc-preflight-data");
    assert.equal(claim.metadata.annotations, undefined);
    assert.deepEqual(claim.spec, {
      accessModes: ["ReadWriteOnce"],
      storageClassName: "premium-rwo",
      resources: { requests: { storage: "100Gi" } },
    });
  });

  it("mounts the bucket through the GCS FUSE CSI driver in cloudstore mode", () => {
    assert.equal(
      rendered.cloudstore.find((o) => o.kind === "PersistentVolumeClaim"),
      undefined,
    );
    const template = podTemplateOf(findObject(rendered.cloudstore, "Deployment", fullname));
    assert.equal(template.metadata.annotations?.["gke-gcsfuse/volumes"], "true");
    const data = template.spec.volumes?.find((v) => v.name === "data") as { csi: { driver: string } };
    assert.equal(data.csi.driver, "gcsfuse.csi.storage.gke.io");
  });

  it("grants only Jobs create/get/list/delete, pods get/list and pods/log get in its namespace", () => {
    const role = findObject(rendered.defaults, "Role", fullname);
    assert.equal(role.metadata.namespace, "svc");
    assert.deepEqual(role.rules, [
      { apiGroups: ["batch"], resources: ["jobs"], verbs: ["create", "get", "list", "delete"] },
      { apiGroups: [""], resources: ["pods"], verbs: ["get", "list"] },
      { apiGroups: [""], resources: ["pods/log"], verbs: ["get"] },
    ]);
    const binding = findObject(rendered.defaults, "RoleBinding", fullname);
    assert.deepEqual(binding.subjects, [{ kind: "ServiceAccount", name: fullname, namespace: "svc" }]);
    assert.equal(
      rendered.defaults.find((o) => o.kind === "ClusterRole" || o.kind === "ClusterRoleBinding"),
      undefined,
    );
    const pod = podTemplateOf(findObject(rendered.defaults, "Deployment", fullname)).spec;
    assert.equal(pod.serviceAccountName, fullname);
  });

  it("runs non-root under the restricted security context", () => {
    for (const variant of Object.keys(variants) as Variant[]) {
      assertRestrictedSecurity(
        podTemplateOf(findObject(rendered[variant], "Deployment", fullname)).spec,
        variant,
      );
    }
  });

  it("fails with a clear message for cloudstore without a bucket", async () => {
    const result = await templateChart({
      chart,
      release,
      set: { ...installed, "storage.type": "cloudstore" },
    });
    assert.notEqual(result.code, 0);
    assert.match(result.stderr, /storage\.type=cloudstore requires storage\.cloudstore\.bucket/);
  });
});

describe("preflight chart keeps the token already in the cluster", () => {
  it("keeps the existing secret's tokens on upgrade, unless app.authToken replaces them", async () => {
    const existing = Buffer.from(JSON.stringify([{ token: "kept-from-first-install" }])).toString("base64");
    const api = await startKubeApiDouble();
    api.putCoreObject("secrets", {
      metadata: { name: `${fullname}-auth`, namespace: "svc" },
      data: { K8S_API_TOKENS: existing },
    });
    const dir = await mkdtemp(join(tmpdir(), "svc-chart-"));
    try {
      const kubeconfig = await writeKubeconfig({
        server: api.url,
        token: "chart-test",
        namespace: "svc",
        dir,
      });
      const [kept, replaced] = await Promise.all([
        renderChart({ ...variants.defaults, kubeconfig }),
        renderChart({ ...variants.authToken, kubeconfig }),
      ]);
      assert.deepEqual(tokensOf(kept), [{ token: "kept-from-first-install" }]);
      assert.deepEqual(tokensOf(replaced), [{ token: "operator-chosen-token" }]);
      // The job release's claim is ReadWriteMany: a ReadWriteOnce value is refused with the reason.
      api.putCoreObject("persistentvolumeclaims", {
        metadata: { name: "audit-data", namespace: "svc" },
        spec: { accessModes: ["ReadWriteMany"] },
      });
      const mismatch = await templateChart({ ...variants.defaults, kubeconfig });
      assert.notEqual(mismatch.code, 0);
      assert.match(
        mismatch.stderr,
        /storage\.pvc\.accessMode=ReadWriteOnce but the claim audit-data is ReadWriteMany/,
      );
      await renderChart({ ...variants.readWriteMany, kubeconfig });
    } finally {
      await api.close();
      await rm(dir, { recursive: true, force: true });
    }
  });
});

describe("preflight chart NOTES", () => {
  it("tells how to reach the service and read the token", async () => {
    const notes = await renderNotes(variants.defaults);
    assert.match(notes, /kubectl port-forward service\/svc-preflight-preflight 8080:8080 --namespace svc/);
    assert.match(notes, /kubectl get secret svc-preflight-preflight-auth --namespace svc/);
    assert.match(notes, /Give Jobs of the job chart the same rule/);
  });

  it("on its own claim, tells where the data lives and how to stage a project there", async () => {
    const notes = await renderNotes(variants.chartDefaults);
    assert.match(notes, /own claim svc-preflight-data \(20Gi, ReadWriteOnce\)/);
    assert.match(
      notes,
      /tools\/stage_inputs\.sh --namespace svc --release svc-preflight --project-id <project_id> --source <folder>\/01_sources --preflight svc-preflight/,
    );
    assert.doesNotMatch(notes, /coLocateWithPreflight/);
  });
});
