import { setTimeout as sleep } from "node:timers/promises";
import {
  type CheckResponse,
  type ConsumeResponse,
  checkResponseSchema,
  consumeResponseSchema,
  type RunCompleteFields,
  type RunCompleteResponse,
  type RunParams,
  type RunStartFields,
  type RunStartResponse,
  runCompleteResponseSchema,
  runStartResponseSchema,
  type SealBundleResponse,
} from "@svc/core";
import { RunnerError, type RunnerErrorCode } from "../runner-error.ts";
import type { TokenSource } from "./token-source.ts";

// The contract's own types and schemas (core/src/contracts): the client sends what the service
// validates and checks every answer against the schema the service documents.
export type {
  CheckResponse,
  ConsumeResponse,
  RunCompleteResponse,
  RunParams,
  RunStartResponse,
  SealBundleResponse,
};

/** What the client needs of a contract schema: zod's safeParse (core/src/contracts). */
interface ContractSchema<T> {
  safeParse(
    value: unknown,
  ):
    | { success: true; data: T }
    | { success: false; error: { issues: readonly { path: readonly PropertyKey[]; message: string }[] } };
}

/** The image of run_start. */
export type ImageRef = RunStartFields["image"];

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
    return this.#post("check", params, checkResponseSchema);
  }

  consume(params: RunParams): Promise<ConsumeResponse> {
    return this.#post("consume", params, consumeResponseSchema);
  }

  runStart(
    body: RunParams & Pick<RunStartFields, "category_id" | "inputs_sha256" | "image">,
  ): Promise<RunStartResponse> {
    return this.#post("run_start", body, runStartResponseSchema);
  }

  runComplete(body: RunCompleteFields): Promise<RunCompleteResponse> {
    return this.#post("run_complete", body, runCompleteResponseSchema);
  }

  /**
   * POSTs with retry and exponential backoff for transient failures (connection errors,
   * timeouts, 429, 5xx) until the budget is spent; every lifecycle call is idempotent on the
   * service side, so a retry after a lost response is safe.
   */
  async #post<T>(step: string, body: object, schema: ContractSchema<T>): Promise<T> {
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
      if (response.ok) return readAnswer(step, response.status, text, schema);
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

/**
 * The answer of a 2xx, checked against the contract: a body that is not JSON, lacks a field or
 * carries one of the wrong type stops the run with ENTITLEMENT_CONTRACT_VIOLATION naming the
 * fields, instead of travelling on into the seal as whatever it happened to be.
 */
function readAnswer<T>(step: string, status: number, text: string, schema: ContractSchema<T>): T {
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    throw new RunnerError(
      "ENTITLEMENT_CONTRACT_VIOLATION",
      `entitlement ${step}: ${status} with a body that is not JSON`,
    );
  }
  const parsed = schema.safeParse(body);
  if (parsed.success) return parsed.data;
  const problems = parsed.error.issues
    .slice(0, 5)
    .map(
      (issue) => `${issue.path.length > 0 ? issue.path.map(String).join(".") : "(body)"}: ${issue.message}`,
    );
  throw new RunnerError(
    "ENTITLEMENT_CONTRACT_VIOLATION",
    `entitlement ${step}: ${status} answer breaks the contract (${problems.join("; ")})`,
  );
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
