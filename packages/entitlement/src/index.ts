// The HTTP contract's schemas live in @svc/core (core/src/contracts); import them from there.
export { createApp } from "./app.ts";
export type { AppDeps } from "./app-deps.ts";
export { devIssuerUrl, loadOrCreateDevIssuerKey, mintDevToken } from "./auth/dev-issuer.ts";
export { ENTITLEMENT_ENV_NAMES, readConfig, type ServiceConfig } from "./config.ts";
export { EntitlementError } from "./errors/entitlement-error.ts";
export { type EntitlementErrorCode, ERROR_REGISTRY } from "./errors/error-registry.ts";
export { ConfigProblems, type RunningService, startService } from "./main.ts";
export type { LedgerStore } from "./store/ledger-store.ts";
export { PostgresLedgerStore } from "./store/postgres-ledger-store.ts";
export { SqliteLedgerStore } from "./store/sqlite-ledger-store.ts";
