import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { describe, it } from "node:test";
import { ENTITLEMENT_ENV_NAMES, readConfig } from "@svc/entitlement";
import { REQUEST_TIMEOUT_BOUNDS } from "@svc/http-edge";
import {
  buildPipelineJob,
  DOCKING_MAX_COMPOUNDS_BOUNDS,
  loadConfig,
  missingPipelineSettings,
  PREFLIGHT_ENV_NAMES,
} from "@svc/preflight";
import { MOLECULAR_DOCKING_MAX_COMPOUNDS, RUNNER_ENV_NAMES, resolveRunConfig } from "@svc/runner";
import { allContainers, type Container, type PodSpec, podTemplateOf } from "../support/chart-assertions.ts";
import { type KubeObject, lintChart, type RenderOptions, renderChart } from "../support/render.ts";

// Issue 13 item 3: for every chart and every documented values variant (docs/install.md), each
// environment variable a rendered Deployment or Job sets is one its process reads, and the process
// starts with exactly that environment. The names come from each package's config module
// (RUNNER_ENV_NAMES, PREFLIGHT_ENV_NAMES, ENTITLEMENT_ENV_NAMES: recorded from the readers), so
// neither side can drift without this test failing.

type Process = "runner" | "preflight" | "entitlement";
const NAMES: Record<Process, readonly string[]> = {
  runner: RUNNER_ENV_NAMES,
  preflight: PREFLIGHT_ENV_NAMES,
  entitlement: ENTITLEMENT_ENV_NAMES,
};
// Container name -> the process it runs. ubbagent is the marketplace's metering agent, configured
// by its own AGENT_* contract, not ours.
const PROCESS_OF: Record<string, Process | "external"> = {
  runner: "runner",
  preflight: "preflight",
  entitlement: "entitlement",
  ubbagent: "external",
};
// Values of secrets the operator creates outside the chart (existingSecret variants).
const EXTERNAL_SECRETS: Record<string, string> = {
  SVC_DATABASE_URL: "postgres://ledger@db.internal:5432/ledger",
  SVC_ADMIN_TOKENS: "operator-admin-token-0123456789",
};
// What the kubelet adds to every pod: in-cluster API address (client-node's in-cluster check).
const KUBELET_ENV = { KUBERNETES_SERVICE_HOST: "10.0.0.1", KUBERNETES_SERVICE_PORT: "443" };
const SA_DIR = "/var/run/secrets/kubernetes.io/serviceaccount";

const digest = `sha256:${"cd".repeat(32)}`;
const jobRun = {
  "config.projectId": "proj-1",
  "config.runId": "run_1",
  "config.entitlementUrl": "https://entitlement.example.com",
  "workloadIdentity.cloudServiceAccount": "audit-runner@proj.iam.gserviceaccount.com",
  "ubbagent.image.digest": digest,
};
const standard = ["values-standard.yaml"];
const preflightInstall = { jobRelease: "audit", "app.entitlementUrl": "https://entitlement.example.com" };
const pem = "-----BEGIN PRIVATE KEY-----\nMC4CAQAwBQYDK2VwBCIEIA==\n-----END PRIVATE KEY-----\n";
const entitlementRequired = {
  publicUrl: "https://entitlement.example.com",
  "database.url": "postgres://ledger:secret@db.internal:5432/ledger",
  "signingKey.pem": pem,
};

/** The documented variants of each chart (docs/install.md §2-§6). */
const VARIANTS: Record<string, RenderOptions> = {
  "job: standard, job.enabled=false (infrastructure)": {
    chart: "manifest/chart",
    release: "audit",
    valuesFiles: standard,
    set: { "config.projectId": "proj-1", "ubbagent.image.digest": digest },
  },
  "job: standard run": {
    chart: "manifest/chart",
    release: "audit",
    valuesFiles: standard,
    set: { ...jobRun, "job.enabled": true },
  },
  "job: deep run": {
    chart: "manifest/chart",
    release: "audit",
    valuesFiles: ["values-standard.yaml", "values-deep.yaml"],
    set: { ...jobRun, "job.enabled": true },
  },
  "job: cloudstore": {
    chart: "manifest/chart",
    release: "audit",
    valuesFiles: standard,
    set: {
      ...jobRun,
      "job.enabled": true,
      "storage.type": "cloudstore",
      "storage.cloudstore.bucket": "audit-bucket",
    },
  },
  "job: k8s auth, co-located with preflight": {
    chart: "manifest/chart",
    release: "audit",
    valuesFiles: standard,
    set: {
      ...jobRun,
      "job.enabled": true,
      "config.entitlementAuthMode": "k8s",
      "workloadIdentity.enabled": false,
      "workloadIdentity.cloudServiceAccount": "",
      "storage.pvc.coLocateWithPreflight": "svc-preflight",
    },
  },
  "job: no marketplace": {
    chart: "manifest/chart",
    release: "audit",
    valuesFiles: standard,
    set: { ...jobRun, "job.enabled": true, "marketplace.enabled": false, "ubbagent.enabled": false },
  },
  "job: plain GKE values file (no marketplace)": {
    chart: "manifest/chart",
    release: "audit",
    valuesFiles: ["values-standard.yaml", "values-gke.yaml"],
    set: { ...jobRun, "job.enabled": true, "ubbagent.image.digest": "" },
  },
  // No jobRelease: the chart's own claim <release>-data (its defaults plus what launching needs).
  "preflight: its own claim": {
    chart: "chart/preflight",
    release: "svc-preflight",
    set: { "app.entitlementUrl": "https://entitlement.example.com", "app.runnerServiceAccount": "audit" },
  },
  "preflight: documented install": {
    chart: "chart/preflight",
    release: "svc-preflight",
    set: preflightInstall,
  },
  "preflight: k8s auth, explicit token": {
    chart: "chart/preflight",
    release: "svc-preflight",
    set: {
      ...preflightInstall,
      "app.entitlementAuthMode": "k8s",
      "app.authToken": "operator-chosen-token-0123",
    },
  },
  "preflight: billing (metering of launched Jobs)": {
    chart: "chart/preflight",
    release: "svc-preflight",
    set: { ...preflightInstall, "billing.enabled": true, "billing.image.digest": digest },
  },
  "preflight: ReadWriteMany": {
    chart: "chart/preflight",
    release: "svc-preflight",
    set: { ...preflightInstall, "storage.pvc.accessMode": "ReadWriteMany", replicaCount: 2 },
  },
  "preflight: cloudstore": {
    chart: "chart/preflight",
    release: "svc-preflight",
    set: {
      "app.entitlementUrl": "https://entitlement.example.com",
      "app.runnerServiceAccount": "audit",
      "storage.type": "cloudstore",
      "storage.cloudstore.bucket": "audit-bucket",
    },
  },
  "entitlement: existing secrets": {
    chart: "chart/entitlement",
    release: "ent",
    set: {
      publicUrl: "https://entitlement.example.com",
      "database.existingSecret": "ledger-db",
      "signingKey.existingSecret": "seal-signing-key",
      "adminTokens.existingSecret": "admins",
    },
  },
  "entitlement: SQLite, one replica": {
    chart: "chart/entitlement",
    release: "ent",
    set: {
      publicUrl: "https://entitlement.example.com",
      "signingKey.existingSecret": "seal-signing-key",
      "database.sqlite.enabled": true,
      replicaCount: 1,
    },
  },
  "entitlement: inline secrets, trusted identity, rotation, exposed": {
    chart: "chart/entitlement",
    release: "ent",
    set: {
      ...entitlementRequired,
      trustedIssuers: "{google,https://kubernetes.default.svc}",
      allowedPrincipals: "{system:serviceaccount:audit:audit}",
      suspendedPrincipals: "{old@proj.iam.gserviceaccount.com}",
      "trustedKeys.json": "[]",
      logLevel: "warn",
      "ingress.enabled": true,
      "httpRoute.enabled": true,
      "httpRoute.parentRefs[0].name": "shared-gateway",
    },
  },
};

interface EnvEntry {
  name: string;
  value?: string;
  valueFrom?: {
    secretKeyRef?: { name: string; key: string };
    configMapKeyRef?: { name: string; key: string };
    fieldRef?: { fieldPath: string };
  };
}

function dataOf(
  objects: KubeObject[],
  kind: "Secret" | "ConfigMap",
  name: string,
): Record<string, string> | null {
  const object = objects.find((o) => o.kind === kind && o.metadata.name === name);
  if (!object) return null;
  const data = (object.data ?? {}) as Record<string, string>;
  if (kind === "ConfigMap") return data;
  return Object.fromEntries(
    Object.entries(data).map(([k, v]) => [k, Buffer.from(v, "base64").toString("utf8")]),
  );
}

/** The environment a container starts with, as the kubelet would assemble it from the rendered objects. */
function containerEnv(
  objects: KubeObject[],
  container: Container,
  namespace: string,
): Record<string, string> {
  const env: Record<string, string> = {};
  for (const source of (container as { envFrom?: { configMapRef?: { name: string } }[] }).envFrom ?? []) {
    const name = source.configMapRef?.name ?? "";
    const data = dataOf(objects, "ConfigMap", name);
    assert.ok(data, `envFrom names ConfigMap ${name}, which the chart does not render`);
    Object.assign(env, data);
  }
  for (const entry of (container.env ?? []) as EnvEntry[]) {
    if (entry.value !== undefined) env[entry.name] = entry.value;
    else if (entry.valueFrom?.fieldRef?.fieldPath === "metadata.namespace") env[entry.name] = namespace;
    else if (entry.valueFrom?.secretKeyRef) {
      const { name, key } = entry.valueFrom.secretKeyRef;
      const data = dataOf(objects, "Secret", name);
      const value = data ? data[key] : EXTERNAL_SECRETS[entry.name];
      assert.ok(value !== undefined, `${entry.name}: no value for secret ${name} key ${key}`);
      env[entry.name] = value;
    } else assert.fail(`${entry.name}: unsupported env source ${JSON.stringify(entry.valueFrom)}`);
  }
  return env;
}

/** Every *_FILE setting names a file inside a volume mounted into the container. */
function assertFilesMounted(env: Record<string, string>, container: Container, where: string): void {
  const mounts = (container.volumeMounts ?? []).map((m) => m.mountPath.replace(/\/$/, ""));
  for (const [name, path] of Object.entries(env)) {
    if (!name.endsWith("_FILE")) continue;
    assert.ok(
      mounts.some((mount) => path.startsWith(`${mount}/`)),
      `${where}: ${name}=${path} lies in no mounted volume (${mounts.join(", ")})`,
    );
  }
}

/**
 * Reads a file as the container would see it: through its volume mounts, from the Secret or
 * ConfigMap the chart renders (by key, or by `items` paths), so a service that reads a mounted file
 * during config validation (SVC_TRUSTED_KEYS_FILE) is checked against the rendered content.
 */
function mountedFileReader(
  objects: KubeObject[],
  spec: PodSpec,
  container: Container,
): (path: string) => string {
  return (path) => {
    for (const mount of container.volumeMounts ?? []) {
      const base = mount.mountPath.replace(/\/$/, "");
      if (!path.startsWith(`${base}/`)) continue;
      const relative = path.slice(base.length + 1);
      const volume = (spec.volumes ?? []).find((v) => v.name === mount.name) as
        | {
            secret?: { secretName?: string; items?: { key: string; path: string }[] };
            configMap?: { name?: string; items?: { key: string; path: string }[] };
          }
        | undefined;
      const source = volume?.secret
        ? { data: dataOf(objects, "Secret", volume.secret.secretName ?? ""), items: volume.secret.items }
        : volume?.configMap
          ? { data: dataOf(objects, "ConfigMap", volume.configMap.name ?? ""), items: volume.configMap.items }
          : null;
      const key = source?.items?.find((item) => item.path === relative)?.key ?? relative;
      const text = source?.data?.[key];
      if (text !== undefined) return text;
    }
    throw Object.assign(new Error(`${path}: not in a rendered volume`), { code: "ENOENT" });
  };
}

function assertStarts(
  process: Process,
  env: Record<string, string>,
  where: string,
  readMounted: (path: string) => string = () => {
    throw Object.assign(new Error("no volumes"), { code: "ENOENT" });
  },
): void {
  if (process === "runner") {
    assert.doesNotThrow(() => resolveRunConfig({}, env), `${where}: the runner refuses its environment`);
  } else if (process === "entitlement") {
    const result = readConfig(env, "/", readMounted);
    assert.ok(
      result.ok,
      `${where}: the entitlement service refuses: ${result.ok ? "" : result.problems.join("; ")}`,
    );
  } else {
    const config = loadPreflight(env);
    // A launched Job must be able to run: every setting it needs is set, and the runner starts with
    // exactly the environment preflight gives it.
    assert.deepEqual(missingPipelineSettings(config), [], `${where}: pipeline launch not ready`);
    const runner = launchedRunner(config);
    const jobEnv = Object.fromEntries((runner.env ?? []).map((e) => [e.name, e.value]));
    assertReadsAll("runner", jobEnv, `${where} → launched Job`);
    assertStarts("runner", jobEnv, `${where} → launched Job`);
    assertFilesMounted(jobEnv, runner as Container, `${where} → launched Job`);
  }
}

/** The runner container of the pipeline Job preflight launches for run_1 of proj-1 with `config`. */
function launchedRunner(config: ReturnType<typeof loadPreflight>) {
  const job = buildPipelineJob(
    config,
    {
      projectId: "proj-1",
      namespace: "audit",
      runId: "run_1",
      moduleId: "computational",
      mode: "standard",
      gpuDocking: false,
      shards: 1,
    },
    {
      name: "svc-run-run-1",
      runnerImage: config.runnerImage ?? "",
      runnerImageGpu: config.runnerImageGpu ?? "",
      appFullname: config.appFullname ?? "",
      dataClaim: config.dataClaim ?? "",
    },
  );
  const runner = job.spec.template.spec.containers[0];
  assert.ok(runner, "the launched Job has a runner container");
  return runner;
}

function loadPreflight(env: Record<string, string>) {
  return loadConfig(
    { ...KUBELET_ENV, ...env },
    {
      fileExists: (path) => path === `${SA_DIR}/token`,
      readTextFile: (path) => (path === `${SA_DIR}/namespace` ? "audit" : undefined),
      homeDir: undefined,
    },
  );
}

function assertReadsAll(process: Process, env: Record<string, string>, where: string): void {
  const unread = Object.keys(env).filter((name) => !NAMES[process].includes(name));
  assert.deepEqual(unread, [], `${where}: sets ${unread.join(", ")}, which ${process} never reads`);
}

describe("chart / config contract: every rendered setting is read, every required setting is set", () => {
  for (const [variant, options] of Object.entries(VARIANTS)) {
    it(variant, async () => {
      const [objects, lint] = await Promise.all([renderChart(options), lintChart(options)]);
      assert.equal(lint.code, 0, `helm lint --strict: ${lint.stdout}`);
      const namespace = options.namespace ?? "audit";
      let checked = 0;
      for (const object of objects.filter((o) => o.kind === "Deployment" || o.kind === "Job")) {
        const spec: PodSpec = podTemplateOf(object).spec;
        for (const container of allContainers(spec)) {
          const process = PROCESS_OF[container.name];
          const where = `${variant}: ${object.kind}/${object.metadata.name} container ${container.name}`;
          assert.ok(process, `${where}: unknown container; map it to the process it runs`);
          if (process === "external") continue;
          const env = containerEnv(objects, container, namespace);
          assertReadsAll(process, env, where);
          assertFilesMounted(env, container, where);
          assertStarts(process, env, where, mountedFileReader(objects, spec, container));
          checked++;
        }
      }
      // The infrastructure-only install renders no Job: its ConfigMap is still the runner's contract.
      for (const config of objects.filter(
        (o) => o.kind === "ConfigMap" && o.metadata.name.endsWith("-config"),
      ))
        assertReadsAll(
          "runner",
          config.data as Record<string, string>,
          `${variant}: ConfigMap/${config.metadata.name}`,
        );
      assert.ok(checked > 0 || !options.set?.["job.enabled"], `${variant}: no container checked`);
    });
  }

  it("the docking cap: the chart's default and bounds are the runner's, and a value set in the chart reaches the runner", async () => {
    const schema = JSON.parse(
      readFileSync(new URL("../../manifest/chart/values.schema.json", import.meta.url), "utf8"),
    );
    const bounds = schema.properties.config.properties.dockingMaxCompounds;
    assert.deepEqual(bounds, {
      type: "integer",
      minimum: 0,
      maximum: MOLECULAR_DOCKING_MAX_COMPOUNDS.maximum,
    });
    const configMap = async (set: Record<string, unknown>) => {
      const objects = await renderChart({
        ...(VARIANTS["job: standard run"] as RenderOptions),
        set: { ...jobRun, "job.enabled": true, ...set },
      });
      const data = objects.find((o) => o.kind === "ConfigMap" && o.metadata.name.endsWith("-config"))?.data;
      return data as Record<string, string>;
    };
    const defaults = await configMap({});
    assert.equal(defaults.SVC_DOCKING_MAX_COMPOUNDS, String(MOLECULAR_DOCKING_MAX_COMPOUNDS.default));
    assert.equal(resolveRunConfig({}, defaults).dockingMaxCompounds, MOLECULAR_DOCKING_MAX_COMPOUNDS.default);
    const set = await configMap({ "config.dockingMaxCompounds": 250 });
    assert.equal(resolveRunConfig({}, set).dockingMaxCompounds, 250);
    const none = await configMap({ "config.dockingMaxCompounds": 0 });
    assert.equal(
      resolveRunConfig({}, none).dockingMaxCompounds,
      0,
      "0 (dock nothing) is not dropped as blank",
    );
  });

  it("the docking cap of preflight-launched Jobs: the preflight chart's bounds are the runner's, and app.dockingMaxCompounds reaches the launched runner", async () => {
    const schema = JSON.parse(
      readFileSync(new URL("../../chart/preflight/values.schema.json", import.meta.url), "utf8"),
    );
    const bounds = schema.properties.app.properties.dockingMaxCompounds;
    assert.deepEqual(bounds, {
      type: ["integer", "null"],
      minimum: 0,
      maximum: MOLECULAR_DOCKING_MAX_COMPOUNDS.maximum,
    });
    assert.deepEqual(
      { ...DOCKING_MAX_COMPOUNDS_BOUNDS },
      { min: 0, max: MOLECULAR_DOCKING_MAX_COMPOUNDS.maximum },
    );
    // preflight's container environment → its config → the launched Job's runner → the runner's config
    const preflightEnv = async (set: Record<string, unknown>) => {
      const objects = await renderChart({
        ...(VARIANTS["preflight: documented install"] as RenderOptions),
        set: { ...preflightInstall, ...set },
      });
      const deployment = objects.find((o) => o.kind === "Deployment") as KubeObject;
      const container = podTemplateOf(deployment).spec.containers.find((c) => c.name === "preflight");
      assert.ok(container, "the preflight container");
      return containerEnv(objects, container as Container, "audit");
    };
    const launchedCap = async (set: Record<string, unknown>) => {
      const config = loadPreflight(await preflightEnv(set));
      const runnerEnv = Object.fromEntries(
        (launchedRunner(config).env ?? []).map((e) => [e.name, e.value ?? ""]),
      );
      return {
        forwarded: runnerEnv.SVC_DOCKING_MAX_COMPOUNDS,
        cap: resolveRunConfig({}, runnerEnv).dockingMaxCompounds,
      };
    };
    assert.deepEqual(await launchedCap({}), {
      forwarded: undefined,
      cap: MOLECULAR_DOCKING_MAX_COMPOUNDS.default,
    });
    assert.deepEqual(await launchedCap({ "app.dockingMaxCompounds": 250 }), { forwarded: "250", cap: 250 });
    assert.deepEqual(
      await launchedCap({ "app.dockingMaxCompounds": 0 }),
      { forwarded: "0", cap: 0 },
      "0 (dock nothing) is not dropped as blank",
    );
    const outOfBounds = { ...(await preflightEnv({})), SVC_DOCKING_MAX_COMPOUNDS: "1001" };
    assert.throws(
      () => loadPreflight(outOfBounds),
      /SVC_DOCKING_MAX_COMPOUNDS must be an integer from 0 to 1000 \(got "1001"\)/,
    );
  });

  it("the readiness of a preflight without entitlement settings names every missing one", () => {
    const config = loadPreflight({
      K8S_API_TOKENS: '[{"token":"0123456789abcdef"}]',
      SVC_RUNNER_IMAGE: "r:1",
    });
    assert.deepEqual(missingPipelineSettings(config), [
      "SVC_APP_FULLNAME",
      "SVC_DATA_CLAIM",
      "SVC_ENTITLEMENT_URL",
      "SVC_RUNNER_SERVICE_ACCOUNT",
    ]);
  });

  it("the request time limit: each chart's bounds are the service's, and requestTimeoutMs set in the chart reaches entitlement's and preflight's config (issue 38 item 4)", async () => {
    const bounds = {
      type: "integer",
      minimum: REQUEST_TIMEOUT_BOUNDS.min,
      maximum: REQUEST_TIMEOUT_BOUNDS.max,
    };
    const entitlementSchema = JSON.parse(
      readFileSync(new URL("../../chart/entitlement/values.schema.json", import.meta.url), "utf8"),
    );
    assert.deepEqual(entitlementSchema.properties.requestTimeoutMs, bounds);
    const preflightSchema = JSON.parse(
      readFileSync(new URL("../../chart/preflight/values.schema.json", import.meta.url), "utf8"),
    );
    assert.deepEqual(preflightSchema.properties.app.properties.requestTimeoutMs, bounds);
    const serviceEnv = async (
      variant: string,
      name: string,
      set: Record<string, string | number | boolean>,
    ) => {
      const options = VARIANTS[variant] as RenderOptions;
      const objects = await renderChart({ ...options, set: { ...options.set, ...set } });
      const deployment = objects.find((o) => o.kind === "Deployment") as KubeObject;
      const container = podTemplateOf(deployment).spec.containers.find((c) => c.name === name);
      assert.ok(container, `the ${name} container`);
      return containerEnv(objects, container as Container, "audit");
    };
    const entitlementLimit = async (set: Record<string, string | number | boolean>) => {
      const result = readConfig(
        await serviceEnv("entitlement: SQLite, one replica", "entitlement", set),
        "/",
      );
      assert.ok(result.ok, result.ok ? "" : result.problems.join("; "));
      return result.config.requestTimeoutMs;
    };
    assert.equal(await entitlementLimit({}), REQUEST_TIMEOUT_BOUNDS.fallback);
    assert.equal(await entitlementLimit({ requestTimeoutMs: 90_000, "upload.timeoutMs": 90_000 }), 90_000);
    // an upload is one request: the chart refuses an upload limit over the request limit, as the service would
    await assert.rejects(
      renderChart({
        ...(VARIANTS["entitlement: SQLite, one replica"] as RenderOptions),
        set: { ...VARIANTS["entitlement: SQLite, one replica"]?.set, requestTimeoutMs: 5_000 },
      }),
      /upload\.timeoutMs must be at most requestTimeoutMs/,
    );
    const preflightLimit = async (set: Record<string, string | number | boolean>) =>
      loadPreflight(
        await serviceEnv("preflight: documented install", "preflight", { ...preflightInstall, ...set }),
      ).requestTimeoutMs;
    assert.equal(await preflightLimit({}), REQUEST_TIMEOUT_BOUNDS.fallback);
    assert.equal(await preflightLimit({ "app.requestTimeoutMs": 5_000 }), 5_000);
  });
});
