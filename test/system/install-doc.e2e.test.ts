import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { chmod, mkdir, readFile, symlink, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { runCli } from "@svc/cli";
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
// written; issue 37 item 9: its generic (non-GKE) path too, and every `svc` command it prints checked
// against `svc --help`. The blocks marked WALK_MARKER are joined into one bash script per path and run from a
// folder holding the repository's chart/, manifest/ and tools/, with `svc` (packages/cli) and the
// kubectl and Helm stand-ins of test/support/kube-stand-in/ first on PATH: the real kubectl 1.32
// and Helm 3.17 parse every line, then `kubectl create namespace|secret` and `helm upgrade
// --install` (the real `helm template`) act on the Kubernetes API double, as in whole-system.e2e.test.ts.
// Placeholders (<NAME>) are the only edits, each given a value here.

const WALK_MARKER = "<!-- walked by test/system/install-doc.e2e.test.ts -->";
const MARKETPLACE_HEADING = "## Marketplace deployments";
const GENERIC_HEADING = "## Generic Kubernetes (not GKE)";
// A cluster issuer as EKS names them (docs/install.md, generic path).
const ISSUER_URL = "https://oidc.eks.eu-west-1.amazonaws.com/id/0123456789ABCDEF0123456789ABCDEF";
type InstallPath = "gke" | "generic" | "marketplace";
const pathOf = (heading: string): InstallPath =>
  heading === MARKETPLACE_HEADING ? "marketplace" : heading === GENERIC_HEADING ? "generic" : "gke";
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

/**
 * Every `svc …` command of install.md: each line of its ```sh blocks (continuation lines joined,
 * comments dropped, split at && | ;) and each `svc …` code span of its prose, `npx` dropped.
 */
function svcCommandsOf(markdown: string): string[] {
  const commands: string[] = [];
  const take = (text: string) => {
    for (const segment of text.split(/&&|\|\|?|;/)) {
      const match = /^\s*(?:npx\s+)?(svc\s.*|svc)$/.exec(segment.replace(/\s#.*$/, "").trimEnd());
      if (match?.[1]) commands.push(match[1].trim());
    }
  };
  for (const block of markdown.matchAll(/^```sh\n([\s\S]*?)^```$/gm))
    for (const line of (block[1] ?? "").replace(/\\\n\s*/g, " ").split("\n")) take(line);
  for (const span of markdown.matchAll(/`((?:npx )?svc [^`]+)`/g)) take((span[1] ?? "").replace(/\s+/g, " "));
  return commands;
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
      "<ISSUER_URL>": ISSUER_URL,
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
  function scriptOf(path: InstallPath): string {
    const script = blocks
      .filter((block) => pathOf(block.heading) === path)
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
    const plain = scriptOf("gke");
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
      "svc context add prod",
    ])
      assert.ok(plain.includes(command), `the first path lacks: ${command}`);
    const generic = scriptOf("generic");
    for (const command of [
      "config.entitlementAuthMode=k8s",
      "app.entitlementAuthMode=k8s",
      "trustedIssuers=",
    ])
      assert.ok(generic.includes(command), `the generic path lacks: ${command}`);
    const marketplace = scriptOf("marketplace");
    assert.ok(marketplace.includes("kubectl create secret generic svc-reporting-secret"));
    assert.ok(!marketplace.includes("values-gke.yaml"));
  });

  it("the first path (plain GKE) makes the namespaces, the signing key and secrets, and installs all three charts without marketplace objects", async () => {
    const result = await run(scriptOf("gke"), clone, env);
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
    // svc context add saved the context, referring to the secrets rather than copying them.
    const saved = JSON.parse(
      await readFile(join(env.XDG_CONFIG_HOME as string, "svc", "config.json"), "utf8"),
    ) as { current: string; contexts: Record<string, { preflight: unknown; entitlement: unknown }> };
    assert.equal(saved.current, "prod");
    assert.deepEqual(saved.contexts.prod, {
      preflight: {
        url: "http://127.0.0.1:8080",
        token: {
          kind: "k8s",
          namespace: "audit",
          name: "svc-preflight-preflight-auth",
          key: "K8S_API_TOKENS",
        },
        namespace: "audit",
      },
      entitlement: {
        url: "https://entitlement.example.com",
        admin: {
          kind: "k8s",
          namespace: "entitlement",
          name: "ent-svc-entitlement-admin",
          key: "SVC_ADMIN_TOKENS",
        },
      },
    });
  });

  it("the generic path (not GKE) trusts the cluster's issuer and installs the job and preflight in the k8s auth mode, without workload identity", async () => {
    const result = await run(scriptOf("generic"), clone, env);
    assert.equal(result.code, 0, result.stdout + result.stderr);
    const text = (object: unknown) => JSON.stringify(object);
    const entitlement = double.getObject(
      "/apis/apps/v1/namespaces/entitlement/deployments/ent-svc-entitlement",
    );
    assert.match(text(entitlement), new RegExp(`"name":"SVC_TRUSTED_ISSUERS","value":"${ISSUER_URL}"`));
    const jobConfig = text(double.getCoreObject("configmaps", "audit", "audit-config"));
    assert.match(jobConfig, /"SVC_ENTITLEMENT_AUTH_MODE":"k8s"/);
    assert.match(jobConfig, /"SVC_K8S_TOKEN_FILE":"\/var\/run\/secrets\/svc\/token"/);
    const serviceAccount = double.getObject("/api/v1/namespaces/audit/serviceaccounts/audit");
    assert.ok(serviceAccount, "the job's service account audit");
    assert.doesNotMatch(text(serviceAccount), /iam\.gke\.io/);
    const preflight = double.getObject("/apis/apps/v1/namespaces/audit/deployments/svc-preflight-preflight");
    assert.match(text(preflight), /"name":"SVC_ENTITLEMENT_AUTH_MODE","value":"k8s"/);
  });

  it("every svc command install.md prints names a command svc has, with options its --help lists", async () => {
    const markdown = await readFile(join(repoRoot, "docs", "install.md"), "utf8");
    const commands = svcCommandsOf(markdown);
    assert.ok(commands.length >= 30, `only ${commands.length} svc commands found`);
    // `svc <path> --help`, in this process (runCli is the bin's code path; help loads no command module).
    const helps = new Map<string, Promise<{ code: number; stdout: string; stderr: string }>>();
    const helpOf = (path: readonly string[]) => {
      const key = path.join(" ");
      let help = helps.get(key);
      if (help === undefined) {
        const out = { stdout: "", stderr: "" };
        help = runCli(
          [...path, "--help"],
          {
            stdout: (text) => {
              out.stdout += text;
            },
            stderr: (text) => {
              out.stderr += text;
            },
          },
          env,
        ).then((code) => ({ code, ...out }));
        helps.set(key, help);
      }
      return help;
    };
    const problems: string[] = [];
    for (const command of commands) {
      const words = command.split(/\s+/).slice(1);
      // The command path: a group (runs, seal, …) and, when the group lists commands, one of them.
      const path: string[] = [];
      const group = words[0] ?? "";
      if (!group.startsWith("-")) {
        path.push(group);
        const groupHelp = await helpOf(path);
        if (groupHelp.code !== 0) {
          problems.push(`${command}: svc has no command ${group}`);
          continue;
        }
        if (/^Commands:/m.test(groupHelp.stdout)) path.push(words[1] ?? "");
      }
      const help = await helpOf(path);
      // An unknown command under a group answers with the group's help: the usage line tells.
      if (help.code !== 0 || !help.stdout.startsWith(`Usage: ${["svc", ...path].join(" ")} `)) {
        problems.push(`${command}: svc ${path.join(" ")} --help failed: ${help.stderr.trim()}`);
        continue;
      }
      for (const word of words.slice(path.length)) {
        const option = /^(--?[A-Za-z][\w-]*)/.exec(word)?.[1];
        if (option === undefined) continue;
        if (!new RegExp(`(^|[\\s,])${option}([\\s,=]|$)`, "m").test(help.stdout))
          problems.push(`${command}: svc ${path.join(" ")} has no option ${option}`);
      }
    }
    assert.deepEqual(problems, []);
  });

  it("the marketplace path adds the reporting secret and installs the pinned metering agent", async () => {
    const result = await run(scriptOf("marketplace"), clone, env);
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
