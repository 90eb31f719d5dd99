import assert from "node:assert/strict";
import { mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, it } from "node:test";
import { decodeJwt } from "jose";
import { startOidcIssuerDouble } from "../oidc/oidc-issuer-double.ts";
import { makeTempDir } from "../temp/temp-dir.ts";
import { startKubeApiDouble } from "./kube-api-double.ts";
import { startProcessKubelet } from "./process-kubelet.ts";

// A container that prints what it was given: its env, and the token and claim files it can read.
const PRINT = `
const fs = require("node:fs");
const token = fs.readFileSync(process.env.TOKEN_FILE, "utf8");
fs.writeFileSync(process.env.OUT_ROOT + "/written.txt", "from the pod");
console.log(JSON.stringify({ env: process.env, token }));
process.exit(Number(process.env.EXIT_CODE ?? "0"));
`;

function job(name: string, extraEnv: { name: string; value: string }[] = []) {
  return {
    metadata: { name, namespace: "ns", labels: { app: "probe" } },
    spec: {
      template: {
        metadata: { labels: { app: "probe" } },
        spec: {
          restartPolicy: "Never",
          serviceAccountName: "runner-sa",
          automountServiceAccountToken: false,
          containers: [
            {
              name: "main",
              image: "registry.example/team/probe:1.0@sha256:abc",
              args: ["-e", PRINT],
              envFrom: [{ configMapRef: { name: "probe-config" } }],
              env: [
                {
                  name: "FROM_SECRET",
                  valueFrom: { secretKeyRef: { name: "probe-secret", key: "password" } },
                },
                { name: "MY_NAMESPACE", valueFrom: { fieldRef: { fieldPath: "metadata.namespace" } } },
                { name: "TOKEN_FILE", value: "/var/run/secrets/svc/token" },
                ...extraEnv,
              ],
              volumeMounts: [
                { name: "data", mountPath: "/data" },
                { name: "token", mountPath: "/var/run/secrets/svc" },
              ],
            },
          ],
          volumes: [
            { name: "data", persistentVolumeClaim: { claimName: "rel-data" } },
            {
              name: "token",
              projected: {
                sources: [{ serviceAccountToken: { audience: "https://ent.example", path: "token" } }],
              },
            },
          ],
        },
      },
    },
  };
}

describe("process kubelet", () => {
  it("runs a stored Job as a process with env from ConfigMaps, Secrets, the downward API, a projected token and the claim", async (t) => {
    const claim = await makeTempDir("svc-kubelet-claim-", t);
    const double = await startKubeApiDouble();
    t.after(() => double.close());
    const issuer = await startOidcIssuerDouble();
    t.after(() => issuer.close());
    const kubelet = startProcessKubelet({
      double,
      entrypoints: { probe: [process.execPath] },
      claims: { "rel-data": claim },
      issuer,
    });
    t.after(() => kubelet.stop());
    double.putCoreObject("configmaps", {
      metadata: { name: "probe-config", namespace: "ns" },
      data: { OUT_ROOT: "/data/output-root" },
    });
    double.putCoreObject("secrets", {
      metadata: { name: "probe-secret", namespace: "ns" },
      data: { password: Buffer.from("s3cret").toString("base64") },
    });
    await mkdir(join(claim, "output-root"));
    double.putJob(job("probe-1"));

    assert.equal(
      await kubelet.waitForJob("ns", "probe-1", 60_000),
      "Complete",
      kubelet.jobLogs("ns", "probe-1"),
    );
    const printed = JSON.parse(kubelet.jobLogs("ns", "probe-1")) as {
      env: Record<string, string>;
      token: string;
    };
    assert.equal(printed.env.FROM_SECRET, "s3cret");
    assert.equal(printed.env.MY_NAMESPACE, "ns");
    assert.equal(
      printed.env.OUT_ROOT,
      join(claim, "output-root"),
      "a path under /data names the claim's dir",
    );
    assert.equal(printed.env.KUBECONFIG, undefined, "automountServiceAccountToken: false");
    const claims = decodeJwt(printed.token);
    assert.equal(claims.sub, "system:serviceaccount:ns:runner-sa");
    assert.equal(claims.aud, "https://ent.example");
    assert.equal(claims.iss, issuer.issuer);
    assert.equal(await readFile(join(claim, "output-root", "written.txt"), "utf8"), "from the pod");
    const status = double.getJob("ns", "probe-1")?.status as {
      succeeded?: number;
      conditions?: { type: string }[];
    };
    assert.equal(status.succeeded, 1);
    assert.equal(status.conditions?.[0]?.type, "Complete");
    const pod = double.listPods("ns")[0];
    assert.equal(pod?.metadata?.labels?.["batch.kubernetes.io/job-name"], "probe-1");
    assert.equal((pod?.status as { phase?: string } | undefined)?.phase, "Succeeded");
  });

  it("runs an entrypoint whose files sit under /tmp, where the pod mounts an emptyDir (a checkout under /tmp)", async (t) => {
    // Under /tmp itself, whatever TMPDIR says: the path must start like the pod's /tmp mount.
    const image = await mkdtemp("/tmp/svc-kubelet-image-");
    t.after(() => rm(image, { recursive: true, force: true }));
    const entry = join(image, "entry.cjs");
    await writeFile(
      entry,
      "console.log(JSON.stringify({ argv: process.argv.slice(1), scratch: process.env.SCRATCH }));\n",
    );
    const double = await startKubeApiDouble();
    t.after(() => double.close());
    const kubelet = startProcessKubelet({ double, entrypoints: { probe: [process.execPath, entry] } });
    t.after(() => kubelet.stop());
    double.putJob({
      metadata: { name: "probe-tmp", namespace: "ns" },
      spec: {
        template: {
          spec: {
            restartPolicy: "Never",
            automountServiceAccountToken: false,
            containers: [
              {
                name: "main",
                image: "registry.example/team/probe:1.0",
                args: ["/tmp/scratch"],
                env: [{ name: "SCRATCH", value: "/tmp/scratch" }],
                volumeMounts: [{ name: "tmp", mountPath: "/tmp" }],
              },
            ],
            volumes: [{ name: "tmp", emptyDir: {} }],
          },
        },
      },
    });
    assert.equal(
      await kubelet.waitForJob("ns", "probe-tmp", 60_000),
      "Complete",
      kubelet.jobLogs("ns", "probe-tmp"),
    );
    const printed = JSON.parse(kubelet.jobLogs("ns", "probe-tmp")) as { argv: string[]; scratch: string };
    assert.equal(printed.argv[0], entry, "the image's own file is not a volume's");
    assert.notEqual(printed.argv[1], "/tmp/scratch", "an argument under the mount names the emptyDir");
    assert.equal(printed.argv[1], printed.scratch);
  });

  it("marks a Job Failed when its process exits non-zero, and when its claim is not on the node", async (t) => {
    const claim = await makeTempDir("svc-kubelet-claim-", t);
    const double = await startKubeApiDouble();
    t.after(() => double.close());
    const issuer = await startOidcIssuerDouble();
    t.after(() => issuer.close());
    const kubelet = startProcessKubelet({
      double,
      entrypoints: { probe: [process.execPath] },
      claims: { "rel-data": claim },
      issuer,
    });
    t.after(() => kubelet.stop());
    double.putCoreObject("configmaps", {
      metadata: { name: "probe-config", namespace: "ns" },
      data: { OUT_ROOT: "/data" },
    });
    double.putCoreObject("secrets", { metadata: { name: "probe-secret", namespace: "ns" }, data: {} });
    double.putJob(job("exits-3", [{ name: "EXIT_CODE", value: "3" }]));
    assert.equal(await kubelet.waitForJob("ns", "exits-3", 60_000), "Failed");
    const failed = double.getJob("ns", "exits-3")?.status as {
      failed?: number;
      conditions?: { message?: string }[];
    };
    assert.equal(failed.failed, 1);
    assert.match(failed.conditions?.[0]?.message ?? "", /exit code 3/);

    const elsewhere = job("no-claim");
    (
      elsewhere.spec.template.spec.volumes[0] as { persistentVolumeClaim: { claimName: string } }
    ).persistentVolumeClaim.claimName = "other-data";
    double.putJob(elsewhere);
    assert.equal(await kubelet.waitForJob("ns", "no-claim", 60_000), "Failed");
    assert.match(kubelet.events.join("\n"), /persistentvolumeclaim "other-data" not found/);
  });
});
