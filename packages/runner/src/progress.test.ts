import assert from "node:assert/strict";
import { test } from "node:test";
import { createLogger } from "./log.ts";
import { createProgress } from "./progress.ts";

function clock() {
  let ms = 0;
  return { now: () => ms, advance: (by: number) => (ms += by) };
}

test("JSON progress reports done, total, percent, rate and ETA at most every interval", () => {
  const lines: string[] = [];
  const time = clock();
  const log = createLogger("json", { write: (line) => lines.push(line), tty: false });
  const progress = createProgress({
    log,
    label: "analysing",
    phase: "modules",
    total: 1000,
    intervalMs: 5000,
    now: time.now,
  });
  for (let done = 1; done <= 300; done++) {
    time.advance(25);
    progress.tick(done);
  }
  progress.finish(300);
  const reports = lines.map((line) => JSON.parse(line));
  assert.equal(reports.length, 2, "one after 5 s, one at the end");
  assert.deepEqual(
    (({ done, total, percent, rate_per_s, eta_s }) => ({ done, total, percent, rate_per_s, eta_s }))(
      reports[0],
    ),
    { done: 200, total: 1000, percent: 20, rate_per_s: 40, eta_s: 20 },
  );
  assert.equal(reports[1].eta_s, 0);
});

test("no ETA until a tenth of the work is done: a slow start does not promise hours (issue 28 item 6)", () => {
  const lines: string[] = [];
  const time = clock();
  const log = createLogger("json", { write: (line) => lines.push(line), tty: false });
  const progress = createProgress({ log, label: "analysing", phase: "modules", total: 1000, now: time.now });
  time.advance(5000); // workers starting: 4 rows in the first 5 s
  progress.tick(4);
  time.advance(5000);
  progress.tick(150);
  const reports = lines.map((line) => JSON.parse(line));
  assert.equal(reports.length, 2);
  assert.equal("eta_s" in reports[0], false, "0.4% done: no ETA");
  assert.equal(reports[1].eta_s, 57, "15% done: an ETA from the mean rate");
});

test("on a terminal the progress line is redrawn in place and ended before the next log line", () => {
  let out = "";
  const time = clock();
  const log = createLogger("text", { write: (text) => (out += text), tty: true });
  const progress = createProgress({
    log,
    label: "validating",
    phase: "inputs",
    total: 10,
    intervalMs: 1,
    now: time.now,
  });
  for (let done = 1; done <= 3; done++) {
    time.advance(10);
    progress.tick(done);
  }
  log.warn("something");
  assert.equal(out.split("\r\u001b[K").length - 1, 3, "three redraws: carriage return + erase line");
  assert.equal(out.split("\n").length, 3, "the redrawn line, the warning, and the final newline");
  assert.match(out, /validating 3\/10 .*percent=30/);
});

test("a long item still prints a line at least every 30 s with the count so far: docking a compound for minutes never reads as a hang (issue 37 item 3)", (t) => {
  t.mock.timers.enable({ apis: ["setInterval"] });
  const lines: string[] = [];
  const time = clock();
  const log = createLogger("json", { write: (line) => lines.push(line), tty: false });
  const progress = createProgress({ log, label: "docking", phase: "structures", total: 6, now: time.now });
  progress.tick(1);
  // Five minutes on the second compound, no tick: a heartbeat line every 30 s with done 1.
  for (let second = 0; second < 300; second += 5) {
    time.advance(5000);
    t.mock.timers.tick(5000);
  }
  const beats = lines.map((line) => JSON.parse(line));
  assert.ok(beats.length >= 9 && beats.length <= 10, `${beats.length} lines in 300 s`);
  assert.ok(beats.every((beat) => beat.done === 1 && beat.total === 6));
  progress.finish(6);
  const count = lines.length;
  time.advance(60_000);
  t.mock.timers.tick(60_000);
  assert.equal(lines.length, count, "no heartbeat after finish");
});
