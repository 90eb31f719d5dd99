import assert from "node:assert/strict";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, it } from "node:test";
import { makeTempDir } from "../temp/temp-dir.ts";
import { startKubeApiDouble } from "./kube-api-double.ts";
import { startProcessKubelet } from "./process-kubelet.ts";

// The API double's bare pods, pods/exec and writes, with the process kubelet behind them: what the
// operator scripts' kubectl and helm stand-ins (test/support/kube-stand-in) call.

const TOKEN = "pod-exec-token";

function helperPod(name: string) {
  return {
    apiVersion: "v1",
    kind: "Pod",
    metadata: { name, labels: { "app.kubernetes.io/component": "data-helper" } },
    spec: {
      restartPolicy: "Never",
      automountServiceAccountToken: false,
      containers: [
        {
          name: "helper",
          image: "busybox:1.36.1",
          command: ["sleep", "3600"],
          volumeMounts: [{ name: "data", mountPath: "/data" }],
        },
      ],
      volumes: [{ name: "data", persistentVolumeClaim: { claimName: "rel-data" } }],
    },
  };
}

async function call(url: string, method: string, path: string, body?: unknown, raw?: Buffer) {
  const headers: Record<string, string> = { authorization: `Bearer ${TOKEN}` };
  if (body !== undefined) headers["content-type"] = "application/json";
  const response = await fetch(`${url}${path}`, {
    method,
    headers,
    ...(raw !== undefined ? { body: raw } : body !== undefined ? { body: JSON.stringify(body) } : {}),
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

async function waitForPhase(url: string, path: string, phase: string): Promise<void> {
  const deadline = Date.now() + 30_000;
  for (;;) {
    const reply = await call(url, "GET", path);
    if ((reply.body.status as { phase?: string } | undefined)?.phase === phase) return;
    if (Date.now() > deadline)
      throw new Error(`${path} never reached ${phase}: ${JSON.stringify(reply.body)}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe("API double: pods, exec and writes, served with the process kubelet", () => {
  it("runs a created pod, execs in it on the claim's host dir (stdin, exit code), and stops it on delete", async (t) => {
    const claim = await makeTempDir("svc-pod-exec-claim-", t);
    const double = await startKubeApiDouble({ token: TOKEN });
    t.after(() => double.close());
    const kubelet = startProcessKubelet({ double, entrypoints: {}, claims: { "rel-data": claim } });
    t.after(() => kubelet.stop());
    const pods = "/api/v1/namespaces/ns/pods";

    assert.equal((await call(double.url, "POST", pods, helperPod("helper"))).status, 201);
    assert.equal((await call(double.url, "POST", pods, helperPod("helper"))).status, 409);
    await waitForPhase(double.url, `${pods}/helper`, "Running");
    const ready = await call(double.url, "GET", `${pods}/helper`);
    assert.deepEqual((ready.body.status as { conditions: unknown[] }).conditions, [
      { type: "Ready", status: "True" },
    ]);

    const written = await call(
      double.url,
      "POST",
      `${pods}/helper/exec?command=sh&command=-c&command=${encodeURIComponent('cat > "$1"')}&command=sh&command=/data/in.txt&stdin=true`,
      undefined,
      Buffer.from("staged through exec"),
    );
    assert.equal(written.status, 200, JSON.stringify(written.body));
    assert.equal(written.body.exitCode, 0);
    assert.equal(
      await readFile(join(claim, "in.txt"), "utf8"),
      "staged through exec",
      "/data is the claim's dir",
    );

    const missing = await call(
      double.url,
      "POST",
      `${pods}/helper/exec?command=test&command=-d&command=/data/nowhere`,
    );
    assert.equal(missing.body.exitCode, 1, "the command's own exit status");
    const none = await call(double.url, "POST", `${pods}/helper/exec`);
    assert.equal(none.status, 400);

    assert.equal((await call(double.url, "DELETE", `${pods}/helper`)).status, 200);
    assert.equal((await call(double.url, "GET", `${pods}/helper`)).status, 404);
    assert.equal((await call(double.url, "POST", `${pods}/helper/exec?command=true`)).status, 404);
    // A new pod of the same name runs again (the scripts replace their helper pods).
    assert.equal((await call(double.url, "POST", pods, helperPod("helper"))).status, 201);
    await waitForPhase(double.url, `${pods}/helper`, "Running");
  });

  it("creates namespaces once, stores other kinds, and refuses a changed Job template (immutable)", async (t) => {
    const double = await startKubeApiDouble({ token: TOKEN });
    t.after(() => double.close());
    const namespace = { apiVersion: "v1", kind: "Namespace", metadata: { name: "audit" } };
    assert.equal((await call(double.url, "POST", "/api/v1/namespaces", namespace)).status, 201);
    const again = await call(double.url, "POST", "/api/v1/namespaces", namespace);
    assert.equal(again.status, 409);
    assert.equal(again.body.reason, "AlreadyExists");

    const sa = { apiVersion: "v1", kind: "ServiceAccount", metadata: { name: "audit" } };
    const saPath = "/api/v1/namespaces/audit/serviceaccounts";
    assert.equal((await call(double.url, "POST", saPath, sa)).status, 201);
    assert.equal((await call(double.url, "GET", `${saPath}/audit`)).status, 200);
    assert.ok(double.getObject(`${saPath}/audit`));

    const job = (image: string) => ({
      apiVersion: "batch/v1",
      kind: "Job",
      metadata: { name: "audit", namespace: "audit" },
      spec: {
        template: { spec: { restartPolicy: "Never", containers: [{ name: "runner", image }] } },
      },
    });
    const jobs = "/apis/batch/v1/namespaces/audit/jobs";
    assert.equal((await call(double.url, "POST", jobs, job("runner:1"))).status, 201);
    assert.equal((await call(double.url, "PUT", `${jobs}/audit`, job("runner:1"))).status, 200);
    const changed = await call(double.url, "PUT", `${jobs}/audit`, job("runner:2"));
    assert.equal(changed.status, 422);
    assert.match(String(changed.body.message), /field is immutable/);
  });
});
