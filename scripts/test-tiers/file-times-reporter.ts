// A node:test reporter (issue 41 item 4): one JSON line per test file, {"file", "seconds"}, for
// run-tier.ts to print the slowest files and update file-costs.json. The time is the per-file summary
// node --test emits when each file runs in its own process (`test:summary` with a `file`: the wall
// time of the file's tests and hooks, its module loading aside). A file whose process ends before
// that summary (the Postgres-backed files: their clean-up exits the process) gets the time from its
// first to its last reported event instead, as this reporter saw them arrive.
import type { TestEvent } from "node:test/reporters";

// biome-ignore lint/style/noDefaultExport: node --test loads a custom reporter as the module's default export
export default async function* fileTimes(source: AsyncIterable<TestEvent>): AsyncGenerator<string> {
  const seen = new Map<string, { first: number; last: number }>();
  const summarised = new Set<string>();
  for await (const event of source) {
    const data = event.data as { file?: string; duration_ms?: number };
    if (data.file === undefined) continue;
    const now = performance.now();
    const span = seen.get(data.file) ?? { first: now, last: now };
    span.last = now;
    seen.set(data.file, span);
    if (event.type !== "test:summary") continue;
    summarised.add(data.file);
    yield `${JSON.stringify({ file: data.file, seconds: (data.duration_ms ?? 0) / 1000 })}\n`;
  }
  for (const [file, { first, last }] of seen)
    if (!summarised.has(file)) yield `${JSON.stringify({ file, seconds: (last - first) / 1000 })}\n`;
}
