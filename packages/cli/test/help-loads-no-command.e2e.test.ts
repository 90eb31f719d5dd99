import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { join } from "node:path";
import { test } from "node:test";

const SVC = join(import.meta.dirname, "..", "bin", "svc.ts");

// Records every module URL the process resolves (Node's synchronous module hooks) and prints
// them on exit, so the test reads what `svc --help` really loaded.
const RECORD_LOADS = `data:text/javascript,${encodeURIComponent(`
import { registerHooks } from "node:module";
const seen = [];
registerHooks({ resolve(specifier, context, next) { const r = next(specifier, context); seen.push(r.url); return r; } });
process.on("exit", () => process.stderr.write("\\nLOADED " + JSON.stringify(seen) + "\\n"));
`)}`;

/** What `svc --help` must not load: each costs start-up time (issue 28 item 3: --help under 300 ms). */
// @svc/core/coded-error, @svc/core/exit-registry, @svc/core/env-reader and @svc/core/run-files (the
// error base class, the exit table's factory, the config reader and the run folder's names, one small
// file each) are the only core modules allowed.
const HEAVY = [
  /\/packages\/core\/(?!src\/(coded-error|exit-registry|config\/env-reader|run-folder\/run-files)\.ts$)/,
  /@kubernetes\/client-node/,
  /\/undici\//,
  /\/zod\//,
  /\/qrcode\//,
];

test("svc --help and svc --version load neither @svc/core nor zod, the HTTP client or the Kubernetes client (issue 28 item 3)", () => {
  for (const flag of ["--help", "--version"]) {
    const run = spawnSync(process.execPath, ["--import", RECORD_LOADS, SVC, flag], { encoding: "utf8" });
    assert.equal(run.status, 0, run.stderr);
    const line = run.stderr.split("\n").find((l) => l.startsWith("LOADED "));
    assert.ok(line, `no load record in: ${run.stderr}`);
    const loaded: string[] = JSON.parse(line.slice("LOADED ".length));
    assert.ok(loaded.length > 0);
    const heavy = loaded.filter((url) => HEAVY.some((pattern) => pattern.test(url)));
    assert.deepEqual(heavy, [], `svc ${flag} loaded modules only a running command needs`);
  }
});
