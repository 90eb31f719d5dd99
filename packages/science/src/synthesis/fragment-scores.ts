import { readFileSync } from "node:fs";
import { gunzipSync } from "node:zlib";
import { ScienceError } from "../science-error.ts";

/** The checked-in fragment table (data/PROVENANCE.md; format in scripts/convert-sa-fragment-scores.py). */
export const FRAGMENT_SCORES_FILE = "sa-fragment-scores.bin.gz";
const MAGIC = "SAFS1\n";

/** Fragment contributions of the SA score: Morgan id → score, from RDKit Contrib's fpscores.pkl.gz. */
export interface FragmentScores {
  readonly size: number;
  /** The score of a fragment id, or undefined when the table does not hold it. */
  get(id: number): number | undefined;
}

/** A data file that is not the format the conversion script writes. */
export class FragmentTableError extends ScienceError<"SA_FRAGMENT_TABLE_INVALID"> {
  constructor(message: string) {
    super("SA_FRAGMENT_TABLE_INVALID", message);
  }
}

/** Decodes the table: ids sorted (binary search), each with the index of its score. */
export function decodeFragmentScores(gzipped: Uint8Array): FragmentScores {
  const bytes = gunzipSync(gzipped);
  if (new TextDecoder().decode(bytes.subarray(0, MAGIC.length)) !== MAGIC)
    throw new FragmentTableError("not an SA fragment table (magic SAFS1 missing)");
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let at = MAGIC.length;
  const scoreCount = view.getUint32(at, true);
  const idCount = view.getUint32(at + 4, true);
  at += 8;
  const scores = new Float64Array(scoreCount);
  for (let i = 0; i < scoreCount; i++, at += 2) scores[i] = view.getInt16(at, true) / 10_000;
  const ids = new Uint32Array(idCount);
  let previous = 0;
  for (let i = 0; i < idCount; i++) {
    let gap = 0;
    let shift = 0;
    for (;;) {
      const byte = bytes[at++] ?? 0;
      gap += (byte & 0x7f) * 2 ** shift;
      shift += 7;
      if ((byte & 0x80) === 0) break;
    }
    previous += gap;
    ids[i] = previous;
  }
  const scoreIndex = new Uint16Array(idCount);
  for (let i = 0; i < idCount; i++, at += 2) scoreIndex[i] = view.getUint16(at, true);
  if (at !== bytes.length)
    throw new FragmentTableError(`fragment table has ${bytes.length - at} trailing bytes`);
  return {
    size: idCount,
    get(id: number): number | undefined {
      let lo = 0;
      let hi = idCount - 1;
      while (lo <= hi) {
        const mid = (lo + hi) >>> 1;
        const value = ids[mid] as number;
        if (value === id) return scores[scoreIndex[mid] as number];
        if (value < id) lo = mid + 1;
        else hi = mid - 1;
      }
      return undefined;
    },
  };
}

let loaded: FragmentScores | null = null;

/** The package's fragment table, read and decoded once per process (~0.1 s). */
export function fragmentScores(): FragmentScores {
  loaded ??= decodeFragmentScores(
    readFileSync(new URL(`../../data/${FRAGMENT_SCORES_FILE}`, import.meta.url)),
  );
  return loaded;
}
