import { execFile } from "node:child_process";
import { join, resolve } from "node:path";
import { parseAllDocuments } from "yaml";
import { ensureHelm } from "./helm.ts";
import { repoRoot } from "./repo-root.ts";

/** A Kubernetes object as rendered by a chart. */
export interface KubeObject {
  apiVersion: string;
  kind: string;
  metadata: {
    name: string;
    namespace?: string;
    labels?: Record<string, string>;
    annotations?: Record<string, string>;
  };
  [field: string]: unknown;
}

export interface HelmResult {
  code: number;
  stdout: string;
  stderr: string;
}

export interface RenderOptions {
  /** Chart directory, relative to the repository root or absolute. */
  chart: string;
  release?: string;
  namespace?: string;
  /** Values files relative to the chart directory, applied in order. */
  valuesFiles?: string[];
  /** --set key=value pairs. */
  set?: Record<string, string | number | boolean>;
  /**
   * A kubeconfig of a (fake) API server: renders with --dry-run=server so `lookup` sees the
   * objects already in the cluster. Without it `lookup` finds nothing, as on a first install.
   */
  kubeconfig?: string;
}

const helmHome = join(repoRoot, ".tools", "helm", "home");

/** Runs the Helm binary with its state kept under .tools/helm/home (never the user's home). */
export async function runHelm(args: string[], kubeconfig?: string): Promise<HelmResult> {
  const helm = await ensureHelm();
  return await new Promise((resolve) => {
    execFile(
      helm,
      args,
      {
        cwd: repoRoot,
        maxBuffer: 32 * 1024 * 1024,
        env: {
          PATH: process.env.PATH ?? "",
          HELM_CACHE_HOME: join(helmHome, "cache"),
          HELM_CONFIG_HOME: join(helmHome, "config"),
          HELM_DATA_HOME: join(helmHome, "data"),
          KUBECONFIG: kubeconfig ?? join(helmHome, "no-cluster.kubeconfig"),
        },
      },
      (error, stdout, stderr) => {
        const code = error ? (typeof error.code === "number" ? error.code : 1) : 0;
        resolve({ code, stdout, stderr });
      },
    );
  });
}

/** The helm arguments (values files and --set) shared by lint and template. */
export function valueArgs(options: RenderOptions): string[] {
  const args: string[] = [];
  for (const file of options.valuesFiles ?? []) args.push("--values", resolve(repoRoot, options.chart, file));
  for (const [key, value] of Object.entries(options.set ?? {})) args.push("--set", `${key}=${String(value)}`);
  return args;
}

/** `helm template`; resolves with the exit code and output, never throws on a failed render. */
export async function templateChart(options: RenderOptions): Promise<HelmResult> {
  return await runHelm(
    [
      "template",
      options.release ?? "rel",
      resolve(repoRoot, options.chart),
      "--namespace",
      options.namespace ?? "audit",
      ...(options.kubeconfig ? ["--dry-run=server"] : []),
      ...valueArgs(options),
    ],
    options.kubeconfig,
  );
}

/** `helm template` that must succeed; returns the rendered objects. */
export async function renderChart(options: RenderOptions): Promise<KubeObject[]> {
  const result = await templateChart(options);
  if (result.code !== 0) throw new Error(`helm template ${options.chart} failed:\n${result.stderr}`);
  return parseManifests(result.stdout);
}

/** Splits a multi-document YAML stream into objects, dropping empty documents. */
export function parseManifests(text: string): KubeObject[] {
  const objects: KubeObject[] = [];
  for (const document of parseAllDocuments(text)) {
    if (document.errors.length > 0) throw new Error(`invalid YAML rendered: ${document.errors[0]?.message}`);
    const value = document.toJS() as KubeObject | null;
    if (value !== null && value !== undefined) objects.push(value);
  }
  return objects;
}

/** `helm lint --strict` of one chart with one set of values. */
export async function lintChart(options: RenderOptions): Promise<HelmResult> {
  return await runHelm(["lint", "--strict", resolve(repoRoot, options.chart), ...valueArgs(options)]);
}

/** The one object of a kind and name; fails the test when it is missing. */
export function findObject(objects: KubeObject[], kind: string, name: string): KubeObject {
  const found = objects.find((o) => o.kind === kind && o.metadata.name === name);
  if (!found) {
    const have = objects.map((o) => `${o.kind}/${o.metadata.name}`).join(", ");
    throw new Error(`no ${kind}/${name} rendered (have: ${have})`);
  }
  return found;
}
