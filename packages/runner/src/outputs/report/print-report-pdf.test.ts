import assert from "node:assert/strict";
import { test } from "node:test";
import { PRINT_SKIP_END, PRINT_SKIP_START } from "./page-shell.ts";
import { makePdfReproducible, printCopyOf } from "./print-report-pdf.ts";

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

test("every local link is made relative in place; other links and the rest of the bytes are untouched", () => {
  const base = "file:///tmp/run_é/results/";
  const latin1Base = Buffer.from(base, "utf8").toString("latin1");
  const source =
    `%PDF-1.4\n<</URI (${latin1Base}report.csv)>> <</URI (https://www.rdkit.org)>>\n` +
    `<</URI (${latin1Base}report.html#card-C1)>>\n/CreationDate (D:2026112311410+00'00')\nxref\n`;
  const pdf = Buffer.from(source, "latin1");
  const out = makePdfReproducible(pdf, "2026-01-02T03:04:05Z", base);
  const pad = " ".repeat(latin1Base.length);
  assert.equal(
    out.toString("latin1"),
    `%PDF-1.4\n<</URI (report.csv)${pad}>> <</URI (https://www.rdkit.org)>>\n` +
      `<</URI (report.html#card-C1)${pad}>>\n/CreationDate (D:2026112311410+00'00')\nxref\n`,
    "a malformed date (13 digits) is left alone",
  );
});

test("the printed copy drops what the print stylesheet hides, between the writer's markers, and keeps the rest", () => {
  const page = `<table><tbody><tr>1</tr>${PRINT_SKIP_START}<tr>2</tr><tr>3</tr>${PRINT_SKIP_END}</tbody></table><article>a</article>${PRINT_SKIP_START}<article>b</article>${PRINT_SKIP_END}<footer>end</footer>`;
  assert.equal(
    printCopyOf(page),
    "<table><tbody><tr>1</tr></tbody></table><article>a</article><footer>end</footer>",
  );
  assert.equal(printCopyOf("<p>no markers</p>"), "<p>no markers</p>");
  // An unclosed skip (never written by the writer) leaves the rest in place rather than losing it.
  assert.equal(printCopyOf(`a${PRINT_SKIP_START}b`), `a${PRINT_SKIP_START}b`);
});
