import { type IssuerAnswer, releasedRunnersResponseSchema } from "@svc/core";
import { CliError, EXIT } from "../cli-error.ts";
import { parseKeys, type StoredKey } from "./keys-file.ts";

const TIMEOUT_MS = 10_000;

/** The issuer's base URL, checked: http or https, no credentials. */
export function parseIssuerUrl(text: string): URL {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new CliError(
      "ISSUER_URL_INVALID",
      `--issuer ${text}: not a URL; expected e.g. https://entitlement.example`,
    );
  }
  if (!["http:", "https:"].includes(url.protocol) || url.username || url.password) {
    throw new CliError("ISSUER_URL_INVALID", `--issuer ${text}: use an http(s) URL without credentials`);
  }
  return url;
}

/** GET /api/seal/keys of the issuer: the keys it signs seals with. */
export async function fetchIssuerKeys(issuer: URL): Promise<StoredKey[]> {
  const body = await call(issuer, "/api/seal/keys", { method: "GET" });
  return parseKeys(body, `${issuer.origin} GET /api/seal/keys`).map((key) => ({
    ...key,
    source: `${new URL("/api/seal/keys", issuer)}`,
  }));
}

/**
 * GET /api/seal/released-runners: the runner image digests the issuer released, or null when it
 * publishes none (an issuer without the endpoint answers 404: no list either).
 */
export async function fetchReleasedRunners(issuer: URL): Promise<string[] | null> {
  const url = new URL("/api/seal/released-runners", issuer);
  let response: Response;
  try {
    response = await fetch(url, { redirect: "error", signal: AbortSignal.timeout(TIMEOUT_MS) });
  } catch (error) {
    const cause = (error as { cause?: { code?: string } }).cause?.code ?? (error as Error).name;
    throw new CliError(
      "ISSUER_UNREACHABLE",
      `GET ${url}: ${cause}; check --issuer and try again`,
      EXIT.usage,
      {
        cause: error,
      },
    );
  }
  if (response.status === 404) return null;
  const parsed = releasedRunnersResponseSchema.safeParse(
    response.ok ? await response.json().catch(() => undefined) : undefined,
  );
  if (!response.ok || !parsed.success)
    throw new CliError(
      "ISSUER_RESPONSE_INVALID",
      `GET ${url}: HTTP ${response.status}, not a list of released runners`,
    );
  return parsed.data.digests;
}

/**
 * POST /api/seal/verify with the seal: the issuer's own answer, which knows what it issued and
 * revoked. Never throws: a busy, failing or unreachable issuer is an answer too, and core's
 * checkIssuerAnswer reads it as REVOCATION_UNKNOWN, never as VERIFIED (issue 23 item 4).
 */
export async function askIssuer(issuer: URL, svg: Uint8Array): Promise<IssuerAnswer> {
  const url = new URL("/api/seal/verify", issuer);
  let response: Response;
  let text: string;
  try {
    response = await fetch(url, {
      method: "POST",
      headers: { "content-type": "image/svg+xml" },
      body: svg,
      redirect: "error",
      signal: AbortSignal.timeout(TIMEOUT_MS),
    });
    text = await response.text();
  } catch (error) {
    const cause = (error as { cause?: { code?: string } }).cause?.code ?? (error as Error).name;
    return { kind: "no_answer", detail: `POST ${url}: ${cause}` };
  }
  try {
    return { kind: "answered", status: response.status, body: JSON.parse(text) };
  } catch {
    return { kind: "no_answer", detail: `POST ${url}: HTTP ${response.status}, the answer is not JSON` };
  }
}

async function call(issuer: URL, path: string, init: RequestInit): Promise<unknown> {
  const url = new URL(path, issuer);
  let response: Response;
  try {
    response = await fetch(url, { ...init, redirect: "error", signal: AbortSignal.timeout(TIMEOUT_MS) });
  } catch (error) {
    const cause = (error as { cause?: { code?: string } }).cause?.code ?? (error as Error).name;
    throw new CliError(
      "ISSUER_UNREACHABLE",
      `${init.method} ${url}: ${cause}; check --issuer and try again`,
      EXIT.usage,
      { cause: error },
    );
  }
  const text = await response.text();
  if (!response.ok) {
    throw new CliError("ISSUER_UNREACHABLE", `${init.method} ${url}: HTTP ${response.status}`);
  }
  try {
    return JSON.parse(text);
  } catch {
    throw new CliError("ISSUER_RESPONSE_INVALID", `${init.method} ${url}: the answer is not JSON`);
  }
}
