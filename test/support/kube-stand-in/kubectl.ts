import { appendFileSync, readFileSync } from "node:fs";
import { basename, join } from "node:path";
import { parseAllDocuments } from "yaml";
import { type ApiReply, api, collectionPath, fail, kubeTarget, readStdin, serverError } from "./api.ts";
import { checkWithRealBinary } from "./real-parser.ts";

// The `kubectl` the whole-system test puts first on PATH for the operator scripts (tools/*.sh).
// Each call is first parsed by the real kubectl 1.32 (real-parser.ts): a command line a real
// kubectl refuses is refused here with its own message. Then the verb is carried out against the
// Kubernetes API double of $KUBECONFIG with the REST calls kubectl makes:
//   create namespace, create secret generic (--from-file, --from-literal), apply -f - (pods),
//   delete pod|job, wait --for=condition=…, get -o jsonpath, describe, logs (pods/log, follow)
//                                                                       → the API double
//   exec [-i]  → the double's pods/exec, which the process kubelet runs as a local process in the
//                pod's environment with its claim's host directory (the real API streams over
//                WebSocket; the double takes stdin whole and answers stdout, stderr and exit code)
// Every other verb or flag is refused (exit 1): the stand-in never answers what it does not do.

const VALUE_FLAGS = new Set([
  "namespace",
  "n",
  "f",
  "filename",
  "o",
  "output",
  "for",
  "timeout",
  "cascade",
  "container",
  "c",
  "pod-running-timeout",
]);
// Repeatable: each occurrence adds one key of the secret (kubectl create secret generic).
const SOURCE_FLAGS = new Set(["from-file", "from-literal"]);
const BOOL_FLAGS = new Set([
  "i",
  "stdin",
  "ignore-not-found",
  "wait",
  "all-containers",
  "timestamps",
  "prefix",
  "follow",
]);
const ALIASES: Record<string, string> = {
  n: "namespace",
  f: "filename",
  o: "output",
  c: "container",
  i: "stdin",
};
const ALLOWED: Record<string, string[]> = {
  create: ["namespace", "from-file", "from-literal"],
  delete: ["namespace", "ignore-not-found", "wait", "cascade", "timeout"],
  apply: ["namespace", "filename"],
  wait: ["namespace", "for", "timeout"],
  exec: ["namespace", "stdin", "container"],
  logs: ["namespace", "all-containers", "timestamps", "prefix", "follow", "pod-running-timeout", "container"],
  get: ["namespace", "output"],
  describe: ["namespace"],
};

interface Parsed {
  positional: string[];
  flags: Map<string, string>;
  /** What follows `--` (exec). */
  command: string[];
  /** --from-file / --from-literal, in order (create secret generic). */
  sources: { flag: string; value: string }[];
}

function parseArgs(args: readonly string[]): Parsed {
  const parsed: Parsed = { positional: [], flags: new Map(), command: [], sources: [] };
  for (let at = 0; at < args.length; at++) {
    const arg = args[at] ?? "";
    if (arg === "--") {
      parsed.command = args.slice(at + 1);
      break;
    }
    const flag = /^--?([a-z-]+)(?:=(.*))?$/.exec(arg);
    if (!flag || arg === "-") {
      parsed.positional.push(arg);
      continue;
    }
    const raw = flag[1] ?? "";
    const name = ALIASES[raw] ?? raw;
    if (SOURCE_FLAGS.has(raw)) parsed.sources.push({ flag: raw, value: flag[2] ?? args[++at] ?? "" });
    else if (VALUE_FLAGS.has(raw)) parsed.flags.set(name, flag[2] ?? args[++at] ?? "");
    else if (BOOL_FLAGS.has(raw)) parsed.flags.set(name, flag[2] ?? "true");
    else fail(`kubectl stand-in: flag ${arg} is not simulated`, 1);
  }
  return parsed;
}

/** "180s", "1m", "0" → milliseconds (Go durations, the units the scripts use). */
function durationMs(value: string | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  const match = /^(\d+)(ms|s|m|h)?$/.exec(value);
  if (!match) fail(`kubectl stand-in: duration ${value} is not simulated`, 1);
  const unit = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 }[match[2] ?? "s"] ?? 1000;
  return Number(match[1]) * unit;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const RESOURCES: Record<string, { path: (ns: string) => string; kind: string }> = {
  pod: { path: (ns) => `/api/v1/namespaces/${ns}/pods`, kind: "pods" },
  job: { path: (ns) => `/apis/batch/v1/namespaces/${ns}/jobs`, kind: "jobs.batch" },
};

/** `pod/NAME`, `job NAME`, `jobs.batch/NAME` → the resource and the name. */
function resourceOf(parsed: Parsed, at: number): { type: string; name: string; consumed: number } {
  const first = parsed.positional[at] ?? "";
  const [type, name] = first.includes("/") ? first.split("/", 2) : [first, parsed.positional[at + 1]];
  const normal = (type ?? "")
    .replace(/\.batch$/, "")
    .replace(/s$/, "")
    .replace(/^po$/, "pod");
  if (!RESOURCES[normal]) fail(`kubectl stand-in: resource type ${type} is not simulated`, 1);
  if (!name) fail("error: resource name may not be empty", 1);
  return { type: normal, name, consumed: first.includes("/") ? 1 : 2 };
}

async function get(type: string, ns: string, name: string): Promise<ApiReply> {
  return api("GET", `${RESOURCES[type]?.path(ns)}/${name}`);
}

/** `{.status.succeeded}:{.status.failed}`: kubectl's JSONPath, the field-path subset the scripts use. */
function jsonpath(template: string, object: unknown): string {
  return template.replace(/\{([^}]*)\}/g, (_all, expression: string) => {
    if (!/^(\.[A-Za-z0-9_-]+)+$/.test(expression))
      fail(`kubectl stand-in: jsonpath ${expression} is not simulated`, 1);
    let value: unknown = object;
    for (const part of expression.slice(1).split("."))
      value = (value as Record<string, unknown> | undefined)?.[part];
    if (value === undefined || value === null) return "";
    return typeof value === "object" ? JSON.stringify(value) : String(value);
  });
}

async function runVerb(verb: string, parsed: Parsed, stdin: Buffer | undefined): Promise<number> {
  const positional = parsed.positional.slice(1);
  // install.md §5 creates the namespace without --namespace; every other call names it (spec §2.8 step 7).
  const ns = parsed.flags.get("namespace") ?? (verb === "create" ? "default" : undefined);
  if (!ns) fail("kubectl stand-in: every call must name --namespace (spec §2.8 step 7)", 1);
  const rest = { ...parsed, positional };
  switch (verb) {
    case "create": {
      if (positional[0] === "secret") return await createSecret(positional, parsed, ns);
      if (positional[0] !== "namespace" || !positional[1] || parsed.sources.length > 0)
        fail(`kubectl stand-in: create ${positional[0]} is not simulated`, 1);
      const reply = await api("POST", "/api/v1/namespaces", {
        body: { apiVersion: "v1", kind: "Namespace", metadata: { name: positional[1] } },
      });
      if (reply.status !== 201) fail(serverError(reply), 1);
      process.stdout.write(`namespace/${positional[1]} created\n`);
      return 0;
    }
    case "delete": {
      const { type, name } = resourceOf(rest, 0);
      const cascade = parsed.flags.get("cascade") ?? "background";
      const policy = { background: "Background", foreground: "Foreground", orphan: "Orphan" }[cascade];
      if (!policy) fail(`error: invalid cascade value (${cascade})`, 1);
      const path = `${RESOURCES[type]?.path(ns)}/${name}`;
      const reply = await api("DELETE", `${path}?propagationPolicy=${policy}`);
      if (reply.status === 404 && parsed.flags.get("ignore-not-found") === "true") return 0;
      if (reply.status !== 200) fail(serverError(reply), 1);
      process.stdout.write(`${type} "${name}" deleted\n`);
      if (parsed.flags.get("wait") !== "false") {
        const deadline = Date.now() + durationMs(parsed.flags.get("timeout"), 60_000);
        while ((await get(type, ns, name)).status !== 404) {
          if (Date.now() > deadline)
            fail(`error: timed out waiting for the condition on ${RESOURCES[type]?.kind}/${name}`, 1);
          await sleep(100);
        }
      }
      return 0;
    }
    case "apply": {
      if (parsed.flags.get("filename") !== "-") fail("kubectl stand-in: only apply -f - is simulated", 1);
      for (const document of parseAllDocuments((stdin ?? Buffer.alloc(0)).toString("utf8"))) {
        if (document.errors.length > 0) fail(`error: error parsing STDIN: ${document.errors[0]?.message}`, 1);
        const object = document.toJS() as {
          apiVersion: string;
          kind: string;
          metadata: { name: string; namespace?: string };
        } | null;
        if (!object) continue;
        if (object.metadata.namespace !== undefined && object.metadata.namespace !== ns)
          fail(
            `error: the namespace from the provided object "${object.metadata.namespace}" does not match the namespace "${ns}". You must pass '--namespace=${object.metadata.namespace}' to perform this operation.`,
            1,
          );
        const collection = collectionPath(object.apiVersion, object.kind, ns);
        const existing = await api("GET", `${collection}/${object.metadata.name}`);
        const label = `${object.kind.toLowerCase()}/${object.metadata.name}`;
        if (existing.status === 200) {
          // A pod's spec cannot change (the API server refuses); the scripts delete their helper first.
          if (
            JSON.stringify(existing.body.spec) !== JSON.stringify((object as Record<string, unknown>).spec) &&
            object.kind === "Pod"
          )
            fail(
              `The Pod "${object.metadata.name}" is invalid: spec: Forbidden: pod updates may not change fields other than those allowed`,
              1,
            );
          process.stdout.write(`${label} unchanged\n`);
          continue;
        }
        const created = await api("POST", collection, { body: object });
        if (created.status !== 201) fail(serverError(created), 1);
        process.stdout.write(`${label} created\n`);
      }
      return 0;
    }
    case "wait": {
      const condition = /^condition=([A-Za-z]+)$/.exec(parsed.flags.get("for") ?? "")?.[1];
      if (!condition) fail(`kubectl stand-in: wait --for=${parsed.flags.get("for")} is not simulated`, 1);
      const { type, name } = resourceOf(rest, 0);
      const deadline = Date.now() + durationMs(parsed.flags.get("timeout"), 30_000);
      for (;;) {
        const reply = await get(type, ns, name);
        if (reply.status === 404) fail(serverError(reply), 1);
        const conditions =
          (reply.body.status as { conditions?: { type: string; status: string }[] } | undefined)
            ?.conditions ?? [];
        if (conditions.some((c) => c.type === condition && c.status === "True")) {
          process.stdout.write(`${type}/${name} condition met\n`);
          return 0;
        }
        if (Date.now() > deadline)
          fail(`error: timed out waiting for the condition on ${RESOURCES[type]?.kind}/${name}`, 1);
        await sleep(100);
      }
    }
    case "exec": {
      const pod = positional[0];
      if (!pod || positional.length !== 1 || parsed.command.length === 0)
        fail("kubectl stand-in: exec takes one pod and a command after --", 1);
      const query = new URLSearchParams();
      for (const part of parsed.command) query.append("command", part);
      const container = parsed.flags.get("container");
      if (container) query.set("container", container);
      const interactive = parsed.flags.get("stdin") === "true";
      query.set("stdin", String(interactive));
      query.set("stdout", "true");
      query.set("stderr", "true");
      const reply = await api("POST", `/api/v1/namespaces/${ns}/pods/${pod}/exec?${query}`, {
        raw: interactive ? (stdin ?? Buffer.alloc(0)) : Buffer.alloc(0),
      });
      if (reply.status !== 200) fail(serverError(reply), 1);
      process.stdout.write(Buffer.from(String(reply.body.stdout ?? ""), "base64"));
      process.stderr.write(Buffer.from(String(reply.body.stderr ?? ""), "base64"));
      const exitCode = Number(reply.body.exitCode ?? 1);
      if (exitCode !== 0) fail(`command terminated with exit code ${exitCode}`, exitCode);
      return 0;
    }
    case "logs":
      return await logs(rest, ns);
    case "get": {
      const { type, name } = resourceOf(rest, 0);
      const output = parsed.flags.get("output") ?? "";
      const template = /^jsonpath=(.*)$/.exec(output)?.[1];
      if (template === undefined) fail(`kubectl stand-in: get -o ${output} is not simulated`, 1);
      const reply = await get(type, ns, name);
      if (reply.status !== 200) fail(serverError(reply), 1);
      process.stdout.write(jsonpath(template.replace(/^'(.*)'$/, "$1"), reply.body));
      return 0;
    }
    case "describe": {
      const { type, name } = resourceOf(rest, 0);
      const reply = await get(type, ns, name);
      if (reply.status !== 200) fail(serverError(reply), 1);
      process.stdout.write(`${JSON.stringify(reply.body, null, 2)}\n`);
      return 0;
    }
    default:
      fail(`kubectl stand-in: kubectl ${verb} is not simulated`, 1);
  }
}

/** `kubectl logs job/NAME`: waits for the Job's pod, then streams each container's log. */
async function logs(parsed: Parsed, ns: string): Promise<number> {
  const { type, name } = resourceOf(parsed, 0);
  let pod = name;
  const deadline = Date.now() + durationMs(parsed.flags.get("pod-running-timeout"), 20_000);
  if (type === "job") {
    const job = await get("job", ns, name);
    if (job.status !== 200) fail(serverError(job), 1);
    for (;;) {
      const list = await api(
        "GET",
        `/api/v1/namespaces/${ns}/pods?labelSelector=${encodeURIComponent(`batch.kubernetes.io/job-name=${name}`)}`,
      );
      const items = (list.body.items ?? []) as { metadata: { name: string }; status?: { phase?: string } }[];
      const started = items.find((item) => item.status?.phase !== "Pending");
      if (started) {
        pod = started.metadata.name;
        break;
      }
      if (Date.now() > deadline) fail(`error: timed out waiting for the condition`, 1);
      await sleep(100);
    }
  }
  const podReply = await get("pod", ns, pod);
  if (podReply.status !== 200) fail(serverError(podReply), 1);
  const containers = (
    (podReply.body.spec as { containers?: { name: string }[] } | undefined)?.containers ?? []
  ).map((c) => c.name);
  const selected =
    parsed.flags.get("all-containers") === "true"
      ? containers
      : [parsed.flags.get("container") ?? containers[0] ?? ""];
  const { server, token } = kubeTarget();
  for (const container of selected) {
    const query = new URLSearchParams({
      container,
      follow: parsed.flags.get("follow") ?? "false",
      timestamps: parsed.flags.get("timestamps") ?? "false",
    });
    const response = await fetch(`${server}/api/v1/namespaces/${ns}/pods/${pod}/log?${query}`, {
      headers: token ? { authorization: `Bearer ${token}` } : {},
    });
    if (response.status !== 200)
      fail(
        serverError({ status: response.status, body: (await response.json()) as Record<string, unknown> }),
        1,
      );
    const prefix = parsed.flags.get("prefix") === "true" ? `[pod/${pod}/${container}] ` : "";
    let pending = "";
    for await (const chunk of response.body ?? []) {
      pending += Buffer.from(chunk as Uint8Array).toString("utf8");
      const lines = pending.split("\n");
      pending = lines.pop() ?? "";
      for (const line of lines) process.stdout.write(`${prefix}${line}\n`);
    }
    if (pending) process.stdout.write(`${prefix}${pending}\n`);
  }
  return 0;
}

/**
 * `kubectl create secret generic NAME --namespace NS (--from-file=[key=]path | --from-literal=key=value)…`:
 * kubectl's POST of a v1 Secret whose data are the base64 of each source (a file's key defaults to
 * its base name), refused with AlreadyExists as kubectl is.
 */
async function createSecret(positional: string[], parsed: Parsed, ns: string): Promise<number> {
  const [, type, name] = positional;
  if (type !== "generic" || !name || positional.length !== 3)
    fail(`kubectl stand-in: create secret ${type} is not simulated`, 1);
  if (parsed.sources.length === 0) fail("kubectl stand-in: a secret needs --from-file or --from-literal", 1);
  const data: Record<string, string> = {};
  for (const { flag, value } of parsed.sources) {
    const at = value.indexOf("=");
    if (flag === "from-literal") {
      if (at <= 0) fail(`error: invalid literal source ${value}, expected key=value`, 1);
      data[value.slice(0, at)] = Buffer.from(value.slice(at + 1), "utf8").toString("base64");
    } else {
      const [key, path] = at > 0 ? [value.slice(0, at), value.slice(at + 1)] : [basename(value), value];
      let bytes: Buffer;
      try {
        bytes = readFileSync(path);
      } catch (error) {
        fail(`error: ${(error as NodeJS.ErrnoException).code}: ${path}`, 1);
      }
      data[key] = bytes.toString("base64");
    }
  }
  const reply = await api("POST", `/api/v1/namespaces/${ns}/secrets`, {
    body: { apiVersion: "v1", kind: "Secret", type: "Opaque", metadata: { name, namespace: ns }, data },
  });
  if (reply.status !== 201) fail(serverError(reply), 1);
  process.stdout.write(`secret/${name} created\n`);
  return 0;
}

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const verb = args.find((arg) => !arg.startsWith("-")) ?? "";
  const readsStdin =
    (verb === "apply" &&
      args.some((arg, at) => (arg === "-f" || arg === "--filename") && args[at + 1] === "-")) ||
    (verb === "exec" &&
      args.slice(0, Math.max(0, args.indexOf("--"))).some((arg) => arg === "-i" || arg === "--stdin"));
  const stdin = readsStdin ? await readStdin() : undefined;
  // The real parser first: a line real kubectl refuses gets real kubectl's message.
  const check = await checkWithRealBinary(
    process.env.SVC_STAND_IN_REAL_KUBECTL ?? "kubectl",
    args,
    {
      PATH: process.env.PATH ?? "",
      HOME: process.env.SVC_STAND_IN_STATE ?? "/nonexistent",
      KUBECONFIG: process.env.SVC_UNREACHABLE_KUBECONFIG ?? "",
      SVC_UNREACHABLE_SERVER: process.env.SVC_UNREACHABLE_SERVER ?? "",
    },
    stdin,
  );
  if (!check.ok)
    fail(`kubectl (real parser) refused: kubectl ${args.join(" ")}\n${check.output}`, check.code);
  const allowed = ALLOWED[verb];
  if (!allowed) fail(`kubectl stand-in: kubectl ${verb} is not simulated`, 1);
  const parsed = parseArgs(args);
  for (const flag of [...parsed.flags.keys(), ...parsed.sources.map((source) => source.flag)])
    if (!allowed.includes(flag)) fail(`kubectl stand-in: kubectl ${verb} --${flag} is not simulated`, 1);
  const state = process.env.SVC_STAND_IN_STATE;
  if (state) appendFileSync(join(state, "calls.jsonl"), `${JSON.stringify({ program: "kubectl", args })}\n`);
  process.exitCode = await runVerb(verb, parsed, stdin);
}

await main();
