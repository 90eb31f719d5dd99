import type { SigningKey, TrustedKey } from "@svc/core";
import type { FastifyServerOptions } from "fastify";
import type { DevIssuerKey } from "./auth/dev-issuer.ts";
import type { VerifyAuthorization } from "./auth/token-verifier.ts";
import type { RedeemScope } from "./domain/ledger-types.ts";
import type { ServiceMetrics } from "./http/metrics.ts";
import type { UploadTimeouts } from "./http/upload-clock.ts";
import type { SealVerifier } from "./seal/seal-verify-pool.ts";
import type { LedgerStore } from "./store/ledger-store.ts";

/** Everything createApp needs, built by main.ts or by a test (ARCHITECTURE.md convention 2). */
export interface AppDeps {
  readonly store: LedgerStore;
  readonly verifyAuthorization: VerifyAuthorization;
  readonly adminTokens: readonly string[];
  readonly signingKey: SigningKey;
  /** Keys published at /api/seal/keys and trusted by /api/seal/verify (current one included). */
  readonly trustedKeys: readonly TrustedKey[];
  /** Seal payload `issuer`. */
  readonly issuerName: () => string;
  readonly verifyUrl: string | null;
  /** The built-in dev issuer, served under /dev-issuer when present. */
  readonly devIssuer?: { readonly key: DevIssuerKey; readonly issuer: () => string } | undefined;
  /** Pino options or false; auth headers are always redacted. */
  readonly logger?: FastifyServerOptions["logger"];
  readonly metrics?: ServiceMetrics;
  /**
   * Runs verifySealSvg off the event loop; default a pool of worker threads that createApp owns
   * (closed with the app). One given here is the caller's to close.
   */
  readonly sealVerifier?: SealVerifier;
  /** Runner image digests published at GET /api/seal/released-runners; null or absent = no list. */
  readonly releasedRunnerDigests?: readonly string[] | null;
  /** Time bounds of one seal upload (SVC_UPLOAD_TIMEOUT_MS, SVC_UPLOAD_IDLE_TIMEOUT_MS); default UPLOAD_TIMEOUTS. */
  readonly uploadTimeouts?: UploadTimeouts;
  /** The longest any request may take to arrive (SVC_REQUEST_TIMEOUT_MS); default REQUEST_TIMEOUT_BOUNDS.fallback. */
  readonly requestTimeoutMs?: number;
  /** Who may redeem a seal (SVC_REDEEM_SCOPE); default `issued_principal`. */
  readonly redeemScope?: RedeemScope;
}
