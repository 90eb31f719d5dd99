import { type IssuerAnswer, releasedRunnersResponseSchema } from "@svc/core";
import { CliError } from "../cli-error.ts";
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
 * The keys to pin for the issuer at `issuer` (`svc trust add --issuer`, the demo's pinning): its
 * GET /api/seal/keys, each key pinned only for that issuer (issue 38 item 3). A key it publishes
 * for another issuer name (an issuer started with `SVC_ISSUER_NAME=<A's url>` publishes its key
 * "for A") is refused whole, nothing pinned: pinned for A, it would verify B's seals naming A. A
 * key published without an issuer (an issuer from before issue 23) is pinned for `issuer`.
 */
export async function fetchIssuerKeysToPin(issuer: URL): Promise<StoredKey[]> {
  const keys = await fetchIssuerKeys(issuer);
  const named = issuerName(issuer);
  const foreign = keys.find((key) => key.issuer != null && !isSameIssuer(key.issuer, issuer));
  if (foreign !== undefined)
    throw new CliError(
      "KEY_ISSUER_MISMATCH",
      `${named} publishes key ${foreign.key_id} for issuer ${foreign.issuer}, not for ${named}: nothing pinned; pin each issuer from its own URL (KEY_ISSUER_MISMATCH)`,
    );
  return keys.map((key) => (key.issuer == null ? { ...key, issuer: named } : key));
}

/** An issuer URL as the service names itself (SVC_PUBLIC_URL): origin and path, no trailing slash. */
export function issuerName(url: URL): string {
  return `${url.origin}${url.pathname.replace(/\/+$/, "")}`;
}

/** Whether a published issuer name is the issuer at `url` (the same URL, up to a trailing slash). */
export function isSameIssuer(name: string, url: URL): boolean {
  let parsed: URL;
  try {
    parsed = new URL(name);
  } catch {
    return false;
  }
  return parsed.search === "" && parsed.hash === "" && issuerName(parsed) === issuerName(url);
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
    throw new CliError("ISSUER_UNREACHABLE", `GET ${url}: ${cause}; check --issuer and try again`, {
      cause: error,
    });
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
