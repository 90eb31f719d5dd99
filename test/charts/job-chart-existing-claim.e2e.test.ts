import assert from "node:assert/strict";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { type KubeApiDouble, startKubeApiDouble, writeKubeconfig } from "@svc/testing";
import { findObject, renderChart, templateChart } from "../support/render.ts";

// spec §7: "PVC shrink between installs is not allowed". The chart looks the claim up
// (helm template --dry-run=server against a loopback API double) and refuses to shrink it.

function claim(namespace: string, name: string, storage: string, storageClassName?: string) {
  return {
    metadata: { name, namespace },
    spec: { accessModes: ["ReadWriteOnce"], resources: { requests: { storage } }, storageClassName },
  };
}

describe("job chart never shrinks an existing claim", () => {
  let api: KubeApiDouble;
  let dir: string;
  let kubeconfig: string;

  before(async () => {
    api = await startKubeApiDouble();
    api.putCoreObject("persistentvolumeclaims", claim("deep-ns", "audit-data", "200Gi", "premium-rwo"));
    api.putCoreObject("persistentvolumeclaims", claim("si-ns", "audit-data", "100Gi"));
    api.putCoreObject("persistentvolumeclaims", claim("tera-ns", "audit-data", "1000Gi"));
    dir = await mkdtemp(join(tmpdir(), "svc-chart-"));
    kubeconfig = await writeKubeconfig({ server: api.url, token: "chart-test", namespace: "default", dir });
  });

  after(async () => {
    await api.close();
    await rm(dir, { recursive: true, force: true });
  });

  const render = (namespace: string, valuesFiles: string[], set: Record<string, string> = {}) =>
    templateChart({
      chart: "manifest/chart",
      release: "audit",
      namespace,
      valuesFiles,
      // spec §9 rule 2: the metering agent must be pinned for any render to pass.
      set: { "ubbagent.image.digest": `sha256:${"cd".repeat(32)}`, ...set },
      kubeconfig,
    });

  it("fails with the sizes named when the requested size is below the existing claim", async () => {
    const result = await render("deep-ns", ["values-standard.yaml"]);
    assert.notEqual(result.code, 0, "rendering a 50Gi claim over a 200Gi one must fail");
    assert.match(
      result.stderr,
      /storage\.pvc\.size 50Gi is smaller than the existing claim audit-data \(200Gi\): a claim cannot shrink/,
    );
  });

  it("grows a claim and keeps its storage class", async () => {
    const objects = await renderChart({
      chart: "manifest/chart",
      release: "audit",
      namespace: "deep-ns",
      valuesFiles: ["values-standard.yaml"],
      set: { "storage.pvc.size": "300Gi", "ubbagent.image.digest": `sha256:${"cd".repeat(32)}` },
      kubeconfig,
    });
    const spec = findObject(objects, "PersistentVolumeClaim", "audit-data").spec as {
      storageClassName: string;
      resources: { requests: { storage: string } };
    };
    assert.equal(spec.resources.requests.storage, "300Gi");
    assert.equal(spec.storageClassName, "premium-rwo");
  });

  it("accepts the same size again", async () => {
    const result = await render("deep-ns", ["values-standard.yaml", "values-deep.yaml"]);
    assert.equal(result.code, 0, result.stderr);
  });

  it("compares decimal and binary units by their byte counts", async () => {
    const smaller = await render("si-ns", ["values-standard.yaml"], { "storage.pvc.size": "100G" });
    assert.notEqual(smaller.code, 0, "100G is less than 100Gi");
    assert.match(
      smaller.stderr,
      /storage\.pvc\.size 100G is smaller than the existing claim audit-data \(100Gi\)/,
    );
    const larger = await render("tera-ns", ["values-standard.yaml"], { "storage.pvc.size": "1Ti" });
    assert.equal(larger.code, 0, `1Ti is more than 1000Gi: ${larger.stderr}`);
  });

  it("creates the claim at the requested size when there is none", async () => {
    const result = await render("empty-ns", ["values-standard.yaml"]);
    assert.equal(result.code, 0, result.stderr);
    assert.match(result.stdout, /storage: "50Gi"/);
  });
});
