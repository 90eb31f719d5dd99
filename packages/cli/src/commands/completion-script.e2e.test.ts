import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { describe, it } from "node:test";
import { svc } from "../../test/support/operator-services.ts";

async function script(shell: string): Promise<string> {
  const result = await svc("completion", shell);
  assert.equal(result.code, 0, result.stderr);
  return result.stdout;
}

function complete(bashScript: string, words: string[]): string[] {
  const assignment = words.map((word) => `'${word}'`).join(" ");
  const result = spawnSync(
    "bash",
    [
      "-c",
      `${bashScript}\nCOMP_WORDS=(${assignment}); COMP_CWORD=${words.length - 1}; _svc; printf '%s\\n' "\${COMPREPLY[@]}"`,
    ],
    { encoding: "utf8" },
  );
  assert.equal(result.status, 0, result.stderr);
  return result.stdout.split("\n").filter((line) => line !== "");
}

describe("svc completion", () => {
  it("bash completes command groups, subcommands and their options, and passes shellcheck", async () => {
    const bash = await script("bash");
    assert.deepEqual(complete(bash, ["svc", "ru"]), ["runs"]);
    assert.deepEqual(complete(bash, ["svc", "runs", "l"]), ["launch", "list", "logs"]);
    assert.deepEqual(complete(bash, ["svc", "runs", "logs", "--f"]), ["--follow"]);
    assert.deepEqual(complete(bash, ["svc", "context", "list", "--"]), ["--json", "--help"]);
    const check = spawnSync("shellcheck", ["-s", "bash", "-"], { input: bash, encoding: "utf8" });
    assert.equal(
      check.status,
      0,
      `shellcheck (Debian package, installed by .ci/run): ${check.stdout}${check.stderr}`,
    );
  });

  it("zsh and fish scripts carry every command path of the tree", async () => {
    const zsh = await script("zsh");
    const fish = await script("fish");
    assert.match(zsh, /^#compdef svc/);
    for (const path of [
      "/runs/launch",
      "/entitlement/ledger",
      "/context/add",
      "/project/init",
      "/local/run",
      "/seal/verify",
    ]) {
      assert.ok(zsh.includes(`'${path}')`), `zsh: ${path}`);
      assert.ok(fish.includes(`test (__svc_path) = '${path}'`), `fish: ${path}`);
    }
    assert.match(fish, /complete -c svc -n 'test \(__svc_path\) = '\/runs\/logs'' -l 'follow'/);
  });

  it("an unknown shell is refused naming the choices", async () => {
    const result = await svc("completion", "powershell");
    assert.equal(result.code, 2);
    assert.match(result.stderr, /choose bash, zsh or fish/);
  });
});
