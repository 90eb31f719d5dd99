import type { Command } from "commander";

/** One node of the command tree: its path (`/runs/launch`), subcommand names and long options. */
interface CompletionNode {
  path: string;
  words: string[];
}

/** Walks commander's tree: every command path with what may follow it. */
export function collectCompletionTree(program: Command): CompletionNode[] {
  const nodes: CompletionNode[] = [];
  const visit = (command: Command, path: string) => {
    const subcommands = command.commands.map((sub) => sub.name()).filter((name) => name !== "help");
    const options = command.options
      .map((option) => option.long)
      .filter((flag): flag is string => flag !== undefined);
    nodes.push({ path, words: [...subcommands, ...options, "--help"] });
    for (const sub of command.commands) visit(sub, `${path}/${sub.name()}`);
  };
  visit(program, "");
  return nodes;
}

// Shell words are generated from our own command and option names ([a-z-]); quoting keeps it so.
const quote = (value: string) => `'${value.replace(/'/g, "'\\''")}'`;

function knownPaths(nodes: CompletionNode[]): string {
  return nodes
    .filter((node) => node.path !== "")
    .map((node) => node.path)
    .join("|");
}

/** Bash completion: `source <(svc completion bash)`; files complete where no word matches. */
export function bashCompletion(nodes: CompletionNode[]): string {
  const cases = nodes
    .map((node) => `    ${quote(node.path)}) words=${quote(node.words.join(" "))} ;;`)
    .join("\n");
  return `# svc bash completion: source <(svc completion bash)
_svc() {
  local cur="\${COMP_WORDS[COMP_CWORD]}" cmdpath="" words="" i
  for ((i = 1; i < COMP_CWORD; i++)); do
    case "$cmdpath/\${COMP_WORDS[i]}" in
      ${knownPaths(nodes)}) cmdpath="$cmdpath/\${COMP_WORDS[i]}" ;;
    esac
  done
  case "$cmdpath" in
${cases}
  esac
  mapfile -t COMPREPLY < <(compgen -W "$words" -- "$cur")
}
complete -o default -F _svc svc
`;
}

/** Zsh completion: `source <(svc completion zsh)` (after compinit) or save as `_svc` on fpath. */
export function zshCompletion(nodes: CompletionNode[]): string {
  const cases = nodes
    .map((node) => `    ${quote(node.path)}) candidates=(${node.words.map(quote).join(" ")}) ;;`)
    .join("\n");
  return `#compdef svc
# svc zsh completion: source <(svc completion zsh), or save as _svc in a folder of $fpath
_svc() {
  local cmdpath="" i
  local -a candidates
  for ((i = 2; i < CURRENT; i++)); do
    case "$cmdpath/\${words[i]}" in
      ${knownPaths(nodes)}) cmdpath="$cmdpath/\${words[i]}" ;;
    esac
  done
  case "$cmdpath" in
${cases}
  esac
  compadd -a candidates
  _files
}
compdef _svc svc
`;
}

/** Fish completion: `svc completion fish | source`, or save in ~/.config/fish/completions/svc.fish. */
export function fishCompletion(nodes: CompletionNode[]): string {
  const lines = nodes.flatMap((node) => {
    const condition = `'test (__svc_path) = ${quote(node.path)}'`;
    const subcommands = node.words.filter((word) => !word.startsWith("-"));
    const options = node.words.filter((word) => word.startsWith("--")).map((word) => word.slice(2));
    return [
      ...(subcommands.length > 0
        ? [`complete -c svc -n ${condition} -f -a ${quote(subcommands.join(" "))}`]
        : []),
      ...options.map((option) => `complete -c svc -n ${condition} -l ${quote(option)}`),
    ];
  });
  return `# svc fish completion: svc completion fish | source
function __svc_path
  set -l cmdpath ""
  for word in (commandline -opc)[2..-1]
    switch "$cmdpath/$word"
      case ${nodes
        .filter((node) => node.path !== "")
        .map((node) => quote(node.path))
        .join(" ")}
        set cmdpath "$cmdpath/$word"
    end
  end
  echo $cmdpath
end
${lines.join("\n")}
`;
}
