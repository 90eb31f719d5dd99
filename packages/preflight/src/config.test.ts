import assert from "node:assert/strict";
import { test } from "node:test";
import { ConfigError, type ConfigProbe, deriveGpuImage, loadConfig } from "./config.ts";

const noFiles: ConfigProbe = {
  fileExists: () => false,
  readTextFile: () => undefined,
  homeDir: "/nonexistent",
};
const TOKEN = "abcdefghijklmnopqrstuvwxyz";

test("defaults: port 8080, /data/output, pvc, runner command svc-runner, no Kubernetes", () => {
  const config = loadConfig({ SVC_API_TOKEN: TOKEN }, noFiles);
  assert.equal(config.port, 8080);
  assert.equal(config.outputRoot, "/data/output");
  assert.equal(config.storageMode, "pvc");
  assert.deepEqual(config.runnerCommand, ["svc-runner"]);
  assert.equal(config.kube.mode, "none");
  assert.deepEqual(config.allowedNamespaces, []);
  assert.ok(Object.isFrozen(config));
});

test("the request time limit of every route is 60 s by default, set by SVC_REQUEST_TIMEOUT_MS, bounded (issue 38 item 4)", () => {
  assert.equal(loadConfig({ SVC_API_TOKEN: TOKEN }, noFiles).requestTimeoutMs, 60_000);
  assert.equal(
    loadConfig({ SVC_API_TOKEN: TOKEN, SVC_REQUEST_TIMEOUT_MS: "5000" }, noFiles).requestTimeoutMs,
    5_000,
  );
  assert.throws(
    () => loadConfig({ SVC_API_TOKEN: TOKEN, SVC_REQUEST_TIMEOUT_MS: "600001" }, noFiles),
    /SVC_REQUEST_TIMEOUT_MS must be an integer from 1000 to 600000/,
  );
});

test("every problem is reported together", () => {
  assert.throws(
    () =>
      loadConfig(
        {
          PORT: "http",
          SVC_OUTPUT_ROOT: "relative/path",
          SVC_STORAGE_MODE: "nfs",
          K8S_API_TOKENS: "not json",
          SVC_ALLOWED_NAMESPACES: "Bad_NS",
          SVC_GPU_NODE_SELECTOR: "novalue",
          SVC_AUTH_DISABLED: "maybe",
          KUBECONFIG: "/missing/kubeconfig",
        },
        noFiles,
      ),
    (error: unknown) => {
      assert.ok(error instanceof ConfigError);
      for (const name of [
        "PORT",
        "SVC_OUTPUT_ROOT",
        "SVC_STORAGE_MODE",
        "K8S_API_TOKENS",
        "SVC_ALLOWED_NAMESPACES",
        "SVC_GPU_NODE_SELECTOR",
        "SVC_AUTH_DISABLED",
        "KUBECONFIG",
      ])
        assert.ok(
          error.problems.some((problem) => problem.includes(name)),
          name,
        );
      return true;
    },
  );
});

test("auth on with no token configured refuses to start; auth disabled starts without one", () => {
  assert.throws(() => loadConfig({}, noFiles), /no token is configured/);
  assert.equal(loadConfig({ SVC_AUTH_DISABLED: "true" }, noFiles).authDisabled, true);
});

test("K8S_API_TOKENS accepts every entry; short tokens are refused", () => {
  const config = loadConfig(
    {
      K8S_API_TOKENS: JSON.stringify([{ token: TOKEN }, { token: `${TOKEN}2` }]),
      SVC_API_TOKEN: `${TOKEN}3`,
    },
    noFiles,
  );
  assert.deepEqual(config.authTokens, [TOKEN, `${TOKEN}2`, `${TOKEN}3`]);
  assert.throws(() => loadConfig({ K8S_API_TOKENS: '[{"token":"short"}]' }, noFiles), /at least 16/);
  assert.throws(() => loadConfig({ K8S_API_TOKENS: '[{"tok":"x"}]' }, noFiles), /K8S_API_TOKENS\[0\]/);
  // a refused token is named by its length, never printed (the problems go to the log)
  assert.throws(
    () => loadConfig({ SVC_API_TOKEN: "short-secret", K8S_API_TOKENS: "secret-not-json" }, noFiles),
    (error: unknown) => {
      assert.ok(error instanceof ConfigError);
      assert.deepEqual(error.problems, [
        'K8S_API_TOKENS must be a JSON array of objects like [{"token":"..."}] (got 15 hidden characters)',
        "SVC_API_TOKEN must be at least 16 characters (got 12 hidden characters)",
      ]);
      return true;
    },
  );
});

test("the allow list defaults to the pod's namespace from POD_NAMESPACE or the service account file", () => {
  assert.deepEqual(loadConfig({ SVC_API_TOKEN: TOKEN, POD_NAMESPACE: "svc" }, noFiles).allowedNamespaces, [
    "svc",
  ]);
  const fromFile = loadConfig(
    { SVC_API_TOKEN: TOKEN },
    { ...noFiles, readTextFile: (path) => (path.endsWith("/namespace") ? "audit\n" : undefined) },
  );
  assert.deepEqual(fromFile.allowedNamespaces, ["audit"]);
  assert.deepEqual(
    loadConfig({ SVC_API_TOKEN: TOKEN, POD_NAMESPACE: "svc", SVC_ALLOWED_NAMESPACES: "a, b" }, noFiles)
      .allowedNamespaces,
    ["a", "b"],
  );
});

test("Kubernetes source: in-cluster when the service host and token exist, else KUBECONFIG, else ~/.kube/config", () => {
  const files = new Set([
    "/var/run/secrets/kubernetes.io/serviceaccount/token",
    "/k/config",
    "/home/u/.kube/config",
  ]);
  const probe: ConfigProbe = {
    fileExists: (path) => files.has(path),
    readTextFile: () => undefined,
    homeDir: "/home/u",
  };
  assert.equal(
    loadConfig({ SVC_API_TOKEN: TOKEN, KUBERNETES_SERVICE_HOST: "10.0.0.1" }, probe).kube.mode,
    "in-cluster",
  );
  assert.deepEqual(loadConfig({ SVC_API_TOKEN: TOKEN, KUBECONFIG: "/nope:/k/config" }, probe).kube, {
    mode: "kubeconfig",
    path: "/k/config",
  });
  assert.deepEqual(loadConfig({ SVC_API_TOKEN: TOKEN }, probe).kube, {
    mode: "kubeconfig",
    path: "/home/u/.kube/config",
  });
});

test("the GPU image is the runner image's tag plus -gpu unless given; a digest-pinned image needs it given", () => {
  assert.equal(deriveGpuImage("reg.example:5000/svc/runner:1.0.0"), "reg.example:5000/svc/runner:1.0.0-gpu");
  assert.equal(deriveGpuImage("reg.example:5000/svc/runner"), "reg.example:5000/svc/runner:latest-gpu");
  assert.equal(deriveGpuImage("svc/runner@sha256:abc"), null);
  const config = loadConfig(
    {
      SVC_API_TOKEN: TOKEN,
      SVC_RUNNER_IMAGE: "r:1",
      SVC_RUNNER_IMAGE_GPU: "r-gpu:7",
      SVC_RUNNER_COMMAND: '["node","bin/r.ts"]',
    },
    noFiles,
  );
  assert.equal(config.runnerImageGpu, "r-gpu:7");
  assert.deepEqual(config.runnerCommand, ["node", "bin/r.ts"]);
});

test("storage, claim, co-location, auth mode and log level are checked together (docs/contracts/storage-layout.md)", () => {
  assert.throws(
    () =>
      loadConfig(
        {
          SVC_API_TOKEN: TOKEN,
          SVC_STORAGE_MODE: "cloudstore",
          SVC_CLOUDSTORE_MOUNT_PATH: "relative",
          SVC_INPUT_ROOT: "in",
          SVC_DATA_CLAIM: "Not_A_Claim",
          SVC_CO_LOCATE_WITH: "=x",
          SVC_ENTITLEMENT_AUTH_MODE: "dev",
          LOG_LEVEL: "loud",
        },
        noFiles,
      ),
    (error: unknown) => {
      assert.ok(error instanceof ConfigError);
      assert.deepEqual(error.problems, [
        'SVC_INPUT_ROOT must be an absolute path (got "in")',
        "SVC_CLOUDSTORE_BUCKET must be a bucket name when SVC_STORAGE_MODE=cloudstore (got nothing)",
        'SVC_CLOUDSTORE_MOUNT_PATH must be an absolute path (got "relative")',
        'SVC_ENTITLEMENT_AUTH_MODE must be cloud or k8s for launched Jobs (got "dev")',
        'LOG_LEVEL must be one of fatal, error, warn, info, debug, trace, silent (got "loud")',
        'SVC_DATA_CLAIM must be a DNS-1123 name (got "Not_A_Claim")',
        'SVC_CO_LOCATE_WITH must be a list of key=value pairs with a valid label key and value (got "=x")',
      ]);
      return true;
    },
  );
});

test("the layout follows the storage mode: pvc roots, or the bucket at its mount path", () => {
  const pvc = loadConfig(
    { SVC_API_TOKEN: TOKEN, SVC_INPUT_ROOT: "/mnt/in", SVC_OUTPUT_ROOT: "/mnt/out" },
    noFiles,
  );
  assert.deepEqual(pvc.layout, { kind: "pvc", inputRoot: "/mnt/in", outputRoot: "/mnt/out" });
  const bucket = loadConfig(
    { SVC_API_TOKEN: TOKEN, SVC_STORAGE_MODE: "cloudstore", SVC_CLOUDSTORE_BUCKET: "b" },
    noFiles,
  );
  assert.deepEqual(bucket.layout, { kind: "cloudstore", bucket: "b", mountPath: "/data" });
});
