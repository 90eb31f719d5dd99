import { ConfigProblemsError } from "@svc/core";

/**
 * The one line an operator can act on when a service cannot bind its port, instead of a stack
 * trace (issue 13 "operator clarity"); null for an error that is not about the address.
 */
export function describeListenProblem(error: unknown, service: string, where: string): string | null {
  switch ((error as NodeJS.ErrnoException).code) {
    case "EADDRINUSE":
      return `${service}: cannot listen on ${where}: the port is already in use; set PORT to a free port or stop the other process`;
    case "EACCES":
      return `${service}: cannot listen on ${where}: permission denied; use a port above 1023 (PORT)`;
    case "EADDRNOTAVAIL":
      return `${service}: cannot listen on ${where}: no such local address (HOST)`;
    default:
      return null;
  }
}

/**
 * A port that cannot be bound, refused like a configuration (code CONFIG_INVALID: PORT and HOST
 * are configuration) in the one line {@link describeListenProblem} gives, without the list form.
 */
export class ListenProblem extends ConfigProblemsError {
  constructor(service: string, problem: string, options?: ErrorOptions) {
    super(service, [problem], options);
    this.message = problem;
  }
}
