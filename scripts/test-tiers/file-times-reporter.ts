// A node:test reporter (issue 41 item 4): one JSON line per test file, {"file", "seconds"}, from the
// per-file summary node --test emits when each file runs in its own process (`test:summary` with a
// `file`; its duration is the wall time of the file's tests and hooks, its module loading aside). run-tier.ts adds it beside the usual reporter
// and reads the lines back to print the slowest files and update file-costs.json.
import type { TestEvent } from "node:test/reporters";

// biome-ignore lint/style/noDefaultExport: node --test loads a custom reporter as the module's default export
export default async function* fileTimes(source: AsyncIterable<TestEvent>): AsyncGenerator<string> {
  for await (const event of source) {
    if (event.type !== "test:summary") continue;
    const data = event.data as { file?: string; duration_ms: number };
    if (data.file === undefined) continue;
    yield `${JSON.stringify({ file: data.file, seconds: data.duration_ms / 1000 })}\n`;
  }
}
