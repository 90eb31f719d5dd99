import type { FastifyInstance } from "fastify";
import { describeListenProblem, ListenProblem } from "./listen-problem.ts";
import { SERVICE_PROCESS, type ServiceProcess } from "./service-process.ts";

/**
 * A service's start-up in four parts (issue 41 item 3): what {@link startHttpService} and
 * {@link runService} run, in this order, for the entitlement and preflight services alike.
 */
export interface ServiceParts<Config, Service extends { readonly app: FastifyInstance }> {
  /** The bin's name, as the one-line listen refusal names it (`svc-entitlement`). */
  readonly name: string;
  /** Reads and validates the configuration once; a refusal throws core's ConfigProblemsError (code CONFIG_INVALID). */
  readConfig(env: NodeJS.ProcessEnv): Config;
  /** Builds the real dependencies and the app, nothing bound yet. */
  build(config: Config): Promise<Service>;
  /** `HOST:PORT` the service binds, for the listen refusal. */
  where(config: Config): string;
  /** Binds the port (and says so in the log). */
  listen(service: Service, config: Config): Promise<void>;
  /** Drains in-flight requests and releases what build opened; called once, after listen or when it failed. */
  close(service: Service, config: Config): Promise<void>;
}

/**
 * Reads the config, builds and listens; on a listen failure closes what was built and throws a
 * {@link ListenProblem} (one line: the address and what to set) for an address problem, else the error.
 */
export async function startHttpService<Config, Service extends { readonly app: FastifyInstance }>(
  parts: ServiceParts<Config, Service>,
  env: NodeJS.ProcessEnv,
): Promise<{ readonly config: Config; readonly service: Service }> {
  const config = parts.readConfig(env);
  const service = await parts.build(config);
  try {
    await parts.listen(service, config);
  } catch (error) {
    await parts.close(service, config);
    const problem = describeListenProblem(error, parts.name, parts.where(config));
    throw problem === null ? error : new ListenProblem(parts.name, problem, { cause: error });
  }
  return { config, service };
}

/**
 * A service's bin, written once for both services: start ({@link startHttpService}); a refused
 * configuration or address is its message on stderr and exit 2 (core's ConfigProblemsError,
 * ARCHITECTURE.md convention 4), no stack. Then SIGTERM or SIGINT (Kubernetes stopping the pod,
 * Ctrl-C) drains — `close` answers in-flight requests, new ones get 503 SHUTTING_DOWN — and exits
 * 0, or 1 when closing failed; a second signal exits 1 at once. Returns the running service, or
 * undefined after a refusal.
 */
export async function runService<Config, Service extends { readonly app: FastifyInstance }>(
  parts: ServiceParts<Config, Service>,
  io: ServiceProcess = SERVICE_PROCESS,
): Promise<Service | undefined> {
  let started: Awaited<ReturnType<typeof startHttpService<Config, Service>>>;
  try {
    started = await startHttpService(parts, io.env);
  } catch (error) {
    if ((error as { code?: unknown }).code !== "CONFIG_INVALID") throw error;
    io.stderr((error as Error).message);
    io.exit(2);
    return undefined;
  }
  const { config, service } = started;
  let signals = 0;
  const stop = (signal: string) => {
    if (++signals > 1) return io.exit(1);
    service.app.log.info({ signal }, "shutting down");
    parts.close(service, config).then(
      () => io.exit(0),
      (error: unknown) => {
        service.app.log.error({ err: error }, "shutdown failed");
        io.exit(1);
      },
    );
  };
  io.onSignal("SIGTERM", () => stop("SIGTERM"));
  io.onSignal("SIGINT", () => stop("SIGINT"));
  return service;
}
