import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { cp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { gunzipSync } from "node:zlib";
import {
  DEFAULT_PVC_LAYOUT,
  exportPrivateKeyPem,
  generateSigningKey,
  ID_RULE,
  projectSourcesDir,
} from "@svc/core";
import {
  createTempDir,
  findFreePort,
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
import type { KubeObject } from "../support/render.ts";
import { type RenderOptions, renderChart } from "../support/render.ts";
import { repoRoot } from "../support/repo-root.ts";

// Issue 13 item 4: docs/install.md walked in its order on a simulated cluster, from the rendered
// charts only. The Kubernetes API double stores what the charts render; the process kubelet runs
// their Deployments and Jobs as local processes (workspace bins for the images, a temp dir for the
// claim <release>-data, projected tokens from an OIDC issuer double trusted by the entitlement
// service). Where install.md uses kubectl or helm against a real cluster, the test applies the
// rendered objects to the double instead (helm install), and stages inputs by copying into the
// claim's directory (stage_inputs.sh needs kubectl exec, which the double does not serve).
// The ledger is SQLite on the entitlement chart's own claim (database.sqlite.enabled).
// The metering sidecar (ubbagent) is another vendor's image: the job chart runs with
// marketplace.enabled=false and ubbagent.enabled=false here.

const NAMESPACE = "audit";
const JOB_RELEASE = "audit";
const PROJECT = "demo";
const PRINCIPAL = `system:serviceaccount:${NAMESPACE}:${JOB_RELEASE}`; // docs/install.md §2 table, k8s mode
const ADMIN_TOKEN = "whole-system-admin-token-0123456789";
// docs/contracts/run-id.md: a run id longer than a Kubernetes label value (63) goes through
// preflight's launch, the runner, the entitlement service's charge and seal, and preflight's
// listing and download (issue 15).
const LONG_RUN_ID = `run-preflight-${"0123456789".repeat(8)}-long`;
const API_TOKEN = "whole-system-preflight-token-0123";
const node = process.execPath;
const bin = (pkg: string, name: string) => join(repoRoot, "packages", pkg, "bin", `${name}.ts`);

interface Cluster {
  issuer: OidcIssuerDouble;
  double: KubeApiDouble;
  kubelet: ProcessKubelet;
  ledger: TempDir;
  work: TempDir;
  claim: TempDir;
  entitlementUrl: string;
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

describe("whole system on a simulated cluster, in the order of docs/install.md", { timeout: 600_000 }, () => {
  const cluster = {} as Cluster;
  let preflightUrl = "";
  const stops: (() => Promise<unknown>)[] = [];

  before(async () => {
    cluster.work = await createTempDir("svc-system-");
    cluster.claim = await createTempDir("svc-system-claim-");
    cluster.ledger = await createTempDir("svc-system-ledger-");
    stops.push(() => cluster.ledger.remove());
    stops.push(
      () => cluster.claim.remove(),
      () => cluster.work.remove(),
    );
    cluster.issuer = await startOidcIssuerDouble();
    stops.push(() => cluster.issuer.close());
    cluster.double = await startKubeApiDouble({ token: "kubelet-sa-token" });
    stops.push(() => cluster.double.close());
    const entitlementPort = await findFreePort();
    cluster.entitlementUrl = `http://127.0.0.1:${entitlementPort}`;
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
      kubeconfig: await writeKubeconfig({
        server: cluster.double.url,
        token: "kubelet-sa-token",
        namespace: NAMESPACE,
        dir: cluster.work.path,
      }),
      hostPorts: { "ent-svc-entitlement:8080": entitlementPort },
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

  it("§2 grants runs to the principal the job presents (system:serviceaccount:<ns>:<release>)", async () => {
    const response = await fetch(`${cluster.entitlementUrl}/api/entitlement/issue`, {
      method: "POST",
      headers: { "x-svc-admin-token": ADMIN_TOKEN, "content-type": "application/json" },
      body: JSON.stringify({ principal: PRINCIPAL, runs: 2 }),
    });
    assert.equal(response.status, 200, await response.clone().text());
  });

  const jobValues = {
    "config.projectId": PROJECT,
    "config.entitlementAuthMode": "k8s",
    "workloadIdentity.enabled": false,
    "marketplace.enabled": false,
    "ubbagent.enabled": false,
  };

  it("§3, §5 installs the job chart's infrastructure and stages inputs on its claim", async () => {
    const { objects } = await install(cluster, {
      chart: "manifest/chart",
      release: JOB_RELEASE,
      valuesFiles: ["values-standard.yaml"],
      set: { ...jobValues, "job.enabled": false, "config.entitlementUrl": cluster.entitlementUrl },
    });
    assert.ok(
      objects.some((o) => o.kind === "PersistentVolumeClaim" && o.metadata.name === `${JOB_RELEASE}-data`),
    );
    // stage_inputs.sh writes <input-root>/<project>/01_sources on the claim (docs/contracts/storage-layout.md).
    const sources = projectSourcesDir(DEFAULT_PVC_LAYOUT, PROJECT).replace(/^\/data/, cluster.claim.path);
    await cp(join(repoRoot, "examples", "demo", "01_sources"), sources, { recursive: true });
  });

  it("§4 runs an audit with the job chart (deploy_job.sh: job.enabled=true) and the Job completes", async () => {
    await install(cluster, {
      chart: "manifest/chart",
      release: JOB_RELEASE,
      valuesFiles: ["values-standard.yaml"],
      set: {
        ...jobValues,
        "job.enabled": true,
        "config.runId": "run-job-1",
        "config.entitlementUrl": cluster.entitlementUrl,
      },
    });
    const outcome = await cluster.kubelet.waitForJob(NAMESPACE, JOB_RELEASE);
    assert.equal(
      outcome,
      "Complete",
      cluster.kubelet.jobLogs(NAMESPACE, JOB_RELEASE) + cluster.kubelet.events.join("\n"),
    );
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
    assert.equal(LONG_RUN_ID.length, 99);
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
    assert.ok((runner.stdout + runner.stderr).includes(`--run-id "${bad}": ${ID_RULE}`), runner.stderr);
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

  it("verifies both seals offline with the issuer's published keys (svc seal verify --keys)", async () => {
    const keys = await fetch(`${cluster.entitlementUrl}/api/seal/keys`);
    assert.equal(keys.status, 200);
    const keysFile = join(cluster.work.path, "keys.json");
    await writeFile(keysFile, await keys.text());
    for (const runId of ["run-job-1", LONG_RUN_ID]) {
      const result = await run(node, [
        bin("cli", "svc"),
        "seal",
        "verify",
        join(cluster.work.path, `${runId}.svg`),
        "--keys",
        keysFile,
      ]);
      assert.equal(result.code, 0, `${runId}: ${result.stdout}${result.stderr}`);
    }
  });
});
