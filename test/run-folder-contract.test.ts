// issue 41 item 1, "Done when": the run folder's file names are spelled only in core's contract
// (packages/core/src/run-folder/, docs/contracts/run-folder.md), and every reader of a run goes
// through core's readRunFolder instead of parsing a run file itself.
import assert from "node:assert/strict";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { describe, test } from "node:test";
import { RUN_FILES, walkTree } from "@svc/core";
import { lexSource } from "./support/code-strings.ts";

const ROOT = new URL("..", import.meta.url).pathname;
const PACKAGES = join(ROOT, "packages");

/**
 * Production code only. Tests and @svc/testing (the test-support package, never a production
 * dependency) keep literal names on purpose: they are the independent statement of what a run
 * folder holds (a test that spelled the names from RUN_FILES would follow a wrong contract), and
 * the tampering corpora write paths a forger would, outside any contract.
 */
function isProductionFile(path: string): boolean {
  return (
    /^packages\/[^/]+\/(src|bin)\//.test(path) &&
    !path.startsWith("packages/testing/") &&
    !/\.test\.ts$/.test(path) &&
    !/(^|\/)test-support\//.test(path)
  );
}

/** Core's contract, where every name is spelled once. */
const CONTRACT = "packages/core/src/run-folder/";

/**
 * Core files that spell names as a person reads them, allowed with the reason: the released
 * verify.sh and the VERIFY.md the seal's payload reproduces are texts whose every byte is pinned
 * (RELEASED_VERIFY_SCRIPT_SHA256; checkSealCompanions compares VERIFY.md byte for byte), read by
 * people running them by hand; an interpolated name would hide from that reader what is checked.
 */
const PINNED_TEXTS = new Set([
  "packages/core/src/seal/verify-script.ts",
  "packages/core/src/seal/verify-instructions.ts",
]);

async function sourceFiles(): Promise<string[]> {
  const files: string[] = [];
  for (const entry of readdirSync(PACKAGES, { withFileTypes: true })) {
    if (!entry.isDirectory()) continue;
    for (const folder of ["src", "bin"]) {
      const dir = join(PACKAGES, entry.name, folder);
      if (!existsSync(dir)) continue;
      const { files: found } = await walkTree(dir, {
        exclude: (path) => path.split("/").includes("node_modules"),
      });
      for (const path of found) if (path.endsWith(".ts")) files.push(relative(ROOT, join(dir, path)));
    }
  }
  return files.filter(isProductionFile).sort();
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/** The run's top-level folders (`results`, `seal`, …) and the folders below them (`poses`). */
const RUN_DIRS = [
  ...new Set(
    Object.values(RUN_FILES)
      .filter((path) => path.endsWith("/") && !path.startsWith("."))
      .flatMap((path) => path.slice(0, -1).split("/"))
      .filter((part) => !part.includes("<")),
  ),
];

/**
 * What spells a run file outside the contract, in a string literal:
 * - a path into a run folder: a run folder followed by `/` where a path starts;
 * - a distinctive file name of RUN_FILES outside seal/ (its last part, `<…>` parts as any text):
 *   `summary.json`, `_module_plan.json`, `_raw.json`, `run_manifest.json`, … Left out: a name with
 *   no text of its own (`<module>.json`); the report's files, which the page links by relative
 *   URLs (`report.csv` beside `report.html`), not run paths; the seal's files and verify.sh, whose
 *   names are also those of standalone files (`svc seal verify seal.svg`, a printed verify.sh):
 *   inside a run they are caught as `seal/…` and `repro_pack/…` paths.
 */
const PATH_INTO_RUN = new RegExp(`(^|[\\s"'(\`=])(${RUN_DIRS.map(escapeRegExp).join("|")})/([\\w<$*.-]|$)`);
const FILE_NAMES = Object.entries(RUN_FILES)
  .filter(([key, path]) => !path.endsWith("/") && !/^(report|seal|preseal|verifyScript)/.test(key))
  .map(([, path]) => (path.split("/").at(-1) as string).split(/<[a-z_]+>/))
  .filter((parts) => parts.join("").replace(/\.[a-z]+$/, "").length >= 3)
  .map(
    (parts) => new RegExp(`(^|[^\\w-])${parts.map(escapeRegExp).join(".*")}`.replace("(^|[^\\w-])_", "_")),
  );

interface Finding {
  readonly file: string;
  readonly line: number;
  readonly text: string;
}

function spellings(file: string, source: string): Finding[] {
  const found: Finding[] = [];
  for (const literal of lexSource(source).strings) {
    const { text } = literal;
    const named =
      PATH_INTO_RUN.test(text) ||
      FILE_NAMES.some((pattern) => pattern.test(text)) ||
      // a run folder as a path segment: join(runDir, "seal"), resolve(root, "results")
      (/(^|\.)(join|resolve)$/.test(literal.callee) && RUN_DIRS.includes(text));
    if (named) found.push({ file, line: literal.line, text: text.slice(0, 100) });
  }
  return found;
}

describe("run folder contract (docs/contracts/run-folder.md)", () => {
  test("the scan recognises the spellings it forbids, and not the contract's own helpers", () => {
    // `#{` stands for a template's `${` in these sources
    const hits = (source: string) =>
      spellings("x.ts", source.replaceAll("#{", "${")).map((finding) => finding.text);
    assert.deepEqual(hits('join(runDir, "results", "summary.json")'), ["results", "summary.json"]);
    assert.deepEqual(hits("join(dir, `#{id}_raw.json`)"), ["_raw.json"]);
    assert.deepEqual(hits("const p = `plans/#{runId}_module_plan.json`;"), ["plans/", "_module_plan.json"]);
    assert.deepEqual(hits('readFile(join(runDir, "seal", name))'), ["seal"]);
    assert.deepEqual(hits('const s = "see seal/seal.json";'), ["see seal/seal.json"]);
    assert.deepEqual(
      hits('// results/summary.json in a comment\nrunPath("modulePlan", { run_id })'),
      ["modulePlan"].filter(() => false),
    );
    assert.deepEqual(hits('log.info("x", { phase: "seal" }); program.command("seal")'), []);
    assert.deepEqual(hits('const risk = "thresholds/risk_summary.json";'), ["thresholds/risk_summary.json"]);
  });

  test("production code spells no run-folder file or folder name outside core's contract", async () => {
    const found: Finding[] = [];
    for (const file of await sourceFiles()) {
      if (file.startsWith(CONTRACT) || PINNED_TEXTS.has(file)) continue;
      found.push(...spellings(file, readFileSync(join(ROOT, file), "utf8")));
    }
    assert.deepEqual(
      found.map((finding) => `${finding.file}:${finding.line}: ${finding.text}`),
      [],
      "use RUN_FILES / runPath from @svc/core",
    );
  });
});

/**
 * The run folder's documents (RUN_FILES outside seal/): summary, plan, manifest, hash lists,
 * results. The seal's files are not among them: core's verifiers read those as bytes (the signed
 * bytes are what is checked, issue 23), and the Go interop check hands Go the folder's bytes.
 */
const DOCUMENT_KEYS = Object.entries(RUN_FILES)
  .filter(([key, path]) => /\.json$/.test(path) && !/^(seal|preseal)/.test(key))
  .map(([key]) => key);
const NAMES_A_DOCUMENT = new RegExp(
  `RUN_FILES\\.(${DOCUMENT_KEYS.join("|")})\\b|runPath\\(\\s*"(${DOCUMENT_KEYS.join("|")})"|RUN_MANIFEST_FILE|EXPECTED_OUTPUT_HASHES_FILE|structureResultFile\\(`,
);

/** True when code text names a run document, through the contract or (banned above) literally. */
const namesDocument = (text: string) =>
  NAMES_A_DOCUMENT.test(text) || FILE_NAMES.some((pattern) => pattern.test(text));

/** The text of a call's argument list starting at `open` (the index of its `(`). */
function argumentsAt(code: string, open: number): string {
  let depth = 0;
  for (let i = open; i < code.length; i++) {
    if (code[i] === "(") depth++;
    else if (code[i] === ")" && --depth === 0) return code.slice(open + 1, i);
  }
  return code.slice(open + 1);
}

/** Where `code` parses a run document itself: JSON.parse of a readFile of one, directly or through a variable. */
function ownParses(file: string, source: string): string[] {
  const { code } = lexSource(source);
  const lineOf = (index: number) => code.slice(0, index).split("\n").length;
  // variables holding a document's path (`const path = join(runRoot, "results", "summary.json")`)
  const paths = new Set<string>();
  for (const match of code.matchAll(/(?:const|let|var)\s+([\w$]+)\s*=\s*(?:join|resolve)\s*\(/g)) {
    const open = (match.index ?? 0) + match[0].length - 1;
    if (namesDocument(argumentsAt(code, open))) paths.add(match[1] as string);
  }
  const viaPath = (text: string) =>
    namesDocument(text) || [...paths].some((name) => new RegExp(`\\b${name}\\b`).test(text));
  // variables holding a document's text (`const text = await readFile(path, "utf8")`)
  const read = new Set<string>();
  for (const match of code.matchAll(
    /(?:const|let|var)?\s*([\w$]+)\s*=\s*(?:await\s+)?readFile(?:Sync)?\s*\(/g,
  )) {
    const open = (match.index ?? 0) + match[0].length - 1;
    if (viaPath(argumentsAt(code, open))) read.add(match[1] as string);
  }
  const found: string[] = [];
  for (const match of code.matchAll(/JSON\.parse\s*\(/g)) {
    const index = match.index ?? 0;
    const argument = argumentsAt(code, index + match[0].length - 1);
    const direct = /readFile/.test(argument) && viaPath(argument);
    const throughVariable = [...read].some((name) => new RegExp(`^\\s*${name}\\b`).test(argument));
    if (direct || throughVariable)
      found.push(`${file}:${lineOf(index)}: JSON.parse(${argument.slice(0, 80)})`);
  }
  return found;
}

describe("every reader of a run goes through readRunFolder (issue 41 item 1)", () => {
  test("the scan finds a run document parsed in place, directly or through a variable", () => {
    const direct =
      'const s = JSON.parse(await readFile(join(runDir, RUN_FILES.summary), "utf8")) as Summary;';
    const twoSteps =
      'const text = await readFile(join(dir, runPath("modulePlan", { run_id })), "utf8");\nconst plan = JSON.parse(text);';
    assert.equal(ownParses("x.ts", direct).length, 1);
    assert.equal(ownParses("x.ts", twoSteps).length, 1);
    const viaPathVariable =
      'const path = join(runRoot, "results", "summary.json");\nconst s = JSON.parse(await readFile(path, "utf8"));';
    assert.equal(ownParses("x.ts", viaPathVariable).length, 1);
    assert.deepEqual(ownParses("x.ts", 'const s = JSON.parse(await readFile(configPath, "utf8"));'), []);
    assert.deepEqual(ownParses("x.ts", "const summary = await readRunFolder(runDir).summary();"), []);
  });

  test("no production code outside core parses a run document itself (@svc/testing included)", async () => {
    const files = (await sourceFiles()).filter((file) => !file.startsWith("packages/core/"));
    const testing = (await walkTree(join(PACKAGES, "testing", "src"))).files
      .filter((path) => path.endsWith(".ts") && !path.endsWith(".test.ts"))
      .map((path) => `packages/testing/src/${path}`);
    const found = [...files, ...testing].flatMap((file) =>
      ownParses(file, readFileSync(join(ROOT, file), "utf8")),
    );
    assert.deepEqual(found, [], "read it with readRunFolder(runDir) from @svc/core");
  });

  test("the readers of runs — preflight, the CLI, the runner's report and seal — import readRunFolder", () => {
    const readers = [
      "packages/preflight/src/runs/run-output-facts.ts",
      "packages/cli/src/local/run-local-audit.ts",
      "packages/cli/src/run-folder/verify-run-folder.ts",
      "packages/runner/src/outputs/docking-result-file.ts",
      "packages/runner/src/outputs/report/structure-records.ts",
      "packages/runner/src/outputs/provenance-facts.ts",
    ];
    for (const file of readers)
      assert.match(
        readFileSync(join(ROOT, file), "utf8"),
        /\breadRunFolder\b[^;]*from "@svc\/core"|import \{[^}]*\breadRunFolder\b[^}]*\} from "@svc\/core"/,
        file,
      );
  });
});
