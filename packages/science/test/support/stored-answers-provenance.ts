import { createHash } from "node:crypto";
import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { replaceGeneratedBlock } from "@svc/testing";
import type { StoredAnswersFile } from "./stored-answers-file.ts";

// test/answers/PROVENANCE.md lists every stored-answers file with its sha256 (as test/oracles/ does
// for native RDKit): a regenerating test rewrites the table, stored-answers.test.ts requires it to
// match the files, so a file changed by hand or left unlisted fails.

/** The generated block's name and the file it is kept in step by. */
export const ANSWERS_PROVENANCE_BLOCK = "stored-answers";
export const ANSWERS_PROVENANCE_SOURCE = "packages/science/test/stored-answers.test.ts";

/** The stored-answers files of `dir`, sorted by name. */
export function answersFilesIn(dir: string): string[] {
  return readdirSync(dir)
    .filter((name) => name.endsWith(".json"))
    .sort();
}

/** The PROVENANCE table of `dir`'s stored-answers files: test, command, cases, tools, date, sha256. */
export function answersProvenanceTable(dir: string): string {
  const rows = answersFilesIn(dir).map((name) => {
    const bytes = readFileSync(join(dir, name));
    const file = JSON.parse(bytes.toString("utf8")) as StoredAnswersFile;
    const tools = Object.entries(file.tools)
      .map(([tool, version]) => `${tool} ${version ?? "—"}`)
      .join("; ");
    return `| \`${name}\` | \`${file.test}\` | \`${file.regenerate}\` | ${Object.keys(file.answers).length} (sample ${file.sample.length}) | ${tools} | ${file.computed_on} | ${createHash("sha256").update(bytes).digest("hex")} |`;
  });
  return [
    "| file | computed by | regenerate with | cases (recomputed each run) | tool versions | computed on | sha256 |",
    "|---|---|---|---|---|---|---|",
    ...rows,
  ].join("\n");
}

/** Rewrites `dir`/PROVENANCE.md's table from the files there (nothing when it has no PROVENANCE.md). */
export function writeAnswersProvenance(dir: string): void {
  const path = join(dir, "PROVENANCE.md");
  if (!existsSync(path)) return;
  const doc = readFileSync(path, "utf8");
  const updated = replaceGeneratedBlock(
    doc,
    ANSWERS_PROVENANCE_BLOCK,
    ANSWERS_PROVENANCE_SOURCE,
    answersProvenanceTable(dir),
  );
  if (updated !== doc) writeFileSync(path, updated);
}
