import type { FastifyInstance } from "fastify";
import { type DevIssuerKey, devDiscoveryDocument } from "../auth/dev-issuer.ts";

/** The built-in dev issuer's discovery document and JWKS (contract, "Dev identity"). */
export function registerDevIssuerRoutes(
  app: FastifyInstance,
  devIssuer: { readonly key: DevIssuerKey; readonly issuer: () => string },
): void {
  app.get("/dev-issuer/.well-known/openid-configuration", { schema: { hide: true } }, async () =>
    devDiscoveryDocument(devIssuer.issuer()),
  );
  app.get("/dev-issuer/jwks.json", { schema: { hide: true } }, async () => ({
    keys: [devIssuer.key.publicJwk],
  }));
}
