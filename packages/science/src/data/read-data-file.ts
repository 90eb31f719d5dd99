import { readFileSync } from "node:fs";

/**
 * The text of one of the package's checked-in data files (`packages/science/data/`, described in
 * its PROVENANCE.md). This is the package's only I/O: method data ship with the code.
 */
export function readDataFile(name: string): string {
  return readFileSync(new URL(`../../data/${name}`, import.meta.url), "utf8");
}
