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
    super(
      "CONFIG_INVALID",
      `invalid ${service} configuration:\n${problems.map((problem) => `  - ${problem}`).join("\n")}`,
      options,
    );
    this.problems = Object.freeze([...problems]);
  }
}
