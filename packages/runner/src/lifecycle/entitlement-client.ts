import { setTimeout as sleep } from "node:timers/promises";
import { RunnerError, type RunnerErrorCode } from "../runner-error.ts";
import type { TokenSource } from "./token-source.ts";

export interface RunParams {
  readonly run_id: string;
  readonly project_id: string;
  readonly mode: "standard" | "deep";
  readonly module_id: string;
}

export interface ImageRef {
  readonly reference: string;
  readonly digest: string | null;
}

export interface CheckResponse {
  readonly run_id: string;
  readonly principal: string;
  readonly available: boolean;
  readonly mode: string;
  readonly runs_remaining: number;
  readonly already_consumed: boolean;
}

export interface ConsumeResponse {
  readonly run_id: string;
  readonly principal: string;
  readonly mode: string;
  readonly consumed_at: string;
  readonly ledger_entry_id: string | number;
  readonly runs_remaining: number;
}

export interface RunStartResponse {
  readonly run_id: string;
  readonly state: string;
  readonly started_at: string;
}

/** The seal bundle of run_complete (docs/contracts/entitlement-http.md). */
export interface SealBundleResponse {
  readonly seal_id: string;
  readonly payload: Record<string, unknown>;
  readonly seal_json: string;
  readonly seal_sig: string;
  readonly seal_svg: string;
  readonly public_key_pem: string;
  readonly key_id: string;
  readonly verify_md: string;
}

export interface RunCompleteResponse {
  readonly run_id: string;
  readonly state: string;
  readonly seal: SealBundleResponse;
}

export interface EntitlementClientOptions {
  readonly baseUrl: string;
  readonly audience: string;
  readonly tokens: TokenSource;
  /** Budget per lifecycle call, retries included (SVC_ENTITLEMENT_TIMEOUT_SEC). */
  readonly timeoutMs: number;
  readonly onRetry?: (step: string, attempt: number, reason: string) => void;
}

/** Status codes that stop the run before analysis, with the error code naming the cause. */
const REFUSALS: Record<number, RunnerErrorCode> = {
  401: "ENTITLEMENT_UNAUTHORIZED",
  402: "ENTITLEMENT_EXHAUSTED",
  403: "ENTITLEMENT_FORBIDDEN",
  409: "RUN_ID_CONFLICT",
};

/** Client of the entitlement lifecycle (spec §3 ordering, §4.1). */
export class EntitlementClient {
  readonly #options: EntitlementClientOptions;

  constructor(options: EntitlementClientOptions) {
    this.#options = options;
  }

  check(params: RunParams): Promise<CheckResponse> {
    return this.#post("check", params);
  }

  consume(params: RunParams): Promise<ConsumeResponse> {
    return this.#post("consume", params);
  }

  runStart(
    body: RunParams & { category_id: string; inputs_sha256: string; image: ImageRef },
  ): Promise<RunStartResponse> {
    return this.#post("run_start", body);
  }

  runComplete(body: {
    run_id: string;
    outputs_sha256: string;
    run_manifest_sha256: string;
  }): Promise<RunCompleteResponse> {
    return this.#post("run_complete", body);
  }

  /**
   * POSTs with retry and exponential backoff for transient failures (connection errors,
   * timeouts, 429, 5xx) until the budget is spent; every lifecycle call is idempotent on the
   * service side, so a retry after a lost response is safe.
   */
  async #post<T>(step: string, body: object): Promise<T> {
    const { baseUrl, audience, tokens, timeoutMs } = this.#options;
    const url = new URL(`/api/entitlement/${step}`, baseUrl);
    const deadline = Date.now() + timeoutMs;
    const token = await tokens.getToken(audience);
    let delay = 200;
    let attempt = 0;
    let lastProblem = "";
    while (true) {
      attempt++;
      const remaining = deadline - Date.now();
      if (remaining <= 0) break;
      let response: Response;
      try {
        response = await fetch(url, {
          method: "POST",
          headers: { "content-type": "application/json", authorization: `Bearer ${token}` },
          body: JSON.stringify(body),
          signal: AbortSignal.timeout(remaining),
        });
      } catch (error) {
        lastProblem = describeNetworkError(error);
        if (!(await this.#backoff(step, attempt, lastProblem, delay, deadline))) break;
        delay = Math.min(delay * 2, 3000);
        continue;
      }
      const text = await response.text().catch(() => "");
      if (response.ok) {
        try {
          return JSON.parse(text) as T;
        } catch {
          throw new RunnerError(
            "ENTITLEMENT_REJECTED",
            `entitlement ${step}: ${response.status} with a body that is not JSON`,
          );
        }
      }
      const error = readError(text);
      if (response.status === 429 || response.status >= 500) {
        lastProblem = `${response.status} ${error.code}`;
        if (!(await this.#backoff(step, attempt, lastProblem, delay, deadline))) break;
        delay = Math.min(delay * 2, 3000);
        continue;
      }
      const code = REFUSALS[response.status] ?? "ENTITLEMENT_REJECTED";
      throw new RunnerError(
        code,
        `entitlement ${step} refused: ${response.status} ${error.code}: ${error.message}`,
      );
    }
    throw new RunnerError(
      "ENTITLEMENT_UNREACHABLE",
      `entitlement ${step} unreachable at ${baseUrl} within ${Math.round(timeoutMs / 1000)} s (${attempt} attempts; last: ${lastProblem})`,
    );
  }

  async #backoff(
    step: string,
    attempt: number,
    reason: string,
    delay: number,
    deadline: number,
  ): Promise<boolean> {
    const wait = Math.min(delay, deadline - Date.now());
    if (wait <= 0) return false;
    this.#options.onRetry?.(step, attempt, reason);
    await sleep(wait);
    return Date.now() < deadline;
  }
}

function readError(text: string): { code: string; message: string } {
  try {
    const body = JSON.parse(text) as { error?: { code?: string; message?: string } };
    return { code: body.error?.code ?? "UNKNOWN", message: body.error?.message ?? text.slice(0, 200) };
  } catch {
    return { code: "UNKNOWN", message: text.slice(0, 200) };
  }
}

function describeNetworkError(error: unknown): string {
  const err = error as { name?: string; message?: string; cause?: { code?: string } };
  if (err.name === "TimeoutError") return "timeout";
  return err.cause?.code ?? err.message ?? String(error);
}
