import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { cp, mkdir, readdir, readFile, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { gunzipSync } from "node:zlib";
import {
  DEFAULT_PVC_LAYOUT,
  exportPrivateKeyPem,
  exportPublicKeyPem,
  generateSigningKey,
  ID_RULE,
  projectSourcesDir,
  type SigningKey,
} from "@svc/core";
import {
  buildSumdbCheck,
  createTempDir,
  findFreePort,
  goCheckRunFolder,
  goMissingReason,
  type KubeApiDouble,
  type OidcIssuerDouble,
  type ProcessKubelet,
  type RunningPod,
  startKubeApiDouble,
  startOidcIssuerDouble,
  startProcessKubelet,
  type TempDir,
  writeKubeconfig,
} from "@svc/testing";
import { installKubeStandIns, type KubeStandIns } from "../support/kube-stand-in/install.ts";
import type { KubeObject } from "../support/render.ts";
import { type RenderOptions, renderChart } from "../support/render.ts";
import { repoRoot } from "../support/repo-root.ts";

// Issue 13 item 4: docs/install.md walked in its order on a simulated cluster, from the rendered
// charts only. The Kubernetes API double stores what is applied; the process kubelet runs the
// Deployments, Jobs and helper pods as local processes (workspace bins for the images, a temp dir
// for the claim <release>-data, projected tokens from an OIDC issuer double trusted by the
// entitlement service). The ledger is SQLite on the entitlement chart's own claim.
//
// The operator scripts run for real: tools/stage_inputs.sh, tools/deploy_job.sh and
// tools/fetch_outputs.sh, with PATH starting at the kubectl and helm stand-ins of
// test/support/kube-stand-in/. Each of their command lines is first parsed by the real kubectl
// 1.32 / Helm 3.17 (from the npm layer zip) against a server that refuses connections, so a line a
// real cluster's tools would refuse fails this test. Then:
//   kubectl create namespace, apply -f - (pods), delete pod|job, wait --for=condition=Ready,
//   logs job/… --follow, get job -o jsonpath, describe  → REST calls to the API double
//   kubectl exec [-i]  → the double's pods/exec, carried out by the process kubelet in the pod's
//                        environment on the claim's host directory (the real API streams it over
//                        WebSocket; the double takes stdin whole)
//   helm upgrade --install  → the real `helm template` with the same arguments, its objects
//                        created or replaced on the double (Helm itself needs discovery, OpenAPI
//                        and release storage the double does not serve)
// The entitlement and preflight charts are installed by this file from the same real render
// (install.md §2, §6 give only helm commands for them). The metering sidecar (ubbagent) is another
// vendor's image: the job chart runs on install.md's plain GKE path, with values-gke.yaml
// (marketplace.enabled=false, ubbagent.enabled=false) after the profile, as the doc shows.

const NAMESPACE = "audit";
const JOB_RELEASE = "audit";
const PROJECT = "demo";
const PRINCIPAL = `system:serviceaccount:${NAMESPACE}:${JOB_RELEASE}`; // docs/install.md §2 table, k8s mode
// A second job release on a bucket (install.md §3, cloudstore mode), with its own principal.
const GCS_RELEASE = "audit-gcs";
const GCS_PRINCIPAL = `system:serviceaccount:${NAMESPACE}:${GCS_RELEASE}`;
const BUCKET = "audit-bucket";
const ADMIN_TOKEN = "whole-system-admin-token-0123456789";
// docs/contracts/run-id.md: a run id longer than a Kubernetes label value (63) goes through
// preflight's launch, the runner, the entitlement service's charge and seal, and preflight's
// listing and download (issue 15).
const LONG_RUN_ID = `run-preflight-${"0123456789".repeat(8)}-long1`; // 100 characters (issue 15)
const API_TOKEN = "whole-system-preflight-token-0123";
const node = process.execPath;
const bin = (pkg: string, name: string) => join(repoRoot, "packages", pkg, "bin", `${name}.ts`);

interface Cluster {
  standIns: KubeStandIns;
  /** The operator's kubeconfig: the API double. */
  kubeconfig: string;
  issuer: OidcIssuerDouble;
  double: KubeApiDouble;
  kubelet: ProcessKubelet;
  ledger: TempDir;
  work: TempDir;
  claim: TempDir;
  bucket: TempDir;
  entitlementUrl: string;
  entitlementPort: number;
  preflightPort: number;
  /** The entitlement service's seal key (it also signs the seal log's checkpoints). */
  sealKey: SigningKey;
}

/** helm install, on the double: store what the chart renders; the kubelet starts its Deployments. */
async function install(
  cluster: Cluster,
  options: RenderOptions,
): Promise<{ objects: KubeObject[]; pods: RunningPod[] }> {
  const objects = await renderChart({ namespace: NAMESPACE, ...options });
  const pods: RunningPod[] = [];
  for (const object of objects) {
    const stored = { ...object, metadata: { ...object.metadata, namespace: NAMESPACE } };
    if (object.kind === "Secret") cluster.double.putCoreObject("secrets", stored);
    else if (object.kind === "ConfigMap") cluster.double.putCoreObject("configmaps", stored);
    else if (object.kind === "PersistentVolumeClaim")
      cluster.double.putCoreObject("persistentvolumeclaims", stored);
  }
  for (const object of objects) {
    if (object.kind === "Job")
      cluster.double.putJob({ ...object, metadata: { ...object.metadata, namespace: NAMESPACE } });
    if (object.kind === "Deployment") pods.push(await cluster.kubelet.runDeployment(object, NAMESPACE));
  }
  return { objects, pods };
}

async function waitForHttp(url: string, pod: RunningPod): Promise<void> {
  const deadline = Date.now() + 60_000;
  let exited = false;
  void pod.exited.then(() => {
    exited = true;
  });
  for (;;) {
    try {
      if ((await fetch(url)).ok) return;
    } catch {
      // not listening yet
    }
    if (exited) throw new Error(`${pod.name} exited before serving ${url}:\n${pod.logs()}`);
    if (Date.now() > deadline) throw new Error(`${url} never answered:\n${pod.logs()}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

// Asynchronous: the API double and the services answer from this process while the child runs.
function run(
  file: string,
  args: string[],
  env?: Record<string, string>,
): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(file, args, { encoding: "utf8", ...(env ? { env } : {}) }, (error, stdout, stderr) => {
      resolve({ code: error ? (typeof error.code === "number" ? error.code : 1) : 0, stdout, stderr });
    });
  });
}

/** An operator command (a tools/ script, kubectl or helm) with the stand-ins first on PATH. */
function operator(cluster: Cluster, file: string, args: string[]) {
  return run(file, args, {
    PATH: `${cluster.standIns.bin}:${process.env.PATH ?? ""}`,
    HOME: cluster.work.path,
    KUBECONFIG: cluster.kubeconfig,
    // deploy_job.sh polls the Job's status this often (seconds).
    SVC_POLL_INTERVAL: "1",
  });
}

describe("whole system on a simulated cluster, in the order of docs/install.md", { timeout: 600_000 }, () => {
  const cluster = {} as Cluster;
  let preflightUrl = "";
  const stops: (() => Promise<unknown>)[] = [];

  before(async () => {
    cluster.work = await createTempDir("svc-system-");
    cluster.claim = await createTempDir("svc-system-claim-");
    cluster.ledger = await createTempDir("svc-system-ledger-");
    cluster.bucket = await createTempDir("svc-system-bucket-");
    stops.push(
      () => cluster.ledger.remove(),
      () => cluster.bucket.remove(),
    );
    stops.push(
      () => cluster.claim.remove(),
      () => cluster.work.remove(),
    );
    cluster.issuer = await startOidcIssuerDouble();
    stops.push(() => cluster.issuer.close());
    cluster.double = await startKubeApiDouble({ token: "kubelet-sa-token" });
    stops.push(() => cluster.double.close());
    const entitlementPort = await findFreePort();
    cluster.entitlementPort = entitlementPort;
    cluster.preflightPort = await findFreePort();
    cluster.entitlementUrl = `http://127.0.0.1:${entitlementPort}`;
    cluster.kubeconfig = await writeKubeconfig({
      server: cluster.double.url,
      token: "kubelet-sa-token",
      namespace: NAMESPACE,
      dir: cluster.work.path,
    });
    cluster.standIns = await installKubeStandIns(join(cluster.work.path, "kube-stand-in"));
    cluster.kubelet = startProcessKubelet({
      double: cluster.double,
      entrypoints: {
        "svc-runner": [node, bin("runner", "svc-runner")],
        "svc-preflight": [node, bin("preflight", "svc-preflight")],
        "svc-entitlement": [node, bin("entitlement", "svc-entitlement")],
      },
      claims: {
        [`${JOB_RELEASE}-data`]: cluster.claim.path,
        "ent-svc-entitlement-data": cluster.ledger.path,
      },
      issuer: cluster.issuer,
      kubeconfig: cluster.kubeconfig,
      buckets: { [BUCKET]: cluster.bucket.path },
      // Fixed node ports: a second replica of either service meets a busy port (issue 13 item 5).
      hostPorts: {
        "ent-svc-entitlement:8080": entitlementPort,
        "svc-preflight-preflight:8080": cluster.preflightPort,
      },
      // The suite's temp dir: what the pods leave behind is caught by .ci/run's leftover check.
      baseEnv: { PATH: process.env.PATH ?? "", TMPDIR: tmpdir() },
    });
    stops.push(() => cluster.kubelet.stop());
  });

  after(async () => {
    for (const stop of stops.reverse()) await stop().catch(() => undefined);
  });

  it("§2 installs the entitlement service (SQLite) trusting the cluster's issuer", async () => {
    const key = generateSigningKey();
    cluster.sealKey = key;
    const values = join(cluster.work.path, "entitlement-values.yaml");
    await writeFile(
      values,
      JSON.stringify({
        replicaCount: 1,
        publicUrl: cluster.entitlementUrl,
        database: { sqlite: { enabled: true } },
        signingKey: { pem: exportPrivateKeyPem(key) },
        adminTokens: { tokens: [ADMIN_TOKEN] },
        trustedIssuers: [cluster.issuer.issuer],
      }),
    );
    const { pods } = await install(cluster, {
      chart: "chart/entitlement",
      release: "ent",
      valuesFiles: [values],
    });
    const pod = pods[0];
    assert.ok(pod);
    await waitForHttp(`${cluster.entitlementUrl}/api/ready`, pod);
  });

  it("§2 grants runs to the principal each job release presents (system:serviceaccount:<ns>:<release>)", async () => {
    // Two runs for the PVC release (deploy_job.sh and preflight), one for the bucket release; a
    // third run of the PVC release is refused (402) further down.
    for (const [principal, runs] of [
      [PRINCIPAL, 2],
      [GCS_PRINCIPAL, 1],
    ] as const) {
      const response = await fetch(`${cluster.entitlementUrl}/api/entitlement/issue`, {
        method: "POST",
        headers: { "x-svc-admin-token": ADMIN_TOKEN, "content-type": "application/json" },
        body: JSON.stringify({ principal, runs }),
      });
      assert.equal(response.status, 200, await response.clone().text());
    }
  });

  const chartDir = join(repoRoot, "manifest", "chart");
  const demo = join(repoRoot, "examples", "demo");
  let myValues = "";

  it("§5 creates the namespace and installs the job chart's infrastructure (helm upgrade --install, job.enabled=false)", async () => {
    myValues = join(cluster.work.path, "my-values.yaml");
    await writeFile(
      myValues,
      JSON.stringify({
        config: { entitlementUrl: cluster.entitlementUrl, entitlementAuthMode: "k8s" },
        workloadIdentity: { enabled: false },
      }),
    );
    const created = await operator(cluster, "kubectl", ["create", "namespace", NAMESPACE]);
    assert.equal(created.code, 0, created.stderr);
    const install = (...extra: string[]) =>
      operator(cluster, "helm", [
        "upgrade",
        "--install",
        JOB_RELEASE,
        chartDir,
        "--namespace",
        NAMESPACE,
        "-f",
        join(chartDir, "values-standard.yaml"),
        "-f",
        join(chartDir, "values-gke.yaml"),
        "-f",
        myValues,
        "--set",
        "job.enabled=false",
        "--set-string",
        `config.projectId=${PROJECT}`,
        "--set-string",
        "config.runId=run_1",
        ...extra,
      ]);
    // install.md §3: with the metering agent on, an unpinned agent image is refused, naming the image.
    const unpinned = await install("--set", "ubbagent.enabled=true");
    assert.notEqual(unpinned.code, 0, "an unpinned ubbagent image must be refused");
    assert.match(unpinned.stderr, /ubbagent\.image\.(digest|tag)/);
    assert.match(
      unpinned.stderr,
      /pin the metering agent image gcr\.io\/cloud-marketplace-tools\/metering\/ubbagent/,
    );
    assert.equal(
      cluster.double.getCoreObject("persistentvolumeclaims", NAMESPACE, `${JOB_RELEASE}-data`),
      undefined,
    );
    const helm = await install();
    assert.equal(helm.code, 0, helm.stderr);
    assert.ok(cluster.double.getCoreObject("persistentvolumeclaims", NAMESPACE, `${JOB_RELEASE}-data`));
    assert.equal(
      cluster.double.getJob(NAMESPACE, JOB_RELEASE),
      undefined,
      "job.enabled=false renders no Job",
    );
  });

  it("§5 stages inputs with tools/stage_inputs.sh through a helper pod on the claim", async () => {
    const staged = await operator(cluster, "bash", [
      join(repoRoot, "tools", "stage_inputs.sh"),
      "--namespace",
      NAMESPACE,
      "--release",
      JOB_RELEASE,
      "--project-id",
      PROJECT,
      "--source",
      join(demo, "01_sources"),
    ]);
    assert.equal(staged.code, 0, staged.stdout + staged.stderr);
    // <input-root>/<project>/01_sources on the claim (docs/contracts/storage-layout.md).
    const sources = projectSourcesDir(DEFAULT_PVC_LAYOUT, PROJECT).replace(/^\/data/, cluster.claim.path);
    assert.deepEqual((await readdir(sources)).sort(), (await readdir(join(demo, "01_sources"))).sort());
    assert.equal(
      await readFile(join(sources, "sources.json"), "utf8"),
      await readFile(join(demo, "01_sources", "sources.json"), "utf8"),
    );
    const helpers = cluster.double
      .listPods(NAMESPACE)
      .filter((pod) => pod.metadata?.labels?.["app.kubernetes.io/component"] === "data-helper");
    assert.deepEqual(helpers, [], "the helper pod is removed afterwards");
  });

  /** install.md §4: tools/deploy_job.sh for `release`, with the operator's values; its output and the Job's log. */
  const deployJob = async (release: string, runId: string, extra: readonly string[]) => {
    const deployed = await operator(cluster, "bash", [
      join(repoRoot, "tools", "deploy_job.sh"),
      ...["--namespace", NAMESPACE, "--release", release, "--project-id", PROJECT, "--run-id", runId],
      ...extra,
      ...["-f", join(chartDir, "values-gke.yaml"), "-f", myValues],
    ]);
    const detail = `${deployed.stdout}${deployed.stderr}${cluster.kubelet.jobLogs(NAMESPACE, release)}${cluster.kubelet.events.join("\n")}`;
    return { deployed, detail };
  };

  it("§4 runs an audit with tools/deploy_job.sh (steps 1-6) and the Job succeeds", async () => {
    const { deployed, detail } = await deployJob(JOB_RELEASE, "run-job-1", ["--inputs", demo]);
    assert.equal(deployed.code, 0, detail);
    assert.match(deployed.stderr, /Job audit succeeded \(run run-job-1\)/, detail);
    // Step 6 streamed the runner's log through pods/log, prefixed as kubectl --prefix does.
    assert.match(deployed.stdout, /^\[pod\/audit-[a-z0-9]+\/[a-z0-9-]+\] /m, detail);
    assert.equal(await cluster.kubelet.waitForJob(NAMESPACE, JOB_RELEASE), "Complete");
    // Every verb the scripts use went through the stand-ins (and the real parsers) to the double.
    const verbs = new Set((await cluster.standIns.calls()).map((call) => `${call.program} ${call.args[0]}`));
    for (const verb of ["create", "apply", "wait", "exec", "delete", "logs", "get"])
      assert.ok(verbs.has(`kubectl ${verb}`), `no kubectl ${verb} call: ${[...verbs].join(", ")}`);
    assert.ok(verbs.has("helm upgrade"));
  });

  it("§3, §4 runs an audit on a bucket (cloudstore) with tools/deploy_job.sh; outputs land under <bucket>/<project>/results/<run>", async () => {
    // install.md §3: inputs are read from <bucket>/<projectId>/01_sources/. stage_inputs.sh puts them
    // there with `gcloud storage rsync`, which this test does not simulate: it copies them itself.
    await cp(join(demo, "01_sources"), join(cluster.bucket.path, PROJECT, "01_sources"), { recursive: true });
    const { deployed, detail } = await deployJob(GCS_RELEASE, "run-gcs-1", [
      "--storage",
      "cloudstore",
      "--bucket",
      BUCKET,
    ]);
    assert.equal(deployed.code, 0, detail);
    const sealed = await readdir(join(cluster.bucket.path, PROJECT, "results", "run-gcs-1", "seal"));
    assert.ok(sealed.includes("seal.svg"), sealed.join(", "));
  });

  it("§6 installs preflight on the job release's claim; it reaches Kubernetes and is ready to launch", async () => {
    const { pods } = await install(cluster, {
      chart: "chart/preflight",
      release: "svc-preflight",
      set: {
        jobRelease: JOB_RELEASE,
        "app.entitlementUrl": cluster.entitlementUrl,
        "app.entitlementAuthMode": "k8s",
        "app.authToken": API_TOKEN,
      },
    });
    const pod = pods[0];
    assert.ok(pod);
    preflightUrl = `http://127.0.0.1:${pod.ports[8080]}`;
    await waitForHttp(`${preflightUrl}/api/health`, pod);
    // install.md §6: the deployment tester passes only when preflight reaches Kubernetes.
    const tester = await run("bash", [join(repoRoot, "apptest", "tester", "tester.sh")], {
      APP_BASE_URL: preflightUrl,
      PATH: process.env.PATH ?? "",
    });
    assert.equal(tester.code, 0, tester.stdout + tester.stderr);
    assert.match(tester.stdout, /PASS kubernetes reachable/);
    const config = (await (await fetch(`${preflightUrl}/api/config`)).json()) as {
      runner: { pipelineLaunchReady: boolean; missingSettings: string[]; dataClaim: string };
    };
    assert.deepEqual(config.runner.missingSettings, []);
    assert.equal(config.runner.dataClaim, `${JOB_RELEASE}-data`);
  });

  const auth = { authorization: `Bearer ${API_TOKEN}` };

  it("§6 launches a run through preflight POST /api/pipeline/run and the Job completes", async () => {
    const response = await fetch(`${preflightUrl}/api/pipeline/run`, {
      method: "POST",
      headers: { ...auth, "content-type": "application/json" },
      body: JSON.stringify({ projectId: PROJECT, namespace: NAMESPACE, runId: LONG_RUN_ID }),
    });
    assert.equal(response.status, 201, await response.clone().text());
    const { jobName } = (await response.json()) as { jobName: string };
    const outcome = await cluster.kubelet.waitForJob(NAMESPACE, jobName);
    assert.equal(
      outcome,
      "Complete",
      cluster.kubelet.jobLogs(NAMESPACE, jobName) + cluster.kubelet.events.join("\n"),
    );
  });

  it("§6 lists the long run id with its Job and finds it by id", async () => {
    assert.equal(LONG_RUN_ID.length, 100);
    const list = (await (await fetch(`${preflightUrl}/api/runs`, { headers: auth })).json()) as {
      runs: { runId: string; jobName: string | null; state: string }[];
    };
    const listed = list.runs.find((entry) => entry.runId === LONG_RUN_ID);
    assert.ok(listed?.jobName, JSON.stringify(list.runs));
    assert.equal(listed.state, "sealed");
    const detail = (await (
      await fetch(`${preflightUrl}/api/runs/${LONG_RUN_ID}`, { headers: auth })
    ).json()) as {
      job: { name: string } | null;
    };
    assert.equal(detail.job?.name, listed.jobName);
  });

  it("refuses an id outside the grammar with the same rule in preflight, the entitlement service and the runner", async () => {
    const bad = "run-ends-with-dash-";
    const launched = await fetch(`${preflightUrl}/api/pipeline/run`, {
      method: "POST",
      headers: { ...auth, "content-type": "application/json" },
      body: JSON.stringify({ projectId: PROJECT, namespace: NAMESPACE, runId: bad }),
    });
    assert.equal(launched.status, 400);
    assert.ok(((await launched.json()) as { error: { message: string } }).error.message.includes(ID_RULE));
    const charged = await fetch(`${cluster.entitlementUrl}/api/entitlement/check`, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        authorization: `Bearer ${await cluster.issuer.mintToken({ audience: cluster.entitlementUrl, subject: PRINCIPAL })}`,
      },
      body: JSON.stringify({
        run_id: bad,
        project_id: PROJECT,
        mode: "standard",
        module_id: "computational",
      }),
    });
    const refusal = (await charged.json()) as { error: { code: string; message: string } };
    assert.equal(charged.status, 400, JSON.stringify(refusal));
    assert.equal(refusal.error.message, `field run_id: ${ID_RULE}`);
    const runner = await run(node, [
      bin("runner", "svc-runner"),
      "validate",
      "--project-id",
      PROJECT,
      "--run-id",
      bad,
    ]);
    assert.equal(runner.code, 2, runner.stdout + runner.stderr);
    assert.ok(
      (runner.stdout + runner.stderr).includes(`--run-id / SVC_RUN_ID ${ID_RULE} (got "${bad}")`),
      runner.stderr,
    );
  });

  it("§6, §7 lists and downloads both runs' outputs and repro packs through preflight", async () => {
    for (const runId of ["run-job-1", LONG_RUN_ID]) {
      const listed = await fetch(`${preflightUrl}/api/outputs/list?runId=${runId}`, { headers: auth });
      assert.equal(listed.status, 200, `${runId}: ${await listed.clone().text()}`);
      const check = (await (
        await fetch(`${preflightUrl}/api/runs/check?runId=${runId}`, { headers: auth })
      ).json()) as {
        allPresent: boolean;
      };
      assert.equal(check.allPresent, true, runId);
      const seal = await fetch(`${preflightUrl}/api/outputs/download?runId=${runId}&path=seal/seal.svg`, {
        headers: auth,
      });
      assert.equal(seal.status, 200, runId);
      await writeFile(join(cluster.work.path, `${runId}.svg`), Buffer.from(await seal.arrayBuffer()));
      const pack = await fetch(`${preflightUrl}/api/outputs/repro-pack.tgz?runId=${runId}`, {
        headers: auth,
      });
      assert.equal(pack.status, 200, runId);
      assert.ok(gunzipSync(Buffer.from(await pack.arrayBuffer())).length > 0, runId);
    }
  });

  it("§2, §6 a run past the grant is refused: the 402 names the principal it checked, and no run folder is left", async () => {
    const runId = "run-refused-1";
    const response = await fetch(`${preflightUrl}/api/pipeline/run`, {
      method: "POST",
      headers: { ...auth, "content-type": "application/json" },
      body: JSON.stringify({ projectId: PROJECT, namespace: NAMESPACE, runId }),
    });
    assert.equal(response.status, 201, await response.clone().text());
    const { jobName } = (await response.json()) as { jobName: string };
    assert.equal(await cluster.kubelet.waitForJob(NAMESPACE, jobName), "Failed");
    const logs = cluster.kubelet.jobLogs(NAMESPACE, jobName);
    assert.match(logs, /ENTITLEMENT_EXHAUSTED/, logs);
    assert.ok(logs.includes(PRINCIPAL), `the refusal does not name the principal ${PRINCIPAL}:\n${logs}`);
    const outputRoot = join(cluster.claim.path, "output");
    assert.ok(!(await readdir(outputRoot)).includes(runId), `a refused run left ${outputRoot}/${runId}`);
  });

  it("§6 a metered preflight on the bucket: cloudstore reaches the service, it serves the bucket's run, its Jobs carry the metering agent", async () => {
    const digest = `sha256:${"ab".repeat(32)}`;
    const { pods } = await install(cluster, {
      chart: "chart/preflight",
      release: "metered",
      set: {
        jobRelease: GCS_RELEASE,
        "storage.type": "cloudstore",
        "storage.cloudstore.bucket": BUCKET,
        "app.entitlementUrl": cluster.entitlementUrl,
        "app.entitlementAuthMode": "k8s",
        "app.authToken": API_TOKEN,
        "billing.enabled": true,
        "billing.image.digest": digest,
      },
    });
    const pod = pods[0];
    assert.ok(pod);
    const url = `http://127.0.0.1:${pod.ports[8080]}`;
    await waitForHttp(`${url}/api/health`, pod);
    // tester.sh fails, with the reason, when preflight cannot reach Kubernetes (its first /api/ready).
    cluster.double.injectFailure({
      method: "GET",
      path: new RegExp(`^/apis/batch/v1/namespaces/${NAMESPACE}/jobs$`),
      status: 503,
      reason: "ServiceUnavailable",
      message: "the API server is shutting down",
    });
    const tester = await run("bash", [join(repoRoot, "apptest", "tester", "tester.sh")], {
      APP_BASE_URL: url,
      PATH: process.env.PATH ?? "",
    });
    assert.notEqual(tester.code, 0, tester.stdout + tester.stderr);
    assert.match(tester.stderr, /FAIL kubernetes reachable/);
    const config = (await (await fetch(`${url}/api/config`)).json()) as {
      storage: { mode: string };
      runner: { missingSettings: string[] };
    };
    assert.equal(config.storage.mode, "cloudstore");
    assert.deepEqual(config.runner.missingSettings, []);
    const listed = await fetch(`${url}/api/outputs/list?runId=run-gcs-1&projectId=${PROJECT}`, {
      headers: auth,
    });
    assert.equal(listed.status, 200, await listed.clone().text());
    const seal = await fetch(
      `${url}/api/outputs/download?runId=run-gcs-1&projectId=${PROJECT}&path=seal/seal.svg`,
      {
        headers: auth,
      },
    );
    assert.equal(seal.status, 200);
    await writeFile(join(cluster.work.path, "run-gcs-1.svg"), Buffer.from(await seal.arrayBuffer()));
    // billing.enabled reaches launched Jobs: the agent runs beside the runner as a native sidecar.
    // (This node cannot run another vendor's agent, so the Job fails before the runner starts:
    // nothing is charged.)
    const launched = await fetch(`${url}/api/pipeline/run`, {
      method: "POST",
      headers: { ...auth, "content-type": "application/json" },
      body: JSON.stringify({ projectId: PROJECT, namespace: NAMESPACE, runId: "run-metered-1" }),
    });
    assert.equal(launched.status, 201, await launched.clone().text());
    const { jobName } = (await launched.json()) as { jobName: string };
    const job = cluster.double.getJob(NAMESPACE, jobName);
    assert.ok(job, `no Job ${jobName}`);
    type MeteredPod = { initContainers?: { image: string; restartPolicy?: string }[] };
    const podSpec = (job.spec as { template: { spec: MeteredPod } }).template.spec;
    assert.ok(
      (podSpec.initContainers ?? []).some(
        (c) => c.restartPolicy === "Always" && c.image.endsWith(`@${digest}`),
      ),
      JSON.stringify(podSpec),
    );
    assert.equal(await cluster.kubelet.waitForJob(NAMESPACE, jobName), "Failed");
  });

  it("a second replica of either service on a busy port stops with one line, no stack trace", async () => {
    for (const [chart, release, set] of [
      ["chart/entitlement", "ent", undefined],
      ["chart/preflight", "svc-preflight", { jobRelease: JOB_RELEASE, "app.authToken": API_TOKEN }],
    ] as const) {
      const objects = await renderChart({
        namespace: NAMESPACE,
        chart,
        release,
        ...(set ? { set } : {}),
        ...(release === "ent" ? { valuesFiles: [join(cluster.work.path, "entitlement-values.yaml")] } : {}),
      });
      const deployment = objects.find((o) => o.kind === "Deployment");
      assert.ok(deployment);
      const pod = await cluster.kubelet.runDeployment(deployment, NAMESPACE);
      const code = await pod.exited;
      const output = pod.logs().trim();
      assert.notEqual(code, 0, output);
      assert.match(output, /port is already in use/, output);
      assert.doesNotMatch(output, /^\s+at /m, `a stack trace:\n${output}`);
    }
  });

  it("§7 fetches the deploy_job.sh run with tools/fetch_outputs.sh; the seals verify against the issuer (svc seal verify --issuer)", async () => {
    const dest = join(cluster.work.path, "outputs", "run-job-1");
    const fetched = await operator(cluster, "bash", [
      join(repoRoot, "tools", "fetch_outputs.sh"),
      "--namespace",
      NAMESPACE,
      "--release",
      JOB_RELEASE,
      "--run-id",
      "run-job-1",
      "--dest",
      dest,
    ]);
    assert.equal(fetched.code, 0, fetched.stdout + fetched.stderr);
    // The run folder (outputs recomputed against the sealed manifest) and the seal preflight served,
    // each verified with the keys the CLI fetches from the issuer's GET /api/seal/keys.
    for (const target of [
      dest,
      join(cluster.work.path, `${LONG_RUN_ID}.svg`),
      join(cluster.work.path, "run-gcs-1.svg"),
    ]) {
      const result = await run(node, [
        bin("cli", "svc"),
        "seal",
        "verify",
        target,
        "--issuer",
        cluster.entitlementUrl,
      ]);
      assert.equal(result.code, 0, `${target}: ${result.stdout}${result.stderr}`);
      assert.match(result.stdout, /VERIFIED/, target);
    }
  });
  it("every seal it issued has a leaf and an inclusion proof Go's sumdb/tlog accepts against a checkpoint Go's sumdb/note verifies with the log key, and a signed provenance (issue 30)", {
    skip: goMissingReason() ?? false,
  }, async () => {
    const checker = await buildSumdbCheck(cluster.work.path);
    const pem = exportPublicKeyPem(cluster.sealKey.publicKey);
    // The long run's seal files as preflight serves them, into a folder of their own.
    const long = join(cluster.work.path, "long-run-seal");
    await mkdir(join(long, "seal"), { recursive: true });
    for (const file of ["log-proof.json", "provenance.intoto.jsonl"]) {
      const served = await fetch(
        `${preflightUrl}/api/outputs/download?runId=${LONG_RUN_ID}&path=seal/${file}`,
        { headers: auth },
      );
      assert.equal(served.status, 200, `seal/${file}: ${await served.clone().text()}`);
      await writeFile(join(long, "seal", file), Buffer.from(await served.arrayBuffer()));
    }
    const sealed = [
      join(cluster.work.path, "outputs", "run-job-1"),
      join(cluster.bucket.path, PROJECT, "results", "run-gcs-1"),
      long,
    ];
    for (const runDir of sealed) {
      assert.deepEqual(
        await goCheckRunFolder(checker, runDir, pem),
        { checkpoint: "ok", inclusion: "ok" },
        runDir,
      );
      const provenance = await readFile(join(runDir, "seal", "provenance.intoto.jsonl"), "utf8");
      assert.equal(provenance.split("\n").length, 2, `${runDir}: one DSSE envelope`);
    }
  });
});
