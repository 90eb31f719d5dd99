import { AssertionError } from "node:assert";
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type { AnswerRecord, AnswerValue, StoredAnswersFile } from "./stored-answers-file.ts";
import { writeAnswersProvenance } from "./stored-answers-provenance.ts";

// The heavy science validations (OpenMM MD, MM-GBSA, GFN2 clusters and IPs) keep every case's answer
// in test/answers/<name>.json instead of recomputing all of them on every run (issue 41 item 4: they
// were most of the validation tier's CPU). Without SVC_RECOMPUTE_ANSWERS a test recomputes a fixed
// sample of its cases and requires the stored answers there, then derives its figures and docs block
// from the stored set with the recomputed sample in it; with it, the test computes every case and
// rewrites the file. The same pattern as test/oracles/ for native RDKit (native-oracles.ts).

/** Set to 1 to compute every case and rewrite the stored answers. */
export const RECOMPUTE_ANSWERS_ENV = "SVC_RECOMPUTE_ANSWERS";

/** Where the stored answers and their PROVENANCE.md live. */
export const ANSWERS_DIR = fileURLToPath(new URL("../answers/", import.meta.url));

export interface StoredAnswersOptions {
  /** The file is `<dir>/<name>.json`. */
  readonly name: string;
  /** The generating test's repository path, e.g. `packages/science/src/physics/mm-gbsa.validation.test.ts`. */
  readonly test: string;
  /**
   * Every case id in the order the test reports them, each with what it is computed from (settings,
   * input text): its digest is stored, so a changed input fails even for a case the sample skips.
   */
  readonly cases: ReadonlyMap<string, unknown>;
  /** The fixed cases recomputed on an ordinary run: at least one per target, series or class. */
  readonly sample: readonly string[];
  /**
   * Absolute tolerance per top-level field (applies to every number under it); a field not named
   * here must be recomputed exactly. Each test justifies its tolerances where it states them.
   */
  readonly tolerance?: Readonly<Record<string, number>>;
  /**
   * The versions of the programs the answers are computed with, recorded in the file (and shown
   * beside a difference): `flatToolVersions` of stored-answers-tools.ts.
   */
  readonly tools: () => Promise<Readonly<Record<string, string | null>>>;
  /** Defaults to {@link ANSWERS_DIR}; tests of this module use a temp dir. */
  readonly dir?: string;
  /** Defaults to `SVC_RECOMPUTE_ANSWERS=1` in the environment. */
  readonly recompute?: boolean;
}

const isRecomputing = (options: StoredAnswersOptions) =>
  options.recompute ?? process.env[RECOMPUTE_ANSWERS_ENV] === "1";

const fileOf = (options: StoredAnswersOptions) => join(options.dir ?? ANSWERS_DIR, `${options.name}.json`);

/** The command that rewrites a test's stored answers. */
export function regenerateCommand(test: string): string {
  return `${RECOMPUTE_ANSWERS_ENV}=1 node --test ${test}`;
}

/** The cases this run computes, in case order: every one when regenerating, else the sample. */
export function casesToCompute(options: StoredAnswersOptions): string[] {
  const ids = [...options.cases.keys()];
  for (const id of options.sample)
    if (!options.cases.has(id)) throw new Error(`${options.name}: sample case ${id} is not a case`);
  if (options.sample.length === 0) throw new Error(`${options.name}: an empty sample recomputes nothing`);
  return isRecomputing(options) ? ids : ids.filter((id) => options.sample.includes(id));
}

/**
 * Every case's answer, in case order. Regenerating: `computed` must hold every case, and is written
 * to the stored file. Otherwise: the stored file must hold exactly the test's cases with unchanged
 * inputs, and each computed (sample) case must equal its stored answer (within `tolerance`); any
 * difference fails naming the case and field. The stored answers are returned with the computed
 * ones in their place.
 */
export async function settleAnswers<R extends object>(
  options: StoredAnswersOptions,
  computed: ReadonlyMap<string, R>,
): Promise<Map<string, R>> {
  const ids = [...options.cases.keys()];
  const regenerate = regenerateCommand(options.test);
  const tools = await options.tools();
  if (isRecomputing(options)) {
    const missing = ids.filter((id) => !computed.has(id));
    if (missing.length > 0) throw new Error(`${options.name}: no answer computed for ${missing.join(", ")}`);
    const file: StoredAnswersFile = {
      test: options.test,
      regenerate,
      tools,
      computed_on: new Date().toISOString().slice(0, 10),
      sample: options.sample,
      answers: Object.fromEntries(
        ids.map((id) => [
          id,
          { inputs_sha256: inputsDigest(options.cases.get(id)), answer: computed.get(id) as AnswerRecord },
        ]),
      ),
    };
    mkdirSync(options.dir ?? ANSWERS_DIR, { recursive: true });
    writeFileSync(fileOf(options), `${JSON.stringify(file, null, 2)}\n`);
    writeAnswersProvenance(options.dir ?? ANSWERS_DIR);
    return new Map(ids.map((id) => [id, computed.get(id) as R]));
  }
  const path = fileOf(options);
  if (!existsSync(path)) throw new Error(`${options.name}: no stored answers at ${path}; run ${regenerate}`);
  const stored = JSON.parse(readFileSync(path, "utf8")) as StoredAnswersFile;
  const problems: string[] = [];
  for (const id of ids) {
    const entry = stored.answers[id];
    if (entry === undefined) problems.push(`case ${id}: no stored answer`);
    else if (entry.inputs_sha256 !== inputsDigest(options.cases.get(id)))
      problems.push(`case ${id}: its inputs changed since the answer was stored`);
  }
  for (const id of Object.keys(stored.answers))
    if (!options.cases.has(id)) problems.push(`case ${id}: stored but no longer a case of the test`);
  for (const [id, answer] of computed) {
    const entry = stored.answers[id];
    if (entry === undefined) continue;
    for (const difference of differences(entry.answer, answer as AnswerValue, options.tolerance ?? {}))
      problems.push(`case ${id} ${difference}`);
  }
  if (problems.length > 0) {
    const versions = Object.keys({ ...stored.tools, ...tools })
      .filter((key) => stored.tools[key] !== tools[key])
      .map((key) => `${key}: stored ${stored.tools[key]}, now ${tools[key]}`);
    throw new AssertionError({
      message: [
        `${options.name}: the recomputed sample disagrees with the stored answers (${path}):`,
        ...problems.map((problem) => `  ${problem}`),
        ...(versions.length > 0 ? ["tool versions differ:", ...versions.map((v) => `  ${v}`)] : []),
        `If the change is intended, regenerate: ${regenerate}`,
      ].join("\n"),
    });
  }
  return new Map(ids.map((id) => [id, computed.get(id) ?? (stored.answers[id]?.answer as unknown as R)]));
}

/** Field-by-field differences between a stored and a recomputed answer: `field <path>: stored …, recomputed …`. */
function differences(
  stored: AnswerValue,
  recomputed: AnswerValue,
  tolerance: Readonly<Record<string, number>>,
): string[] {
  const out: string[] = [];
  const walk = (a: AnswerValue | undefined, b: AnswerValue | undefined, path: string, allowed: number) => {
    if (typeof a === "number" && typeof b === "number") {
      if (!(Math.abs(a - b) <= allowed))
        out.push(
          `field ${path}: stored ${a}, recomputed ${b}${allowed > 0 ? ` (tolerance ${allowed})` : ""}`,
        );
      return;
    }
    if (Array.isArray(a) && Array.isArray(b)) {
      if (a.length !== b.length) out.push(`field ${path}: stored ${a.length} items, recomputed ${b.length}`);
      else for (const [i, item] of a.entries()) walk(item, b[i], `${path}[${i}]`, allowed);
      return;
    }
    if (isObject(a) && isObject(b)) {
      for (const key of new Set([...Object.keys(a), ...Object.keys(b)]))
        walk(
          a[key],
          b[key],
          path === "" ? key : `${path}.${key}`,
          path === "" ? (tolerance[key] ?? 0) : allowed,
        );
      return;
    }
    if (a !== b) out.push(`field ${path}: stored ${JSON.stringify(a)}, recomputed ${JSON.stringify(b)}`);
  };
  walk(stored, recomputed, "", 0);
  return out;
}

const isObject = (value: AnswerValue | undefined): value is { readonly [key: string]: AnswerValue } =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/** sha256 of a case's inputs as JSON with sorted keys (so key order does not matter). */
export function inputsDigest(inputs: unknown): string {
  const sorted = (value: unknown): unknown =>
    Array.isArray(value)
      ? value.map(sorted)
      : typeof value === "object" && value !== null
        ? Object.fromEntries(
            Object.keys(value)
              .sort()
              .map((key) => [key, sorted((value as Record<string, unknown>)[key])]),
          )
        : value;
  return createHash("sha256")
    .update(JSON.stringify(sorted(inputs) ?? null))
    .digest("hex");
}
