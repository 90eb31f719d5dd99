export {
  type MintTokenOptions,
  type OidcIssuerDouble,
  startOidcIssuerDouble,
} from "./oidc/oidc-issuer-double.ts";
export { findFreePort, startTestPostgres, type TestPostgres } from "./postgres/test-postgres.ts";
