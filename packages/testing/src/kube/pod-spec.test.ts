import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { argvOf, type Container, pathTranslator, resolveEnv } from "./pod-spec.ts";

const container: Container = {
  name: "main",
  image: "us-docker.pkg.dev/p/svc/svc-runner:1.0.0",
  volumeMounts: [
    { name: "data", mountPath: "/data" },
    { name: "out", mountPath: "/data/output/" },
    { name: "tmp", mountPath: "/tmp" },
  ],
};

describe("pod spec to process", () => {
  it("rewrites paths under mounts to their host dirs, longest mount first, and leaves host paths alone", () => {
    const hostDirs = new Map([
      ["data", "/host/claim"],
      ["out", "/host/out"],
      ["tmp", "/host/tmp"],
    ]);
    const translate = pathTranslator(container, hostDirs, ["/tmp/svc-claim-1"]);
    assert.equal(translate("/data/input/p"), "/host/claim/input/p");
    assert.equal(translate("/data/output/run"), "/host/out/run");
    assert.equal(translate("/data"), "/host/claim");
    assert.equal(translate("/database"), "/database", "a prefix that is no path segment is no mount");
    assert.equal(translate("/tmp/svc-claim-1/input"), "/tmp/svc-claim-1/input", "already a host path");
    assert.equal(translate("/tmp/scratch"), "/host/tmp/scratch");
  });

  it("maps an image or a command to the workspace bin that stands in for it", () => {
    const entrypoints = { "svc-runner": ["node", "runner.ts"] };
    assert.deepEqual(argvOf({ ...container, args: ["--help"] }, entrypoints), [
      "node",
      "runner.ts",
      "--help",
    ]);
    assert.deepEqual(
      argvOf({ ...container, image: "x/svc-runner@sha256:ab", command: ["svc-runner", "seal"] }, entrypoints),
      ["node", "runner.ts", "seal"],
    );
    assert.deepEqual(argvOf({ ...container, command: ["sh", "-c", "true"] }, entrypoints), [
      "sh",
      "-c",
      "true",
    ]);
    assert.equal(argvOf({ ...container, image: "busybox:1.36" }, entrypoints), null);
  });

  it("assembles env from envFrom, then env: values, secret and config map keys, downward API", () => {
    const data: Record<string, Record<string, string>> = {
      "configmaps/cfg": { A: "from-config", B: "overridden" },
      "secrets/sec": { key: "s3cret" },
    };
    const env = resolveEnv(
      {
        ...container,
        envFrom: [{ configMapRef: { name: "cfg" } }],
        env: [
          { name: "B", value: "plain" },
          { name: "S", valueFrom: { secretKeyRef: { name: "sec", key: "key" } } },
          { name: "NS", valueFrom: { fieldRef: { fieldPath: "metadata.namespace" } } },
          { name: "SA", valueFrom: { fieldRef: { fieldPath: "spec.serviceAccountName" } } },
        ],
      },
      { containers: [], serviceAccountName: "runner" },
      { namespace: "audit", podName: "pod-1", dataOf: (kind, _ns, name) => data[`${kind}/${name}`] ?? {} },
    );
    assert.deepEqual(env, { A: "from-config", B: "plain", S: "s3cret", NS: "audit", SA: "runner" });
  });
});
