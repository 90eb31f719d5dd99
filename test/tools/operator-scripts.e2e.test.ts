import assert from "node:assert/strict";
import { execFileSync, spawnSync } from "node:child_process";
import { mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { repoRoot } from "../support/repo-root.ts";
import { createStandIns, type StandIns } from "../support/stand-ins.ts";

const scripts = [
  "tools/deploy_job.sh",
  "tools/stage_inputs.sh",
  "tools/fetch_outputs.sh",
  "tools/clean_uninstall.sh",
];
const chartDir = join(repoRoot, "manifest/chart");
const ns = "audit-ns";

let standIns: StandIns;
let work: string;
let sources: string;

before(async () => {
  standIns = await createStandIns();
  work = await mkdtemp(join(tmpdir(), "svc-tools-"));
  sources = join(work, "proj-1", "01_sources");
  await mkdir(sources, { recursive: true });
  await writeFile(join(sources, "sources.json"), '{"portfolio_selected_csv":"portfolio_selected.csv"}\n');
  await writeFile(join(sources, "portfolio_selected.csv"), "candidate_id,smiles\nc1,CCO\n");
});

after(async () => {
  await standIns.cleanup();
  await rm(work, { recursive: true, force: true });
});

/** A call rendered as one line (program and arguments) for readable sequence assertions. */
const show = (call: string[]): string => call.join(" ");

/** Spec §2.8 step 7: every kubectl and helm call names the namespace. */
function assertNamespaceOnEveryCall(calls: string[][]): void {
  for (const call of calls.filter((c) => c[0] === "kubectl" || c[0] === "helm")) {
    const at = call.indexOf("--namespace");
    assert.ok(at > 0 && call[at + 1] === ns, `no --namespace ${ns} in: ${show(call)}`);
  }
}

function tarList(archive: Buffer): string[] {
  return execFileSync("tar", ["-tf", "-"], { input: archive }).toString().split("\n").filter(Boolean).sort();
}

describe("operator scripts: common rules", () => {
  for (const script of scripts) {
    it(`${script} sets -euo pipefail and prints --help`, async () => {
      const text = await readFile(join(repoRoot, script), "utf8");
      assert.match(text, /^set -euo pipefail$/m);
      const run = await standIns.run(script, ["--help"]);
      assert.equal(run.code, 0);
      assert.match(run.stdout, /^Usage: tools\//);
      assert.deepEqual(run.calls, [], "--help calls nothing");
    });

    it(`${script} rejects a missing required option with exit 2 and calls nothing`, async () => {
      const run = await standIns.run(script, ["--namespace", ns]);
      assert.equal(run.code, 2);
      assert.match(run.stderr, /error: --\w[\w-]* is required/);
      assert.deepEqual(run.calls, []);
    });
  }

  it("every script is shellcheck-clean", (t) => {
    const probe = spawnSync("shellcheck", ["--version"]);
    if (probe.error) {
      // CI installs shellcheck (.ci/run); there its absence is a failure, not a skip.
      assert.notEqual(process.env.CI, "true", "shellcheck is not installed");
      t.skip("shellcheck is not installed (apt-get install shellcheck)");
      return;
    }
    const result = spawnSync(
      "shellcheck",
      ["--external-sources", "--severity=style", ...scripts, "tools/_common.sh"],
      {
        cwd: repoRoot,
        encoding: "utf8",
      },
    );
    assert.equal(result.status, 0, result.stdout + result.stderr);
  });
});

describe("tools/deploy_job.sh", () => {
  const base = ["--namespace", ns, "--release", "audit", "--project-id", "proj-1", "--run-id", "run_1"];
  const succeeded = { pattern: "^kubectl get job audit", stdout: "1:" };

  it("walks spec §2.8 steps 2-6 in order, deleting the old Job before the upgrade, with --namespace on every call", async () => {
    const run = await standIns.run("tools/deploy_job.sh", [...base, "--inputs", join(work, "proj-1")], {
      rules: [succeeded],
    });
    assert.equal(run.code, 0, run.stderr);
    const values = [
      "--values",
      join(chartDir, "values-standard.yaml"),
      "--set-string",
      "config.projectId=proj-1",
      "--set-string",
      "config.runId=run_1",
      "--set-string",
      "config.runMode=standard",
      "--set-string",
      "storage.type=pvc",
    ];
    const helper = "audit-stage-inputs";
    assert.deepEqual(run.calls.map(show), [
      `kubectl create namespace ${ns} --namespace ${ns}`,
      show([
        "helm",
        "upgrade",
        "--install",
        "audit",
        chartDir,
        "--namespace",
        ns,
        ...values,
        "--set",
        "job.enabled=false",
      ]),
      `kubectl delete pod ${helper} --namespace ${ns} --ignore-not-found --wait=true`,
      `kubectl apply --namespace ${ns} -f -`,
      `kubectl wait --namespace ${ns} --for=condition=Ready pod/${helper} --timeout=180s`,
      `kubectl exec --namespace ${ns} ${helper} -- sh -c rm -rf "$1" && mkdir -p "$1" sh /data/input/proj-1/01_sources`,
      `kubectl exec -i --namespace ${ns} ${helper} -- tar -xf - -C /data/input/proj-1/01_sources`,
      `kubectl exec --namespace ${ns} ${helper} -- ls -la /data/input/proj-1/01_sources`,
      `kubectl delete pod ${helper} --namespace ${ns} --ignore-not-found --wait=false`,
      `kubectl delete job audit --namespace ${ns} --ignore-not-found --cascade=background --wait=true --timeout=180s`,
      show([
        "helm",
        "upgrade",
        "--install",
        "audit",
        chartDir,
        "--namespace",
        ns,
        ...values,
        "--set",
        "job.enabled=true",
      ]),
      `kubectl logs job/audit --namespace ${ns} --all-containers=true --timestamps=true --prefix=true --follow=true --pod-running-timeout=86400s`,
      `kubectl get job audit --namespace ${ns} -o jsonpath={.status.succeeded}:{.status.failed}`,
    ]);
    assertNamespaceOnEveryCall(run.calls);
    assert.match(run.stderr, /tools\/fetch_outputs\.sh --namespace audit-ns --release audit --run-id run_1/);
  });

  it("with --preflight co-locates the Job and the staging helper with the preflight pod (ReadWriteOnce)", async () => {
    const run = await standIns.run(
      "tools/deploy_job.sh",
      [...base, "--inputs", join(work, "proj-1"), "--preflight", "svc-preflight"],
      { rules: [succeeded] },
    );
    assert.equal(run.code, 0, run.stderr);
    const installs = run.calls.filter((c) => c[0] === "helm");
    assert.equal(installs.length, 2);
    for (const install of installs)
      assert.ok(
        show(install).includes("--set-string storage.pvc.coLocateWithPreflight=svc-preflight"),
        show(install),
      );
    const manifest = (await run.stdinOf(run.calls.findIndex((c) => c[1] === "apply"))).toString();
    assert.match(
      manifest,
      /podAffinity:[\s\S]*app.kubernetes.io\/instance: svc-preflight[\s\S]*topologyKey: kubernetes.io\/hostname/,
    );
  });

  it("layers the GPU overlay in deep mode for both installs and passes extra values after the profile", async () => {
    const run = await standIns.run(
      "tools/deploy_job.sh",
      [...base, "--mode", "deep", "-f", "/tmp/site.yaml", "--set", "config.entitlementUrl=https://e.example"],
      { rules: [succeeded] },
    );
    assert.equal(run.code, 0, run.stderr);
    const installs = run.calls.filter((c) => c[0] === "helm");
    assert.equal(installs.length, 2);
    for (const call of installs) {
      const files = call.flatMap((arg, i) => (call[i - 1] === "--values" ? [arg] : []));
      assert.deepEqual(files, [
        join(chartDir, "values-standard.yaml"),
        join(chartDir, "values-deep.yaml"),
        "/tmp/site.yaml",
      ]);
      assert.ok(call.includes("config.runMode=deep"));
      assert.ok(call.includes("config.entitlementUrl=https://e.example"));
    }
    // Same values for both: only job.enabled differs.
    assert.deepEqual(installs[0]?.slice(0, -1), installs[1]?.slice(0, -1));
    assertNamespaceOnEveryCall(run.calls);
  });

  it("carries on when the namespace already exists", async () => {
    const run = await standIns.run("tools/deploy_job.sh", base, {
      rules: [
        {
          pattern: "^kubectl create namespace",
          exitCode: 1,
          stderr: 'Error from server (AlreadyExists): namespaces "audit-ns" already exists',
        },
        succeeded,
      ],
    });
    assert.equal(run.code, 0, run.stderr);
    assert.ok(run.calls.some((c) => c[0] === "helm"));
  });

  it("stops when the namespace cannot be created for another reason", async () => {
    const run = await standIns.run("tools/deploy_job.sh", base, {
      rules: [{ pattern: "^kubectl create namespace", exitCode: 1, stderr: "Error from server (Forbidden)" }],
    });
    assert.equal(run.code, 1);
    assert.match(run.stderr, /could not create namespace/);
    assert.equal(run.calls.length, 1);
  });

  it("exits 1 and describes the Job when it failed", async () => {
    const run = await standIns.run("tools/deploy_job.sh", base, {
      rules: [{ pattern: "^kubectl get job audit", stdout: ":1" }],
    });
    assert.equal(run.code, 1);
    assert.match(run.stderr, /Job audit failed \(run run_1\)/);
    assert.equal(show(run.calls.at(-1) ?? []), `kubectl describe job audit --namespace ${ns}`);
  });

  it("stops before deleting the Job when the infrastructure install fails", async () => {
    const run = await standIns.run("tools/deploy_job.sh", base, {
      rules: [{ pattern: "^helm upgrade", exitCode: 1, stderr: "Error: execution error" }],
    });
    assert.equal(run.code, 1);
    assert.ok(!run.calls.some((c) => c[1] === "delete"), "nothing deleted after a failed install");
  });

  it("generates a run id when none is given", async () => {
    const run = await standIns.run("tools/deploy_job.sh", base.slice(0, 6), { rules: [succeeded] });
    assert.equal(run.code, 0, run.stderr);
    const helm = run.calls.find((c) => c[0] === "helm") ?? [];
    assert.ok(
      helm.some((arg) => /^config\.runId=run_\d{8}T\d{6}Z$/.test(arg)),
      show(helm),
    );
  });
});

describe("tools/stage_inputs.sh", () => {
  const base = ["--namespace", ns, "--release", "audit", "--project-id", "proj-1"];

  it("copies the sources through a helper pod on the claim and removes the pod", async () => {
    const run = await standIns.run("tools/stage_inputs.sh", [...base, "--source", sources]);
    assert.equal(run.code, 0, run.stderr);
    const apply = run.calls.findIndex((c) => c[1] === "apply");
    const manifest = (await run.stdinOf(apply)).toString();
    assert.match(manifest, /claimName: audit-data/);
    assert.match(manifest, /app.kubernetes.io\/component: data-helper/);
    assert.match(manifest, /runAsNonRoot: true/);
    assert.doesNotMatch(manifest, /affinity/, "no co-location without --preflight");
    const copy = run.calls.findIndex((c) => c.includes("-i"));
    assert.deepEqual(tarList(await run.stdinOf(copy)), ["./", "./portfolio_selected.csv", "./sources.json"]);
    assert.equal(
      show(run.calls.at(-1) ?? []),
      `kubectl delete pod audit-stage-inputs --namespace ${ns} --ignore-not-found --wait=false`,
    );
    assertNamespaceOnEveryCall(run.calls);
  });

  it("removes the helper pod when a step fails", async () => {
    const run = await standIns.run("tools/stage_inputs.sh", [...base, "--source", sources], {
      rules: [{ pattern: "^kubectl wait", exitCode: 1, stderr: "timed out waiting for the condition" }],
    });
    assert.equal(run.code, 1);
    assert.equal(
      show(run.calls.at(-1) ?? []),
      `kubectl delete pod audit-stage-inputs --namespace ${ns} --ignore-not-found --wait=false`,
    );
    assert.ok(!run.calls.some((c) => c[1] === "exec"));
  });

  it("refuses a folder without sources.json before touching the cluster", async () => {
    const run = await standIns.run("tools/stage_inputs.sh", [...base, "--source", work]);
    assert.equal(run.code, 1);
    assert.match(run.stderr, /has no sources.json/);
    assert.deepEqual(run.calls, []);
  });

  it("syncs to <bucket>/<project_id>/01_sources in cloudstore mode", async () => {
    const run = await standIns.run("tools/stage_inputs.sh", [
      ...base,
      "--source",
      sources,
      "--storage",
      "cloudstore",
      "--bucket",
      "audit-bucket",
    ]);
    assert.equal(run.code, 0, run.stderr);
    assert.deepEqual(run.calls.map(show), [
      `gcloud storage rsync --recursive --delete-unmatched-destination-objects ${sources} gs://audit-bucket/proj-1/01_sources`,
    ]);
  });
});

describe("tools/fetch_outputs.sh", () => {
  const base = ["--namespace", ns, "--release", "audit", "--run-id", "run_1"];

  it("copies <output-root>/<run_id> out of a read-only helper pod and removes the pod", async () => {
    const outputs = join(work, "remote-run");
    await mkdir(join(outputs, "results"), { recursive: true });
    await writeFile(join(outputs, "results", "summary.json"), '{"ok":true}\n');
    const archive = join(work, "outputs.tar");
    execFileSync("tar", ["-C", outputs, "-cf", archive, "."]);
    const dest = join(work, "fetched");
    const run = await standIns.run("tools/fetch_outputs.sh", [...base, "--dest", dest], {
      rules: [{ pattern: "^kubectl exec .* -- tar -cf - -C /data/output/run_1 \\.$", stdoutFile: archive }],
    });
    assert.equal(run.code, 0, run.stderr);
    assert.equal(await readFile(join(dest, "results", "summary.json"), "utf8"), '{"ok":true}\n');
    const manifest = (await run.stdinOf(run.calls.findIndex((c) => c[1] === "apply"))).toString();
    assert.match(manifest, /readOnly: true/);
    assert.deepEqual(run.calls.map(show).slice(3), [
      `kubectl exec --namespace ${ns} audit-fetch-outputs -- test -d /data/output/run_1`,
      `kubectl exec --namespace ${ns} audit-fetch-outputs -- tar -cf - -C /data/output/run_1 .`,
      `kubectl delete pod audit-fetch-outputs --namespace ${ns} --ignore-not-found --wait=false`,
    ]);
    assertNamespaceOnEveryCall(run.calls);
  });

  it("names the missing run directory and still removes the helper pod", async () => {
    const run = await standIns.run("tools/fetch_outputs.sh", [...base, "--dest", join(work, "none")], {
      rules: [{ pattern: "-- test -d", exitCode: 1 }],
    });
    assert.equal(run.code, 1);
    assert.match(run.stderr, /no outputs for run run_1: \/data\/output\/run_1 does not exist/);
    assert.equal(
      show(run.calls.at(-1) ?? []),
      `kubectl delete pod audit-fetch-outputs --namespace ${ns} --ignore-not-found --wait=false`,
    );
  });

  it("copies from <bucket>/<project_id>/results/<run_id> in cloudstore mode", async () => {
    const dest = join(work, "from-bucket");
    const run = await standIns.run("tools/fetch_outputs.sh", [
      ...base,
      "--dest",
      dest,
      "--storage",
      "cloudstore",
      "--bucket",
      "audit-bucket",
      "--project-id",
      "proj-1",
    ]);
    assert.equal(run.code, 0, run.stderr);
    assert.deepEqual(run.calls.map(show), [
      `gcloud storage rsync --recursive gs://audit-bucket/proj-1/results/run_1 ${dest}`,
    ]);
  });
});

describe("tools/clean_uninstall.sh", () => {
  const base = ["--namespace", ns, "--release", "audit"];
  const selector = "app.kubernetes.io/instance=audit,app.kubernetes.io/component=data-helper";

  it("by default removes Job, release and helper pods but keeps namespace, claim and reporting secret", async () => {
    const run = await standIns.run("tools/clean_uninstall.sh", base);
    assert.equal(run.code, 0, run.stderr);
    assert.deepEqual(run.calls.map(show), [
      `kubectl delete job audit --namespace ${ns} --ignore-not-found --cascade=background --wait=true --timeout=180s`,
      `helm status audit --namespace ${ns}`,
      `helm uninstall audit --namespace ${ns} --wait --timeout 180s`,
      `kubectl delete pod --namespace ${ns} --selector ${selector} --ignore-not-found --wait=true --timeout=180s`,
    ]);
    assert.match(run.stderr, /kept claim audit-data/);
    assert.match(run.stderr, /kept reporting secret svc-reporting-secret/);
    assert.match(run.stderr, /kept namespace audit-ns/);
    assertNamespaceOnEveryCall(run.calls);
  });

  it("with --yes purges claim, named reporting secret and namespace, namespace last, with the timeout", async () => {
    const run = await standIns.run("tools/clean_uninstall.sh", [
      ...base,
      "--delete-pvc",
      "--delete-reporting-secret",
      "--reporting-secret",
      "reporting-1",
      "--delete-namespace",
      "--timeout",
      "30",
      "--yes",
    ]);
    assert.equal(run.code, 0, run.stderr);
    assert.deepEqual(run.calls.map(show).slice(4), [
      `kubectl delete pvc audit-data --namespace ${ns} --ignore-not-found --wait=true --timeout=30s`,
      `kubectl delete secret reporting-1 --namespace ${ns} --ignore-not-found --timeout=30s`,
      `kubectl delete namespace ${ns} --namespace ${ns} --ignore-not-found --wait=true --timeout=30s`,
    ]);
    assert.ok(
      run.calls.every((c) => !c.some((arg) => /^--timeout(=|$)/.test(arg)) || c.join(" ").includes("30")),
    );
  });

  it("asks before destructive deletions and deletes nothing unless the answer is yes", async () => {
    const refused = await standIns.run("tools/clean_uninstall.sh", [...base, "--delete-pvc"], {
      stdin: "no\n",
    });
    assert.equal(refused.code, 1);
    assert.match(refused.stderr, /This will permanently delete:\n {2}- the claim audit-data/);
    assert.deepEqual(refused.calls, []);
    const noAnswer = await standIns.run("tools/clean_uninstall.sh", [...base, "--delete-namespace"]);
    assert.equal(noAnswer.code, 1);
    assert.deepEqual(noAnswer.calls, []);
    const accepted = await standIns.run("tools/clean_uninstall.sh", [...base, "--delete-pvc"], {
      stdin: "yes\n",
    });
    assert.equal(accepted.code, 0, accepted.stderr);
    assert.ok(accepted.calls.some((c) => show(c).startsWith("kubectl delete pvc audit-data")));
  });

  it("skips helm uninstall when the release is not installed", async () => {
    const run = await standIns.run("tools/clean_uninstall.sh", base, {
      rules: [{ pattern: "^helm status", exitCode: 1, stderr: "Error: release: not found" }],
    });
    assert.equal(run.code, 0, run.stderr);
    assert.ok(!run.calls.some((c) => c[1] === "uninstall"));
    assert.ok(
      run.calls.some((c) => c.includes("--selector")),
      "helper pods still removed",
    );
  });
});
