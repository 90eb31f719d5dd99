// `npm run demo [-- <project dir>]`: the README's first command. Starts the entitlement service on
// its embedded defaults, grants a run to a demo principal, stages examples/demo (or the project
// given), runs the audit job through the full entitled lifecycle, verifies the seal offline and
// online, and stops everything it started. The machinery is `svc local run`'s (packages/cli).
import { join, resolve } from "node:path";

const USAGE = `Usage: npm run demo [-- <project dir>]   (node scripts/demo.ts [<project dir>])

Starts an embedded entitlement service, grants one run, stages the project (default examples/demo),
runs the audit job, verifies the seal offline and online, and stops everything it started.
  <project dir>  a folder holding 01_sources/sources.json (examples/README.md lists the examples)
  -h, --help     print this and do nothing else
Env: SVC_DEMO_OUT  the output folder (default out/demo)
`;
// Asked for help, the demo only answers: nothing is loaded, started or written (issue 37 item 9).
if (process.argv.slice(2).some((arg) => arg === "--help" || arg === "-h")) {
  process.stdout.write(USAGE);
  process.exit(0);
}
const { CliError, runLocalAudit } = await import("@svc/cli");

const REPO = resolve(import.meta.dirname, "..");
// SVC_DEMO_OUT moves the demo folder (its test uses a temporary one); default ./out/demo.
const OUT = resolve(process.env.SVC_DEMO_OUT ?? join(REPO, "out", "demo"));
const PROJECT_DIR = resolve(process.argv[2] ?? join(REPO, "examples", "demo"));

// The demo runs in the repository, where `npx svc` finds the workspace's own svc: its printed hints
// say so (outside, `npx svc` is an unrelated public package; there `svc` is installed, README "Install").
process.env.SVC_HINT_COMMAND ??= "npx svc";

let exitCode = 1;
try {
  exitCode = await runLocalAudit({
    projectDir: PROJECT_DIR,
    outDir: OUT,
    label: "demo",
    title: "Demo",
    stdout: (text) => process.stdout.write(text),
    stderr: (text) => process.stderr.write(text),
    env: process.env,
  });
} catch (error) {
  console.error(
    error instanceof CliError ? `demo: ${error.message}` : `demo failed: ${(error as Error).message}`,
  );
}
process.exit(exitCode);
