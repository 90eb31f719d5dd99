import { CodedError } from "../coded-error.ts";

/**
 * A configuration refused at start, with every problem the reader found (ARCHITECTURE.md
 * convention 4): one shape for every service, code `CONFIG_INVALID`, the problems one per line
 * under the service's name, and the failure that led to it (a kubeconfig that does not load) as
 * `cause`. A service's bin prints the message and exits 2.
 */
export class ConfigProblemsError extends CodedError<"CONFIG_INVALID"> {
  readonly problems: readonly string[];

  constructor(service: string, problems: readonly string[], options?: ErrorOptions) {
    super("CONFIG_INVALID", configProblemsText(service, problems), options);
    this.problems = Object.freeze([...problems]);
  }
}

/**
 * The one wording of a refused configuration (issue 41 item 3): the program's name, then every
 * problem on a line of its own. The services throw it as ConfigProblemsError; the runner, whose
 * errors carry its exit table, as its own CONFIG_INVALID with this text.
 */
export function configProblemsText(service: string, problems: readonly string[]): string {
  return `invalid ${service} configuration:\n${problems.map((problem) => `  - ${problem}`).join("\n")}`;
}
