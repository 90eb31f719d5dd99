import assert from "node:assert/strict";
import { test } from "node:test";
import { REPORT_DEFAULTS, resolveReportOptions } from "./report-options.ts";

test("report options default to 500 cards, 10,000 rows, PDF when Chromium is present", () => {
  const problems: string[] = [];
  assert.deepEqual(resolveReportOptions({}, problems), REPORT_DEFAULTS);
  assert.deepEqual(problems, []);
});

test("bad report options are all reported, each naming its variable", () => {
  const problems: string[] = [];
  resolveReportOptions({ SVC_REPORT_CARDS: "lots", SVC_REPORT_ROWS: "-1", SVC_REPORT_PDF: "yes" }, problems);
  assert.equal(problems.length, 3);
  const all = problems.join("\n");
  assert.match(all, /^SVC_REPORT_CARDS "lots": must be an integer from 0 to 1000$/m);
  assert.match(all, /^SVC_REPORT_ROWS "-1": must be an integer from 0 to 20000$/m);
  assert.match(all, /^SVC_REPORT_PDF "yes": must be auto or off$/m);
});

test("SVC_CHROMIUM_PATH and SVC_REPORT_PDF=off are honoured", () => {
  const options = resolveReportOptions({ SVC_CHROMIUM_PATH: "/opt/chrome", SVC_REPORT_PDF: "off" }, []);
  assert.equal(options.chromiumPath, "/opt/chrome");
  assert.equal(options.pdf, "off");
});
