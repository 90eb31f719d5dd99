import type { Command } from "commander";
import { CliError } from "../cli-error.ts";
import type { CliIo } from "../cli-io.ts";
import { bashCompletion, collectCompletionTree, fishCompletion, zshCompletion } from "./completion-script.ts";

/** `svc completion bash|zsh|fish`: a completion script generated from the command tree itself. */
export function registerCompletionCommands(program: Command, io: CliIo): void {
  program
    .command("completion")
    .description(
      "Print a shell completion script: source <(svc completion bash), svc completion fish | source.",
    )
    .argument("<shell>", "bash, zsh or fish")
    .action((shell: string) => {
      const tree = collectCompletionTree(program);
      if (shell === "bash") io.stdout(bashCompletion(tree));
      else if (shell === "zsh") io.stdout(zshCompletion(tree));
      else if (shell === "fish") io.stdout(fishCompletion(tree));
      else throw new CliError("INPUT_INVALID", `no completion for "${shell}": choose bash, zsh or fish`);
    });
}
