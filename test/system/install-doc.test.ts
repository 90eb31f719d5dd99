import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { chmod, mkdir, readFile, symlink, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { importSigningKeyPem } from "@svc/core";
import {
  createTempDir,
  type KubeApiDouble,
  startKubeApiDouble,
  type TempDir,
  writeKubeconfig,
} from "@svc/testing";
import { installKubeStandIns, type KubeStandIns } from "../support/kube-stand-in/install.ts";
import { renderChart } from "../support/render.ts";
import { repoRoot } from "../support/repo-root.ts";

// Issue 28 item 5: docs/install.md's first path (plain GKE) and its marketplace path, run as
// written. The blocks marked WALK_MARKER are joined into one bash script per path and run from a
// folder holding the repository's chart/, manifest/ and tools/, with `svc` (packages/cli) and the
// kubectl and Helm stand-ins of test/support/kube-stand-in/ first on PATH: the real kubectl 1.32
// and Helm 3.17 parse every line, then `kubectl create namespace|secret` and `helm upgrade
// --install` (the real `helm template`) act on the Kubernetes API double, as in whole-system.test.ts.
// Placeholders (<NAME>) are the only edits, each given a value here.

const WALK_MARKER = "<!-- walked by test/system/install-doc.test.ts -->";
const MARKETPLACE_HEADING = "## Marketplace deployments";
const DIGEST = `sha256:${"cd".repeat(32)}`;

interface WalkedBlock {
  heading: string;
  script: string;
}

/** The marked ```sh blocks of install.md, each with the `## ` heading it sits under. */
function walkedBlocks(markdown: string): WalkedBlock[] {
  const blocks: WalkedBlock[] = [];
  let heading = "";
  const lines = markdown.split("\n");
  for (let at = 0; at < lines.length; at++) {
    const line = lines[at] ?? "";
    if (line.startsWith("## ")) heading = line;
    if (line !== WALK_MARKER) continue;
    assert.equal(lines[at + 1], "```sh", `install.md line ${at + 2}: a walked block is a sh block`);
    const end = lines.indexOf("```", at + 2);
    assert.ok(end > at, `install.md line ${at + 2}: unterminated block`);
    blocks.push({ heading, script: lines.slice(at + 2, end).join("\n") });
    at = end;
  }
  return blocks;
}

function run(
  script: string,
  cwd: string,
  env: Record<string, string>,
): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(
      "bash",
      ["-c", `set -euo pipefail\n${script}`],
      { cwd, env, encoding: "utf8" },
      (error, stdout, stderr) =>
        resolve({ code: error ? (typeof error.code === "number" ? error.code : 1) : 0, stdout, stderr }),
    );
  });
}

describe("docs/install.md, run as written on the Kubernetes API double", { timeout: 300_000 }, () => {
  let work: TempDir;
  let double: KubeApiDouble;
  let standIns: KubeStandIns;
  let env: Record<string, string>;
  let blocks: WalkedBlock[];
  let placeholders: Record<string, string>;
  /** The operator's working folder: chart/, manifest/ and tools/ of the repository. */
  let clone = "";

  before(async () => {
    work = await createTempDir("svc-install-doc-");
    double = await startKubeApiDouble({ token: "operator-token" });
    const kubeconfig = await writeKubeconfig({ server: double.url, token: "operator-token", dir: work.path });
    standIns = await installKubeStandIns(join(work.path, "kube-stand-in"));
    // The operator's folder: the paths install.md uses are relative to a clone of the repository.
    clone = join(work.path, "clone");
    await mkdir(clone);
    for (const dir of ["chart", "manifest", "tools"]) await symlink(join(repoRoot, dir), join(clone, dir));
    const bin = join(work.path, "bin");
    await mkdir(bin);
    await writeFile(
      join(bin, "svc"),
      `#!/bin/sh\nexec '${process.execPath}' '${join(repoRoot, "packages", "cli", "bin", "svc.ts")}' "$@"\n`,
    );
    await chmod(join(bin, "svc"), 0o755);
    const reportingKey = join(work.path, "reporting-key.json");
    await writeFile(reportingKey, '{"type":"service_account"}\n');
    placeholders = {
      "<CONSUMER_ID>": "project:consumer-1",
      "<ENTITLEMENT_ID>": "entitlement-1",
      "<REPORTING_KEY_FILE>": reportingKey,
      "<UBBAGENT_DIGEST>": DIGEST,
    };
    env = {
      PATH: `${bin}:${standIns.bin}:${process.env.PATH ?? ""}`,
      HOME: work.path,
      XDG_CONFIG_HOME: join(work.path, "config"),
      KUBECONFIG: kubeconfig,
    };
    blocks = walkedBlocks(await readFile(join(repoRoot, "docs", "install.md"), "utf8"));
  });

  after(async () => {
    await double?.close();
    await work?.remove();
  });

  /** The path's blocks as one script, placeholders filled in; every placeholder must have a value. */
  function scriptOf(marketplace: boolean): string {
    const script = blocks
      .filter((block) => (block.heading === MARKETPLACE_HEADING) === marketplace)
      .map((block) => block.script)
      .join("\n");
    const filled = Object.entries(placeholders).reduce(
      (text, [from, to]) => text.replaceAll(from, to),
      script,
    );
    assert.doesNotMatch(filled, /<[A-Z_]+>/, "a placeholder of install.md has no value in this test");
    return filled;
  }

  const secretData = (namespace: string, name: string): Record<string, string> => {
    const secret = double.getCoreObject("secrets", namespace, name);
    assert.ok(secret, `no secret ${namespace}/${name}`);
    const data = (secret as { data?: Record<string, string> }).data ?? {};
    return Object.fromEntries(
      Object.entries(data).map(([k, v]) => [k, Buffer.from(v, "base64").toString("utf8")]),
    );
  };

  it("marks the namespace, secret and chart commands of both paths", () => {
    const plain = scriptOf(false);
    for (const command of [
      "kubectl create namespace entitlement",
      "kubectl create namespace audit",
      "svc keys generate",
      "kubectl create secret generic seal-signing-key",
      "kubectl create secret generic ledger-db",
      "helm upgrade --install ent ./chart/entitlement",
      "helm upgrade --install audit ./manifest/chart",
      "-f manifest/chart/values-gke.yaml",
      "helm upgrade --install svc-preflight ./chart/preflight",
    ])
      assert.ok(plain.includes(command), `the first path lacks: ${command}`);
    const marketplace = scriptOf(true);
    assert.ok(marketplace.includes("kubectl create secret generic svc-reporting-secret"));
    assert.ok(!marketplace.includes("values-gke.yaml"));
  });

  it("the first path (plain GKE) makes the namespaces, the signing key and secrets, and installs all three charts without marketplace objects", async () => {
    const result = await run(scriptOf(false), clone, env);
    assert.equal(result.code, 0, result.stdout + result.stderr);
    assert.match(result.stdout, /^key id: ed25519:[0-9a-f]{32}$/m);
    for (const namespace of ["entitlement", "audit"]) assert.ok(double.listNamespaces().includes(namespace));
    // The signing key svc made, in the secret the entitlement chart reads (key signing-key.pem).
    const pem = secretData("entitlement", "seal-signing-key")["signing-key.pem"] ?? "";
    assert.equal(pem, await readFile(join(clone, "seal-key", "signing-key.pem"), "utf8"));
    assert.equal(importSigningKeyPem(pem).privateKey.asymmetricKeyType, "ed25519");
    assert.match(secretData("entitlement", "ledger-db").SVC_DATABASE_URL ?? "", /^postgres:\/\//);
    const entitlement = double.getObject(
      "/apis/apps/v1/namespaces/entitlement/deployments/ent-svc-entitlement",
    );
    assert.ok(entitlement, "the entitlement Deployment");
    assert.match(JSON.stringify(entitlement), /"seal-signing-key"/);
    assert.match(JSON.stringify(entitlement), /"ledger-db"/);
    // Job chart infrastructure: the claim, and nothing of the marketplace.
    assert.ok(double.getCoreObject("persistentvolumeclaims", "audit", "audit-data"));
    assert.equal(double.getCoreObject("configmaps", "audit", "audit-ubbagent"), undefined);
    const preflight = double.getObject("/apis/apps/v1/namespaces/audit/deployments/svc-preflight-preflight");
    assert.ok(preflight, "the preflight Deployment");
    assert.match(JSON.stringify(preflight), /"claimName":"audit-data"/);
    assert.equal(double.getCoreObject("persistentvolumeclaims", "audit", "svc-preflight-data"), undefined);
    assert.ok(double.getCoreObject("secrets", "audit", "svc-preflight-preflight-auth"));
    assert.doesNotMatch(JSON.stringify(preflight), /SVC_METERING/);
    const calls = (await standIns.calls()).map(
      (call) => `${call.program} ${call.args.slice(0, 2).join(" ")}`,
    );
    assert.deepEqual(calls, [
      "kubectl create namespace",
      "kubectl create namespace",
      "kubectl create secret",
      "kubectl create secret",
      "helm upgrade --install",
      "helm upgrade --install",
      "helm upgrade --install",
    ]);
  });

  it("the marketplace path adds the reporting secret and installs the pinned metering agent", async () => {
    const result = await run(scriptOf(true), clone, env);
    assert.equal(result.code, 0, result.stdout + result.stderr);
    assert.deepEqual(Object.keys(secretData("audit", "svc-reporting-secret")).sort(), [
      "consumer-id",
      "entitlement-id",
      "reporting-key",
    ]);
    assert.ok(double.getCoreObject("configmaps", "audit", "audit-ubbagent"), "the metering agent's config");
    const preflight = double.getObject("/apis/apps/v1/namespaces/audit/deployments/svc-preflight-preflight");
    assert.match(
      JSON.stringify(preflight),
      new RegExp(`gcr\\.io/cloud-marketplace-tools/metering/ubbagent@${DIGEST}`),
    );
  });

  it("every values file beside the job chart renders on the first path's values (helm template)", async () => {
    const set = {
      "config.entitlementUrl": "https://entitlement.example.com",
      "workloadIdentity.cloudServiceAccount": "audit-runner@my-project.iam.gserviceaccount.com",
    };
    for (const valuesFiles of [
      ["values-standard.yaml", "values-gke.yaml"],
      ["values-standard.yaml", "values-deep.yaml", "values-gke.yaml"],
    ]) {
      const objects = await renderChart({
        chart: "manifest/chart",
        release: "audit",
        namespace: "audit",
        valuesFiles,
        set,
      });
      assert.deepEqual(
        objects.map((o) => o.kind).sort(),
        ["ConfigMap", "PersistentVolumeClaim", "ServiceAccount"],
        valuesFiles.join(" "),
      );
    }
  });
});
