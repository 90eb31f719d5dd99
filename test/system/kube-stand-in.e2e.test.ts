import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import {
  createTempDir,
  type KubeApiDouble,
  startKubeApiDouble,
  type TempDir,
  writeKubeconfig,
} from "@svc/testing";
import { installKubeStandIns, type KubeStandIns } from "../support/kube-stand-in/install.ts";
import { repoRoot } from "../support/repo-root.ts";

// The kubectl and helm stand-ins of the whole-system test refuse what the real tools refuse (their
// own parsers decide), refuse what they do not simulate, and report API errors as kubectl does.

const TOKEN = "stand-in-token";

describe("kubectl and helm stand-ins", () => {
  let dir: TempDir;
  let double: KubeApiDouble;
  let standIns: KubeStandIns;
  let kubeconfig: string;

  before(async () => {
    dir = await createTempDir("svc-stand-in-");
    double = await startKubeApiDouble({ token: TOKEN });
    kubeconfig = await writeKubeconfig({ server: double.url, token: TOKEN, dir: dir.path });
    standIns = await installKubeStandIns(join(dir.path, "kube"));
  });

  after(async () => {
    await double.close();
    await dir.remove();
  });

  const run = (program: "kubectl" | "helm", args: string[]) =>
    new Promise<{ code: number; stdout: string; stderr: string }>((resolve) => {
      execFile(
        join(standIns.bin, program),
        args,
        { env: { PATH: process.env.PATH ?? "", KUBECONFIG: kubeconfig }, encoding: "utf8" },
        (error, stdout, stderr) =>
          resolve({ code: error ? (typeof error.code === "number" ? error.code : 1) : 0, stdout, stderr }),
      );
    });

  it("refuses a flag or a form the real kubectl refuses, with kubectl's own message", async () => {
    const bogus = await run("kubectl", ["delete", "pod", "p", "--namespace", "ns", "--no-such-flag"]);
    assert.notEqual(bogus.code, 0);
    assert.match(bogus.stderr, /unknown flag: --no-such-flag/);
    const oldExec = await run("kubectl", ["exec", "--namespace", "ns", "p", "ls"]);
    assert.notEqual(oldExec.code, 0);
    assert.match(oldExec.stderr, /exec \[POD\] \[COMMAND\] is not supported anymore/);
    const badTimeout = await run("kubectl", [
      "wait",
      "--namespace",
      "ns",
      "--for=condition=Ready",
      "pod/p",
      "--timeout=soon",
    ]);
    assert.notEqual(badTimeout.code, 0);
    assert.match(badTimeout.stderr, /invalid argument "soon" for "--timeout"/);
  });

  it("refuses what it does not simulate, and answers API errors as kubectl prints them", async () => {
    const portForward = await run("kubectl", ["port-forward", "--namespace", "ns", "svc/x", "8080:8080"]);
    assert.equal(portForward.code, 1);
    assert.match(portForward.stderr, /kubectl port-forward is not simulated/);
    const created = await run("kubectl", ["create", "namespace", "audit"]);
    assert.equal(created.code, 0, created.stderr);
    assert.equal(created.stdout, "namespace/audit created\n");
    const again = await run("kubectl", ["create", "namespace", "audit"]);
    assert.equal(again.code, 1);
    assert.match(again.stderr, /^Error from server \(AlreadyExists\): namespaces "audit" already exists/);
    const missing = await run("kubectl", [
      "get",
      "job",
      "nope",
      "--namespace",
      "audit",
      "-o",
      "jsonpath={.status.succeeded}",
    ]);
    assert.equal(missing.code, 1);
    assert.match(missing.stderr, /Error from server \(NotFound\): jobs\.batch "nope" not found/);
    const ignored = await run("kubectl", [
      "delete",
      "job",
      "nope",
      "--namespace",
      "audit",
      "--ignore-not-found",
    ]);
    assert.equal(ignored.code, 0, ignored.stderr);
  });

  it("helm: refuses other commands, flags the real Helm refuses, and values the chart's schema refuses", async () => {
    const chart = join(repoRoot, "manifest", "chart");
    const install = await run("helm", ["install", "audit", chart, "--namespace", "audit"]);
    assert.equal(install.code, 1);
    assert.match(install.stderr, /only "helm upgrade --install" is simulated/);
    const bogus = await run("helm", [
      "upgrade",
      "--install",
      "audit",
      chart,
      "--namespace",
      "audit",
      "--no-such-flag",
    ]);
    assert.notEqual(bogus.code, 0);
    assert.match(bogus.stderr, /unknown flag: --no-such-flag/);
    const misspelt = await run("helm", [
      "upgrade",
      "--install",
      "audit",
      chart,
      "--namespace",
      "audit",
      "--set",
      "jobb.enabled=false",
    ]);
    assert.notEqual(misspelt.code, 0);
    assert.match(misspelt.stderr, /UPGRADE FAILED/);
    assert.deepEqual(await standIns.calls(), [
      { program: "kubectl", args: ["create", "namespace", "audit"] },
      { program: "kubectl", args: ["create", "namespace", "audit"] },
      {
        program: "kubectl",
        args: ["get", "job", "nope", "--namespace", "audit", "-o", "jsonpath={.status.succeeded}"],
      },
      { program: "kubectl", args: ["delete", "job", "nope", "--namespace", "audit", "--ignore-not-found"] },
    ]);
  });
});
