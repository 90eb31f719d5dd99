import assert from "node:assert/strict";
import { test } from "node:test";
import { createEnvReader } from "@svc/core";
import { REPORT_DEFAULTS, resolveReportOptions } from "./report-options.ts";

const read = (env: Record<string, string>) => {
  const reader = createEnvReader(env);
  return { options: resolveReportOptions(reader), problems: reader.problems };
};

test("report options default to 500 cards, 10,000 rows, PDF when Chromium is present", () => {
  const { options, problems } = read({});
  assert.deepEqual(options, REPORT_DEFAULTS);
  assert.deepEqual(problems, []);
});

test("bad report options are all reported in the one config problem format, each naming its variable", () => {
  const { problems } = read({ SVC_REPORT_CARDS: "lots", SVC_REPORT_ROWS: "-1", SVC_REPORT_PDF: "yes" });
  assert.deepEqual(problems, [
    'SVC_REPORT_CARDS must be an integer from 0 to 1000 (got "lots")',
    'SVC_REPORT_ROWS must be an integer from 0 to 20000 (got "-1")',
    'SVC_REPORT_PDF must be one of auto, off (got "yes")',
  ]);
});

test("SVC_CHROMIUM_PATH and SVC_REPORT_PDF=off are honoured, trimmed as every setting is", () => {
  const { options } = read({ SVC_CHROMIUM_PATH: " /opt/chrome ", SVC_REPORT_PDF: "off" });
  assert.equal(options.chromiumPath, "/opt/chrome");
  assert.equal(options.pdf, "off");
});
