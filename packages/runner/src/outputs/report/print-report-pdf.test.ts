import assert from "node:assert/strict";
import { test } from "node:test";
import { makePdfReproducible } from "./print-report-pdf.ts";

test("PDF dates become the run's instant and local links relative, at the same length", () => {
  const pdf = Buffer.from(
    "%PDF-1.4\n<</CreationDate (D:20261123114101+00'00')\n/ModDate (D:20261123114101+00'00')>>\n" +
      "<</URI (file:///tmp/run_x/results/report.csv)>>\nxref\n",
    "latin1",
  );
  const out = makePdfReproducible(pdf, "2026-01-02T03:04:05Z", "file:///tmp/run_x/results/");
  assert.equal(out.length, pdf.length, "offsets in the cross-reference table still hold");
  const text = out.toString("latin1");
  assert.match(text, /\/CreationDate \(D:20260102030405\+00'00'\)/);
  assert.match(text, /\/ModDate \(D:20260102030405\+00'00'\)/);
  assert.match(text, /<<\/URI \(report\.csv\) +>>/);
  assert.doesNotMatch(text, /tmp\/run_x/);
});
