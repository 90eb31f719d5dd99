import { CliError } from "../cli-error.ts";
import type { CliIo } from "../cli-io.ts";
import type { PreflightClient } from "../http/preflight-client.ts";

const RETRY_MS = 2000;

/**
 * Streams `GET /api/runs/{runId}/logs` to stdout. With `follow`, a run whose pod has not started
 * (409 LOG_NOT_READY) is waited for, saying so once on stderr; the stream ends when the
 * container ends. A cut stream is one line and exit 10.
 */
export async function streamRunLog(
  client: PreflightClient,
  runId: string,
  query: Record<string, string | undefined>,
  follow: boolean,
  io: CliIo,
): Promise<void> {
  let response: Response;
  let told = false;
  for (;;) {
    response = await client.stream(`/api/runs/${encodeURIComponent(runId)}/logs`, query, { accept: [409] });
    if (response.status !== 409) break;
    const body = (await response.json().catch(() => ({}))) as { error?: { code?: string; message?: string } };
    if (body.error?.code !== "LOG_NOT_READY" || !follow)
      throw new CliError(
        "SERVICE_REFUSED",
        `the preflight service answered 409 ${body.error?.code}: ${body.error?.message}`,
      );
    if (!told) io.stderr(`svc: ${body.error.message}; waiting\n`);
    told = true;
    await new Promise((resolve) => setTimeout(resolve, RETRY_MS));
  }
  const decoder = new TextDecoder();
  try {
    for await (const chunk of response.body ?? [])
      io.stdout(decoder.decode(chunk as Uint8Array, { stream: true }));
  } catch (error) {
    throw new CliError(
      "SERVICE_UNREACHABLE",
      `the log stream was cut (${(error as Error).message}); run the command again (--tail N to skip what you saw)`,
    );
  }
  const rest = decoder.decode();
  if (rest) io.stdout(rest);
}
