import assert from "node:assert/strict";
import { type ChildProcess, spawn } from "node:child_process";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { join, resolve } from "node:path";
import { after, before, describe, it } from "node:test";
import { createTempDir, type TempDir } from "@svc/testing";

// Issue 37 item 9: `npm run try:operator` (docs/install.md "Try it without a cluster") prints the
// operator's svc commands; this test runs every printed line as written, in order, in a shell
// started from the repository (as a person pastes them), then stops the walk with SIGTERM and checks
// that no process and no folder of it is left.
const REPO = resolve(import.meta.dirname, "..");
const SCRIPT = join(REPO, "scripts", "try-operator.ts");

/** Processes whose command line or environment names `path` (the walk's folder): none may outlive it. */
function processesNaming(path: string): string[] {
  const found: string[] = [];
  for (const pid of readdirSync("/proc").filter((name) => /^\d+$/.test(name))) {
    if (Number(pid) === process.pid) continue;
    for (const file of ["cmdline", "environ"]) {
      try {
        if (readFileSync(`/proc/${pid}/${file}`, "latin1").includes(path)) {
          found.push(`${pid}: ${readFileSync(`/proc/${pid}/cmdline`, "latin1").replaceAll("\0", " ")}`);
          break;
        }
      } catch {
        // gone meanwhile, or not ours to read
      }
    }
  }
  return found;
}

function runLine(line: string, env: NodeJS.ProcessEnv): Promise<{ code: number; out: string }> {
  return new Promise((done) => {
    const child = spawn("bash", ["-c", line], { cwd: REPO, env, stdio: ["ignore", "pipe", "pipe"] });
    let out = "";
    child.stdout.on("data", (chunk: Buffer) => {
      out += chunk.toString();
    });
    child.stderr.on("data", (chunk: Buffer) => {
      out += chunk.toString();
    });
    child.on("close", (code) => done({ code: code ?? 1, out }));
  });
}

describe("npm run try:operator: the svc walk without a cluster (issue 37 item 9)", {
  timeout: 900_000,
}, () => {
  let walk: ChildProcess;
  let printed = "";
  let exited: Promise<number | null>;
  let home: TempDir;

  before(async () => {
    home = await createTempDir("svc-try-home-");
    walk = spawn(process.execPath, [SCRIPT], { cwd: REPO, stdio: ["ignore", "pipe", "pipe"] });
    exited = new Promise((done) => walk.on("exit", (code) => done(code)));
    walk.stderr?.on("data", (chunk: Buffer) => {
      printed += chunk.toString();
    });
    await new Promise<void>((ready, fail) => {
      walk.stdout?.on("data", (chunk: Buffer) => {
        printed += chunk.toString();
        if (printed.includes("Ctrl-C here stops everything")) ready();
      });
      void exited.then((code) =>
        fail(new Error(`try-operator exited ${code} before it was ready:\n${printed}`)),
      );
    });
  });

  after(async () => {
    if (walk.exitCode === null) walk.kill("SIGTERM");
    await exited;
    await home.remove();
  });

  it("prints svc commands that all succeed as written: grant, launch --wait (sealed), logs, get, trust, verify (VERIFIED), ledger; Ctrl-C leaves no process or folder", async () => {
    const folder = /everything lives in (\/\S+)/.exec(printed)?.[1];
    assert.ok(folder && existsSync(folder), printed);
    const lines = printed
      .split("\n")
      .filter((line) => /^ {2}(export |npx svc )/.test(line))
      .map((line) => line.trim());
    const verbs = lines.map((line) => line.split(" ").slice(0, 4).join(" "));
    for (const wanted of [
      "npx svc context add",
      "npx svc entitlement issue",
      "npx svc runs launch",
      "npx svc runs logs",
      "npx svc runs get",
      "npx svc seal verify",
    ])
      assert.ok(
        verbs.some((verb) => verb.startsWith(wanted)),
        `no ${wanted} line:\n${lines.join("\n")}`,
      );

    // npx asks the registry for a newer npm unless told not to: loopback only here.
    const env: NodeJS.ProcessEnv = {
      PATH: process.env.PATH ?? "",
      HOME: home.path,
      npm_config_update_notifier: "false",
    };
    const outputs = new Map<string, string>();
    for (const line of lines) {
      const exported = /^export (\w+)=(\S+)$/.exec(line);
      if (exported) {
        env[exported[1] as string] = exported[2];
        continue;
      }
      const { code, out } = await runLine(line, env);
      assert.equal(code, 0, `${line}\n${out}`);
      outputs.set(line.split(" ").slice(1, 4).join(" "), out);
    }
    assert.equal(env.XDG_CONFIG_HOME, join(folder, "config"), "svc's contexts stay in the walk's folder");
    const said = (prefix: string) => [...outputs].find(([key]) => key.startsWith(prefix))?.[1] ?? "";
    assert.match(
      said("svc entitlement issue"),
      /granted 1 standard run\(s\) to system:serviceaccount:audit:audit/,
    );
    assert.match(said("svc runs launch"), /run run-try-1: sealed/);
    assert.match(said("svc runs launch"), /claim strength SUPPORTED/);
    assert.match(said("svc runs logs"), /run sealed/);
    assert.match(said("svc seal verify"), /VERIFIED/);
    assert.match(
      said("svc entitlement ledger"),
      /consume\s+system:serviceaccount:audit:audit\s+standard\s+-1\s+0\s+run-try-1/,
    );
    assert.match(await readFile(join(folder, "downloads", "report.html"), "utf8"), /<html/i);

    walk.kill("SIGTERM");
    assert.equal(await exited, 0, printed);
    assert.equal(existsSync(folder), false, `${folder} is left`);
    assert.deepEqual(processesNaming(folder), [], "processes of the walk are left");
  });
});
