import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";

/** One `new <ErrorClass>(` of a package's source: where, and the code literal it names (null when it names none). */
export interface ThrownErrorCode {
  readonly at: string;
  readonly code: string | null;
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === "node_modules" ? [] : sourceFiles(path);
    return entry.name.endsWith(".ts") && !entry.name.endsWith(".test.ts") ? [path] : [];
  });
}

/**
 * Every construction of `errorClass` in the production source under `dirs` (test files left out),
 * with the code literal it passes first: what an exit or error table test compares with its table
 * (issue 41 item 3). A construction whose first argument is not a string literal has `code: null`,
 * so a test can refuse a code the scan cannot read.
 */
export function thrownErrorCodes(
  dirs: readonly string[],
  errorClass: string,
  root: string,
): ThrownErrorCode[] {
  const construction = new RegExp(`new ${errorClass}\\(\\s*(?:"([A-Z][A-Z0-9_]*)"|(?=[^\\s]))`, "g");
  return dirs.flatMap((dir) =>
    sourceFiles(dir).flatMap((file) => {
      const text = readFileSync(file, "utf8");
      return [...text.matchAll(construction)].map((match) => ({
        at: `${relative(root, file)}:${text.slice(0, match.index).split("\n").length}`,
        code: match[1] ?? null,
      }));
    }),
  );
}
