import { readFileSync } from "node:fs";
import { gunzipSync } from "node:zlib";

/**
 * The text of one of the package's checked-in data files (`packages/science/data/`, described in
 * its PROVENANCE.md). This is the package's only I/O: method data ship with the code.
 */
export function readDataFile(name: string): string {
  return readFileSync(new URL(`../../data/${name}`, import.meta.url), "utf8");
}

/** The text of a gzipped data file (`*.gz`), e.g. DrugCentral's structures export. */
export function readGzipDataFile(name: string): string {
  return gunzipSync(readFileSync(new URL(`../../data/${name}`, import.meta.url))).toString("utf8");
}
