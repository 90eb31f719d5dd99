import { CliError } from "../cli-error.ts";
import { parseKeys, type StoredKey } from "./keys-file.ts";

const TIMEOUT_MS = 10_000;

/** What the issuer's online verification says about a seal (docs/contracts/entitlement-http.md). */
export interface IssuerVerdict {
  readonly state: string;
  readonly revoked: boolean;
  readonly revokedAt: string | null;
  readonly revocationReason: string | null;
}

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

/** POST /api/seal/verify with the seal: the issuer's own answer, which knows about revocation. */
export async function askIssuer(issuer: URL, svg: Uint8Array): Promise<IssuerVerdict> {
  const body = (await call(issuer, "/api/seal/verify", {
    method: "POST",
    headers: { "content-type": "image/svg+xml" },
    body: svg,
  })) as Record<string, unknown> | null;
  if (typeof body?.state !== "string") {
    throw new CliError(
      "ISSUER_RESPONSE_INVALID",
      `${issuer.origin} POST /api/seal/verify: no state in the answer`,
    );
  }
  // The service answers state REVOKED with revoked_at and revoked_reason (issue 9 §5); older
  // services said revoked: true beside the state.
  const revocation = (body.revocation ?? {}) as Record<string, unknown>;
  const text = (value: unknown) => (typeof value === "string" ? value : null);
  return {
    state: body.state,
    revoked: body.state === "REVOKED" || body.revoked === true,
    revokedAt: text(body.revoked_at) ?? text(revocation.revoked_at) ?? text(revocation.at),
    revocationReason: text(body.revoked_reason) ?? text(revocation.reason),
  };
}

async function call(issuer: URL, path: string, init: RequestInit): Promise<unknown> {
  const url = new URL(path, issuer);
  let response: Response;
  try {
    response = await fetch(url, { ...init, redirect: "error", signal: AbortSignal.timeout(TIMEOUT_MS) });
  } catch (error) {
    const cause = (error as { cause?: { code?: string } }).cause?.code ?? (error as Error).name;
    throw new CliError("ISSUER_UNREACHABLE", `${init.method} ${url}: ${cause}; check --issuer and try again`);
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
