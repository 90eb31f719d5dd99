import type { ChildProcess } from "node:child_process";

/**
 * The loopback URL a service started with PORT=0 announces in its start-up log line
 * (`{"url":"http://127.0.0.1:<port>"}`); rejects if the process exits first. One home for every
 * bench that starts a service.
 */
export function serviceUrl(child: ChildProcess): Promise<string> {
  return new Promise<string>((resolve, reject) => {
    let output = "";
    child.stdout?.on("data", (chunk: Buffer) => {
      output += chunk.toString();
      const match = /"url":"(http:\/\/127\.0\.0\.1:\d+)"/.exec(output);
      if (match) resolve(match[1] as string);
    });
    child.once("exit", (code) => reject(new Error(`service exited ${code}`)));
  });
}
