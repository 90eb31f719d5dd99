import { createHmac, randomUUID } from "node:crypto";
import { createServer, type Server } from "node:http";
import { type CryptoKey, exportJWK, exportSPKI, generateKeyPair, type JWK, SignJWT } from "jose";

/** Claims and knobs of a token minted by the double. */
export interface MintTokenOptions {
  readonly audience: string | string[];
  readonly subject?: string;
  readonly email?: string;
  readonly emailVerified?: boolean;
  /** Seconds until expiry; negative mints an already expired token. Default 300. */
  readonly expiresInSec?: number;
  /** Overrides `iss` (to mint a token that claims another issuer). */
  readonly issuer?: string;
  readonly extraClaims?: Record<string, unknown>;
}

/** A loopback OIDC issuer (discovery + JWKS) for tests of anything that verifies ID tokens. */
export interface OidcIssuerDouble {
  /** `http://127.0.0.1:<port>`: the `iss` of its tokens. */
  readonly issuer: string;
  readonly jwksUri: string;
  /** How many times the JWKS was fetched (to prove caching and refetch). */
  readonly jwksFetches: number;
  mintToken(options: MintTokenOptions): Promise<string>;
  /** A token with `alg: none` and no signature (must be refused). */
  mintUnsignedToken(options: MintTokenOptions): string;
  /** HS256 signed with the issuer's public key PEM as the HMAC secret (key confusion attack). */
  mintHs256WithPublicKey(options: MintTokenOptions): Promise<string>;
  /** Switches to a fresh signing key with a new `kid`; the old one leaves the JWKS unless kept. */
  rotateKey(options?: { keepOld?: boolean }): Promise<void>;
  close(): Promise<void>;
}

interface IssuerKey {
  readonly kid: string;
  readonly privateKey: CryptoKey;
  readonly publicJwk: JWK;
  readonly publicPem: string;
}

async function createIssuerKey(): Promise<IssuerKey> {
  const { privateKey, publicKey } = await generateKeyPair("RS256", { extractable: true });
  const kid = randomUUID();
  const publicJwk = { ...(await exportJWK(publicKey)), kid, alg: "RS256", use: "sig" };
  return { kid, privateKey, publicJwk, publicPem: await exportSPKI(publicKey) };
}

/** Starts the double on a free loopback port (RS256 keys, like Google and Kubernetes). */
export async function startOidcIssuerDouble(): Promise<OidcIssuerDouble> {
  let keys: IssuerKey[] = [await createIssuerKey()];
  let jwksFetches = 0;
  const server: Server = createServer((request, response) => {
    const send = (body: unknown) => {
      response.writeHead(200, { "content-type": "application/json" });
      response.end(JSON.stringify(body));
    };
    if (request.url === "/.well-known/openid-configuration") {
      send({
        issuer,
        jwks_uri: `${issuer}/jwks.json`,
        id_token_signing_alg_values_supported: ["RS256"],
        response_types_supported: ["id_token"],
        subject_types_supported: ["public"],
      });
    } else if (request.url === "/jwks.json") {
      jwksFetches++;
      send({ keys: keys.map((key) => key.publicJwk) });
    } else {
      response.writeHead(404).end();
    }
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  const issuer = `http://127.0.0.1:${typeof address === "object" && address !== null ? address.port : 0}`;

  const claimsOf = (options: MintTokenOptions): Record<string, unknown> => {
    const now = Math.floor(Date.now() / 1000);
    const expiresIn = options.expiresInSec ?? 300;
    return {
      iss: options.issuer ?? issuer,
      aud: options.audience,
      sub: options.subject ?? "system:serviceaccount:svc:runner",
      iat: expiresIn < 0 ? now + expiresIn - 60 : now,
      exp: now + expiresIn,
      ...(options.email === undefined
        ? {}
        : { email: options.email, email_verified: options.emailVerified ?? true }),
      ...options.extraClaims,
    };
  };
  const encode = (value: unknown) => Buffer.from(JSON.stringify(value)).toString("base64url");
  const current = () => keys[0] as IssuerKey;

  return {
    issuer,
    jwksUri: `${issuer}/jwks.json`,
    get jwksFetches() {
      return jwksFetches;
    },
    async mintToken(options) {
      return new SignJWT(claimsOf(options))
        .setProtectedHeader({ alg: "RS256", kid: current().kid, typ: "JWT" })
        .sign(current().privateKey);
    },
    mintUnsignedToken(options) {
      return `${encode({ alg: "none", typ: "JWT" })}.${encode(claimsOf(options))}.`;
    },
    async mintHs256WithPublicKey(options) {
      const input = `${encode({ alg: "HS256", kid: current().kid, typ: "JWT" })}.${encode(claimsOf(options))}`;
      const mac = createHmac("sha256", current().publicPem).update(input).digest("base64url");
      return `${input}.${mac}`;
    },
    async rotateKey(options = {}) {
      const fresh = await createIssuerKey();
      keys = options.keepOld ? [fresh, ...keys] : [fresh];
    },
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
