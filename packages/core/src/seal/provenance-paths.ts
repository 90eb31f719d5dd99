import { isOutsideSealedOutputs } from "../run-hashes.ts";
import { compareUtf8 } from "../walk-tree.ts";
import type { ProvenanceFacts } from "./provenance-statement.ts";

/** Which listed file a provenance path problem is about, as `provenance.<list>.<index>.path`. */
export interface ProvenancePathProblem {
  readonly field: string;
  readonly problem: string;
}

// C0 and C1 controls and DEL (Unicode category Cc): no file a run writes is named with them, and a terminal or a
// viewer acts on them instead of showing them
const CONTROL = /\p{Cc}/u;
// the bidirectional formatting characters of Unicode UAX #9 (LRE RLE PDF LRO RLO, LRI RLI FSI
// PDI, LRM RLM ALM): a name holding one reads as another name (CVE-2021-42574, "Trojan Source")
const BIDI_CONTROL = /[\u202a-\u202e\u2066-\u2069\u200e\u200f\u061c]/u;

/**
 * Issue 38 item 6: the paths the issuer signs as provenance must be ones a run folder holds, as
 * svc-tree/v1 lists them (core `digestTree`): relative POSIX paths with no empty, `.` or `..`
 * segment, each once, sorted by UTF-8 bytes (`LC_ALL=C sort`). A list that merely hashes to the
 * sealed digest can still name `../../etc/passwd`, and SLSA/in-toto consumers read subjects on
 * their own. Subjects (the outputs) are the runner's own files, so they are held to more: NFC
 * (RFC 8264's normalisation for identifiers; so no two subjects are the same name), no control
 * or bidi formatting character, and nothing under `seal/` (nor a scratch folder), which the
 * sealed outputs leave out (core `isOutsideSealedOutputs`). Inputs are
 * the customer's staged file names and are named as they are (an NFD name from macOS stays
 * signable), under `01_sources/`, so only the rules that keep them inside it and listed once apply.
 * The first problem, or null.
 */
export function findProvenancePathProblem(
  facts: Pick<ProvenanceFacts, "outputs" | "inputs">,
): ProvenancePathProblem | null {
  return findListProblem("outputs", facts.outputs, true) ?? findListProblem("inputs", facts.inputs, false);
}

function findListProblem(
  list: "outputs" | "inputs",
  files: readonly { path: string }[],
  subject: boolean,
): ProvenancePathProblem | null {
  const seenNfc = new Set<string>();
  let previous: string | null = null;
  for (const [index, { path }] of files.entries()) {
    const problem =
      segmentProblem(path) ??
      (subject ? subjectProblem(path) : null) ??
      orderProblem(path, previous, seenNfc);
    if (problem !== null)
      return { field: `provenance.${list}.${index}.path`, problem: `${JSON.stringify(path)} ${problem}` };
    seenNfc.add(path.normalize("NFC"));
    previous = path;
  }
  return null;
}

function segmentProblem(path: string): string | null {
  if (path.startsWith("/")) return "is absolute: a path relative to the run folder is expected";
  for (const segment of path.split("/")) {
    if (segment === "") return "has an empty segment (a leading, trailing or doubled /)";
    if (segment === "." || segment === "..") return `has a "${segment}" segment`;
  }
  if (path.includes("\\")) return "holds a backslash";
  return null;
}

function subjectProblem(path: string): string | null {
  if (CONTROL.test(path)) return "holds a control character";
  if (BIDI_CONTROL.test(path)) return "holds a bidirectional formatting character (e.g. U+202E)";
  if (path !== path.normalize("NFC")) return "is not in Unicode NFC";
  if (isOutsideSealedOutputs(path))
    return "is under seal/ (or a scratch folder), which the sealed outputs leave out";
  return null;
}

function orderProblem(path: string, previous: string | null, seenNfc: ReadonlySet<string>): string | null {
  if (previous === path || seenNfc.has(path.normalize("NFC"))) return "is listed twice";
  if (previous !== null && compareUtf8(previous, path) > 0)
    return `is not in svc-tree/v1 order (UTF-8 byte order): it comes after ${JSON.stringify(previous)}`;
  return null;
}
