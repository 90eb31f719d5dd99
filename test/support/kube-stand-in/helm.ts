import { execFile } from "node:child_process";
import { appendFileSync, existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { parseManifests } from "../render.ts";
import { api, collectionPath, fail, serverError } from "./api.ts";
import { checkWithRealBinary } from "./real-parser.ts";

// The `helm` the whole-system test puts first on PATH for tools/deploy_job.sh. Helm 3 cannot
// install against the Kubernetes API double (it needs discovery, OpenAPI and release storage the
// double does not serve), so `helm upgrade --install REL CHART --namespace NS <values>` is:
//   1. the same command line given to the real Helm 3.17 against an unreachable server: its parser
//      must accept every flag (real-parser.ts);
//   2. the real `helm template REL CHART --namespace NS <values>`: the chart, its values schema and
//      its templates decide what is rendered, and a refused render fails here as on a cluster. Its
//      `lookup`s find nothing, as on a first install (Helm 3.17 sent no bearer token to the
//      double's plain-http server under --dry-run=server; test/charts cover lookup against the
//      double without a token);
//   3. each rendered object created (POST) or replaced (PUT) on the double, as Helm's upgrade does,
//      and the objects of the previous revision that are no longer rendered deleted (a Job with
//      background propagation). A changed Job template is refused by the double (immutable), as
//      by a real API server: deploy_job.sh deletes the Job first.
// Any other helm command is refused.

interface Release {
  objects: string[];
  /** Objects annotated `helm.sh/resource-policy: keep`: Helm never deletes them. */
  kept?: string[];
}

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  if (args[0] !== "upgrade" || args[1] !== "--install")
    fail(`helm stand-in: only "helm upgrade --install" is simulated, not: helm ${args.join(" ")}`, 1);
  const [release, chart] = args.slice(2, 4);
  if (!release || !chart || release.startsWith("-") || chart.startsWith("-"))
    fail("helm stand-in: give RELEASE and CHART right after upgrade --install", 1);
  const rest = args.slice(4);
  const at = rest.indexOf("--namespace");
  const namespace = at >= 0 ? rest[at + 1] : undefined;
  if (!namespace) fail("helm stand-in: every call must name --namespace (spec §2.8 step 7)", 1);
  const check = await checkWithRealBinary(
    process.env.SVC_STAND_IN_REAL_HELM ?? "helm",
    args,
    {
      PATH: process.env.PATH ?? "",
      HOME: process.env.SVC_STAND_IN_STATE ?? "/nonexistent",
      KUBECONFIG: process.env.SVC_UNREACHABLE_KUBECONFIG ?? "",
      SVC_UNREACHABLE_SERVER: process.env.SVC_UNREACHABLE_SERVER ?? "",
      HELM_CACHE_HOME: process.env.HELM_CACHE_HOME ?? "",
      HELM_CONFIG_HOME: process.env.HELM_CONFIG_HOME ?? "",
      HELM_DATA_HOME: process.env.HELM_DATA_HOME ?? "",
    },
    undefined,
  );
  if (!check.ok) fail(`helm (real parser) refused: helm ${args.join(" ")}\n${check.output}`, check.code);
  const rendered = await new Promise<{ code: number; stdout: string; stderr: string }>((resolve) => {
    execFile(
      process.env.SVC_STAND_IN_REAL_HELM ?? "helm",
      ["template", release, chart, ...rest],
      {
        maxBuffer: 32 * 1024 * 1024,
        env: { ...process.env, KUBECONFIG: process.env.SVC_UNREACHABLE_KUBECONFIG ?? "" },
      },
      (error, stdout, stderr) =>
        resolve({ code: error ? (typeof error.code === "number" ? error.code : 1) : 0, stdout, stderr }),
    );
  });
  if (rendered.code !== 0) fail(`Error: UPGRADE FAILED: ${rendered.stderr.trim()}`, 1);
  const state = process.env.SVC_STAND_IN_STATE ?? fail("SVC_STAND_IN_STATE is not set", 1);
  appendFileSync(join(state, "calls.jsonl"), `${JSON.stringify({ program: "helm", args })}\n`);
  const releaseFile = join(state, `release-${namespace}-${release}.json`);
  const previous: Release = existsSync(releaseFile)
    ? (JSON.parse(readFileSync(releaseFile, "utf8")) as Release)
    : { objects: [] };
  const current: string[] = [];
  const kept: string[] = [];
  for (const object of parseManifests(rendered.stdout)) {
    const path = `${collectionPath(object.apiVersion, object.kind, namespace)}/${object.metadata.name}`;
    const body = { ...object, metadata: { ...object.metadata, namespace } };
    const existing = await api("GET", path);
    const reply =
      existing.status === 200
        ? await api("PUT", path, { body })
        : await api("POST", path.slice(0, path.lastIndexOf("/")), { body });
    if (reply.status !== 200 && reply.status !== 201)
      fail(
        `Error: UPGRADE FAILED: cannot patch "${object.metadata.name}" with kind ${object.kind}: ${serverError(reply)}`,
        1,
      );
    current.push(path);
    if (object.metadata.annotations?.["helm.sh/resource-policy"] === "keep") kept.push(path);
  }
  for (const path of previous.objects.filter(
    (p) => !current.includes(p) && !(previous.kept ?? []).includes(p),
  )) {
    const reply = await api("DELETE", `${path}?propagationPolicy=Background`);
    if (reply.status !== 200 && reply.status !== 404) fail(`Error: UPGRADE FAILED: ${serverError(reply)}`, 1);
  }
  writeFileSync(releaseFile, JSON.stringify({ objects: current, kept }));
  process.stdout.write(`Release "${release}" has been upgraded. Happy Helming!\nNAMESPACE: ${namespace}\n`);
}

await main();
