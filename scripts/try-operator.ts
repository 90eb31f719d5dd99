// `npm run try:operator`: the operator's `svc` commands without a cluster (issue 37 item 9,
// docs/install.md "Try it without a cluster"). On loopback it starts what docs/install.md installs,
// in the shape of install.md's generic (non-GKE) path:
//   - a cluster OIDC issuer (the OIDC issuer double: discovery document and JWKS, as a cluster
//     serves at <issuer>/.well-known/openid-configuration) that signs projected service account tokens;
//   - the entitlement service (SQLite ledger), trusting exactly that issuer (SVC_TRUSTED_ISSUERS);
//   - the Kubernetes API double with its process kubelet, which runs each Job as a local
//     `svc-runner` process with the claim `audit-data` as a folder and a projected token whose
//     audience is the entitlement service (the runner's k8s auth mode);
//   - preflight, in namespace `audit`, launching Jobs as the service account `audit`.
// examples/demo is staged as project `demo`. It then prints the `svc` commands to paste into another
// terminal, waits for Ctrl-C (SIGINT or SIGTERM), and stops every process and removes its folder.
// scripts/try-operator.e2e.test.ts runs the printed commands as written.
import { randomBytes } from "node:crypto";
import { cp, mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";

const USAGE = `Usage: npm run try:operator   (node scripts/try-operator.ts)

Starts, on loopback and in one temporary folder, a cluster OIDC issuer, the entitlement service, the
Kubernetes API double with a process kubelet (Jobs run as local svc-runner processes) and the
preflight service, stages examples/demo as project "demo", and prints the svc commands to try
(svc context add, svc entitlement issue, svc runs launch|logs|get, svc seal verify).
Ctrl-C stops everything and removes the folder.
  -h, --help  print this and do nothing else
`;
if (process.argv.slice(2).some((arg) => arg === "--help" || arg === "-h")) {
  process.stdout.write(USAGE);
  process.exit(0);
}
if (process.argv.length > 2) {
  process.stderr.write(`try:operator: unknown argument ${process.argv[2]}\n${USAGE}`);
  process.exit(2);
}

const { startService } = await import("@svc/entitlement");
const { createApp, createClientNodeGateway, loadConfig } = await import("@svc/preflight");
const { findFreePort, startKubeApiDouble, startOidcIssuerDouble, startProcessKubelet, writeKubeconfig } =
  await import("@svc/testing");

const REPO = resolve(import.meta.dirname, "..");
const NAMESPACE = "audit";
// The job release's service account and claim (install.md: `<release>`, `<release>-data`).
const RELEASE = "audit";
const PRINCIPAL = `system:serviceaccount:${NAMESPACE}:${RELEASE}`;
const PROJECT = "demo";
const RUN_ID = "run-try-1";

const stops: (() => Promise<unknown>)[] = [];
async function stopAll(): Promise<void> {
  for (const stop of stops.splice(0).reverse()) await stop().catch(() => undefined);
}

let stopping = false;
async function shutdown(code: number): Promise<never> {
  if (!stopping) {
    stopping = true;
    await stopAll();
  }
  process.exit(code);
}

try {
  // Outside the kubelet's /tmp mount is not needed: host paths of claims are kept as they are.
  const root = await mkdtemp(join(tmpdir(), "svc-try-operator-"));
  stops.push(() => rm(root, { recursive: true, force: true }));
  const claim = join(root, "claim");
  const secrets = join(root, "secrets");
  await mkdir(join(claim, "output"), { recursive: true });
  await mkdir(secrets, { mode: 0o700 });
  // Secrets live in files the context refers to (file:<path>); svc never stores a secret itself.
  const adminToken = randomBytes(24).toString("hex");
  const preflightToken = randomBytes(24).toString("hex");
  await writeFile(join(secrets, "admin-token"), `${adminToken}\n`, { mode: 0o600 });
  await writeFile(join(secrets, "preflight-token"), `${preflightToken}\n`, { mode: 0o600 });

  // install.md "Generic Kubernetes": the cluster's service account issuer.
  const issuer = await startOidcIssuerDouble();
  stops.push(() => issuer.close());

  const entitlementPort = await findFreePort();
  const entitlementUrl = `http://127.0.0.1:${entitlementPort}`;
  const entitlement = await startService({
    PORT: String(entitlementPort),
    HOST: "127.0.0.1",
    SVC_PUBLIC_URL: entitlementUrl,
    SVC_DATA_DIR: join(root, "entitlement"),
    SVC_ADMIN_TOKENS: adminToken,
    SVC_TRUSTED_ISSUERS: issuer.issuer,
    SVC_LOG_LEVEL: "warn",
  });
  stops.push(() => entitlement.close());

  const kubeToken = randomBytes(16).toString("hex");
  const double = await startKubeApiDouble({ token: kubeToken });
  stops.push(() => double.close());
  const kubeconfig = await writeKubeconfig({
    server: double.url,
    token: kubeToken,
    namespace: NAMESPACE,
    dir: root,
  });
  const kubelet = startProcessKubelet({
    double,
    entrypoints: {
      "svc-runner": [process.execPath, join(REPO, "packages", "runner", "bin", "svc-runner.ts")],
    },
    claims: { [`${RELEASE}-data`]: claim },
    issuer,
    // The runner's own scratch and Chromium's profile stay inside this walk's folder.
    baseEnv: { PATH: process.env.PATH ?? "", TMPDIR: root, HOME: root },
  });
  stops.push(() => kubelet.stop());

  const config = loadConfig(
    {
      SVC_INPUT_ROOT: join(claim, "input"),
      SVC_OUTPUT_ROOT: join(claim, "output"),
      SVC_API_TOKEN: preflightToken,
      SVC_RUNNER_IMAGE: "registry.example/svc/svc-runner:try",
      SVC_APP_FULLNAME: "svc-preflight",
      SVC_RUNNER_SERVICE_ACCOUNT: RELEASE,
      SVC_DATA_CLAIM: `${RELEASE}-data`,
      SVC_ENTITLEMENT_URL: entitlementUrl,
      SVC_ENTITLEMENT_AUTH_MODE: "k8s",
      SVC_LOG_LEVEL: "warn",
      POD_NAMESPACE: NAMESPACE,
      KUBECONFIG: kubeconfig,
    },
    { fileExists: (path) => path === kubeconfig, readTextFile: () => undefined, homeDir: root },
  );
  const preflight = createApp({
    config,
    kube: createClientNodeGateway(config.kube as { mode: "kubeconfig"; path: string }),
  });
  await preflight.listen({ port: 0, host: "127.0.0.1" });
  stops.push(() => preflight.close());
  const address = preflight.server.address();
  const preflightUrl = `http://127.0.0.1:${typeof address === "object" && address ? address.port : 0}`;

  // tools/stage_inputs.sh's result: <input-root>/<project>/01_sources on the claim.
  await cp(join(REPO, "examples", "demo", "01_sources"), join(claim, "input", PROJECT, "01_sources"), {
    recursive: true,
  });

  // `svc runs get -o` writes into an existing folder.
  const downloads = join(root, "downloads");
  await mkdir(downloads);
  const lines = [
    `export XDG_CONFIG_HOME=${join(root, "config")}`,
    `npx svc context add try --preflight-url ${preflightUrl} --preflight-token file:${join(secrets, "preflight-token")} --namespace ${NAMESPACE} --entitlement-url ${entitlementUrl} --admin-token file:${join(secrets, "admin-token")} --use`,
    `npx svc entitlement issue ${PRINCIPAL} --runs 1`,
    `npx svc entitlement balance --principal ${PRINCIPAL}`,
    `npx svc runs launch ${PROJECT} --run-id ${RUN_ID} --wait`,
    `npx svc runs logs ${RUN_ID} --tail 5`,
    `npx svc runs get ${RUN_ID} results/report.html -o ${join(downloads, "report.html")}`,
    `npx svc runs get ${RUN_ID} seal/seal.svg -o ${join(downloads, "seal.svg")}`,
    `npx svc trust add --issuer ${entitlementUrl}`,
    `npx svc seal verify ${join(downloads, "seal.svg")} --issuer ${entitlementUrl}`,
    `npx svc entitlement ledger --all`,
  ];
  process.stdout.write(
    [
      "Running on loopback (no cluster):",
      `  cluster OIDC issuer  ${issuer.issuer}  (projected service account tokens, sub ${PRINCIPAL})`,
      `  entitlement service  ${entitlementUrl}  (SVC_TRUSTED_ISSUERS=${issuer.issuer}, SQLite ledger)`,
      `  Kubernetes API       ${double.url}  (the API double; Jobs run as local svc-runner processes)`,
      `  preflight            ${preflightUrl}  (namespace ${NAMESPACE}, Jobs as service account ${RELEASE})`,
      `  project "${PROJECT}" staged from examples/demo; everything lives in ${root}`,
      "",
      "In another terminal, from the repository, paste these (the first keeps svc's contexts and trust file here):",
      "",
      ...lines.map((line) => `  ${line}`),
      "",
      "Ctrl-C here stops everything and removes the folder.",
      "",
    ].join("\n"),
  );
} catch (error) {
  process.stderr.write(`try:operator: ${error instanceof Error ? error.message : String(error)}\n`);
  await shutdown(1);
}

process.on("SIGINT", () => void shutdown(0));
process.on("SIGTERM", () => void shutdown(0));
