import { spawn } from "node:child_process";
import { once } from "node:events";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { CliError, EXIT } from "../cli-error.ts";
import { svcCommand } from "../svc-command.ts";

/** Path of the runner's bin, from its package entry (`<package>/src/index.ts` → `<package>/bin/`). */
export function runnerBin(): string {
  return join(dirname(dirname(fileURLToPath(import.meta.resolve("@svc/runner")))), "bin", "svc-runner.ts");
}

async function runNode(
  args: string[],
  out: (text: string) => void,
  err: (text: string) => void,
): Promise<number> {
  const child = spawn(process.execPath, args, { stdio: ["ignore", "pipe", "pipe"] });
  child.stdout.on("data", (chunk) => out(String(chunk)));
  child.stderr.on("data", (chunk) => err(String(chunk)));
  const [code] = (await once(child, "exit")) as [number | null];
  return code ?? EXIT.internal;
}

/**
 * `svc project check <dir>`: the runner's own validation (`svc-runner validate`: sources.json,
 * files, every row through RDKit), which never contacts the entitlement service, so nothing is
 * charged. Returns the runner's exit code (0 valid, 2 bad input).
 */
export async function checkProject(
  projectDir: string,
  out: (text: string) => void,
  err: (text: string) => void,
): Promise<number> {
  const dir = resolve(projectDir);
  const bin = runnerBin();
  let help = "";
  await runNode(
    [bin, "--help"],
    (text) => {
      help += text;
    },
    () => {},
  );
  if (!/^\s+validate\b/m.test(help))
    throw new CliError(
      "INPUT_INVALID",
      `this svc-runner has no validate command yet; run ${svcCommand()} local run <dir> to check the project end to end`,
      EXIT.internal,
    );
  const parts = dir.split("/");
  const projectId = parts.pop() ?? "";
  return runNode(
    [bin, "validate", "--project-id", projectId, "--input-root", parts.join("/") || "/"],
    out,
    err,
  );
}
