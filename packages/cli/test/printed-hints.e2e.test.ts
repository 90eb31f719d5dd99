import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { describe, it } from "node:test";
import { makeTempDir } from "@svc/testing";

const CLI = join(import.meta.dirname, "..");
const SVC = join(CLI, "bin", "svc.ts");
const SUBCOMMAND_HINT = /(?<![\w-])(?:npx )?svc (?:context|trust|project|local|runs|seal|entitlement)\b/;

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory()
      ? sourceFiles(join(dir, entry.name))
      : entry.name.endsWith(".ts") && !entry.name.endsWith(".test.ts")
        ? [join(dir, entry.name)]
        : [],
  );
}

function svc(args: string[], env: Record<string, string>) {
  return spawnSync(process.execPath, [SVC, ...args], {
    encoding: "utf8",
    env: { PATH: process.env.PATH ?? "", ...env },
  });
}

describe("hints svc prints are commands that work where they are printed (issue 28 item 3)", () => {
  it("say `svc` (the installed bin) when svc runs as itself, and `npx svc` when npx started it", async (t) => {
    const config = await makeTempDir("svc-hints-", t);
    const installed = svc(["trust", "list"], { XDG_CONFIG_HOME: config });
    assert.equal(installed.status, 0, installed.stderr);
    assert.match(installed.stdout, /add one with svc trust add --issuer/);
    // npm exec (npx) sets npm_command=exec; npx finds this svc again from the same folder.
    const viaNpx = svc(["trust", "list"], { XDG_CONFIG_HOME: config, npm_command: "exec" });
    assert.match(viaNpx.stdout, /add one with npx svc trust add --issuer/);
  });

  it("every hint in the CLI's source is spelled through svcCommand(), never a fixed `svc` or `npx svc`", () => {
    const fixed: string[] = [];
    for (const file of sourceFiles(join(CLI, "src"))) {
      readFileSync(file, "utf8")
        .split("\n")
        .forEach((line, index) => {
          const code = line.trim();
          // Comments, help text and completion scripts name the command; they are not hints to paste.
          if (/^(\/\/|\*|\/\*\*)/.test(code) || /\.(description|argument|option)\(/.test(code)) return;
          if (file.endsWith("completion-script.ts") || /label: "svc local run"/.test(code)) return;
          if (/^svc seal verify --issuer: \$\{/.test(code)) return; // a label of the run report
          if (SUBCOMMAND_HINT.test(code)) fixed.push(`${relative(CLI, file)}:${index + 1}: ${code}`);
        });
    }
    assert.deepEqual(fixed, []);
  });

  it("every command a hint names exists in svc's command tree", () => {
    const commands = new Set<string>();
    const help = (path: string[]) => svc([...path, "--help"], {}).stdout;
    for (const group of [
      "context",
      "trust",
      "project",
      "local",
      "runs",
      "seal",
      "entitlement",
      "repro",
      "keys",
    ]) {
      const text = help([group]);
      for (const match of text.matchAll(/^ {2}([a-z-]+)(?: |$)/gm)) commands.add(`${group} ${match[1]}`);
    }
    const named = new Set<string>();
    for (const file of sourceFiles(join(CLI, "src"))) {
      for (const match of readFileSync(file, "utf8").matchAll(/\$\{svcCommand\(\)\} ([a-z-]+ [a-z-]+)/g))
        named.add(match[1] as string);
    }
    assert.ok(named.size > 10, [...named].join(", "));
    for (const command of named)
      assert.ok(commands.has(command), `a hint names "svc ${command}", which does not exist`);
  });
});
