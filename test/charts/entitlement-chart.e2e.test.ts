import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { assertRestrictedSecurity, envValue, podTemplateOf } from "../support/chart-assertions.ts";
import { checkChartVariants, deploymentContainer } from "../support/chart-variants.ts";
import { findObject, type KubeObject, type RenderOptions, templateChart } from "../support/render.ts";

const chart = "chart/entitlement";
const fullname = "ent-svc-entitlement";
const pem = "-----BEGIN PRIVATE KEY-----\nMC4CAQAwBQYDK2VwBCIEIA==\n-----END PRIVATE KEY-----\n";
const required = {
  publicUrl: "https://entitlement.example.com",
  "database.url": "postgres://ledger:secret@db.internal:5432/ledger?sslmode=require",
  "signingKey.pem": pem.replaceAll(",", "\\,"),
};

const variants = {
  inline: {
    chart,
    release: "ent",
    set: { ...required, "adminTokens.tokens": "{admin-token-0123456789,second-token-0123456789}" },
  },
  existingSecrets: {
    chart,
    release: "ent",
    set: {
      publicUrl: "https://entitlement.example.com",
      audience: "https://aud.example.com",
      "database.existingSecret": "ledger-db",
      "signingKey.existingSecret": "seal-key",
      "adminTokens.existingSecret": "admins",
    },
  },
  // docs/install.md §2: trusting the job's identity, key rotation, exposure at publicUrl.
  identity: {
    chart,
    release: "ent",
    set: {
      ...required,
      trustedIssuers: "{google,https://container.googleapis.com/v1/projects/p/locations/l/clusters/c}",
      allowedPrincipals: "{audit-runner@p.iam.gserviceaccount.com,system:serviceaccount:audit:audit}",
      suspendedPrincipals: "{old@p.iam.gserviceaccount.com}",
      "trustedKeys.json": '[{"kid":"old-key"}]'.replaceAll(",", "\\,"),
      logLevel: "warn",
      redeemScope: "any_principal",
      "verify.workers": 3,
      "verify.queue": 0,
      "verify.timeoutMs": 2500,
      "upload.timeoutMs": 30000,
      "upload.idleTimeoutMs": 4000,
      releasedRunnerDigests: `{sha256:${"ab".repeat(32)},sha256:${"cd".repeat(32)}}`,
    },
  },
  sqlite: {
    chart,
    release: "ent",
    set: {
      publicUrl: "https://entitlement.example.com",
      "signingKey.pem": required["signingKey.pem"],
      "database.sqlite.enabled": true,
      replicaCount: 1,
    },
  },
  exposed: {
    chart,
    release: "ent",
    set: {
      ...required,
      "ingress.enabled": true,
      "ingress.className": "gce",
      "httpRoute.enabled": true,
      "httpRoute.parentRefs[0].name": "shared-gateway",
      "httpRoute.parentRefs[0].namespace": "gateways",
    },
  },
} satisfies Record<string, RenderOptions>;
type Variant = keyof typeof variants;
/** Each variant rendered, once the suite's `before` hook has run. */
let rendered: Record<Variant, KubeObject[]>;

const container = (variant: Variant) => deploymentContainer(rendered[variant], fullname);

function secretData(objects: KubeObject[], name: string): Record<string, string> {
  const data = findObject(objects, "Secret", name).data as Record<string, string>;
  return Object.fromEntries(
    Object.entries(data).map(([k, v]) => [k, Buffer.from(v, "base64").toString("utf8")]),
  );
}

describe("entitlement chart (chart/entitlement)", () => {
  rendered = checkChartVariants(variants);

  it("stores the PostgreSQL connection string, signing key and admin tokens in secrets", () => {
    assert.deepEqual(secretData(rendered.inline, `${fullname}-db`), {
      SVC_DATABASE_URL: required["database.url"],
    });
    assert.deepEqual(secretData(rendered.inline, `${fullname}-signing-key`), { "signing-key.pem": pem });
    assert.deepEqual(secretData(rendered.inline, `${fullname}-admin`), {
      SVC_ADMIN_TOKENS: "admin-token-0123456789,second-token-0123456789",
    });
    const c = container("inline");
    const ref = (name: string) => c.env?.find((e) => e.name === name)?.valueFrom?.secretKeyRef;
    assert.deepEqual(ref("SVC_DATABASE_URL"), { name: `${fullname}-db`, key: "SVC_DATABASE_URL" });
    assert.deepEqual(ref("SVC_ADMIN_TOKENS"), { name: `${fullname}-admin`, key: "SVC_ADMIN_TOKENS" });
    assert.equal(envValue(c, "SVC_SIGNING_KEY_FILE"), "/var/run/svc/signing/signing-key.pem");
    assert.ok(c.volumeMounts?.some((m) => m.mountPath === "/var/run/svc/signing" && m.readOnly));
    assert.ok(!JSON.stringify(findObject(rendered.inline, "Deployment", fullname)).includes("secret@db"));
  });

  it("uses existing secrets without creating its own", () => {
    const secrets = rendered.existingSecrets.filter((o) => o.kind === "Secret");
    assert.deepEqual(secrets, []);
    const c = container("existingSecrets");
    assert.equal(
      c.env?.find((e) => e.name === "SVC_DATABASE_URL")?.valueFrom?.secretKeyRef?.name,
      "ledger-db",
    );
    assert.equal(envValue(c, "SVC_AUDIENCE"), "https://aud.example.com");
    const volumes =
      podTemplateOf(findObject(rendered.existingSecrets, "Deployment", fullname)).spec.volumes ?? [];
    const signing = volumes.find((v) => v.name === "signing-key") as { secret: { secretName: string } };
    assert.equal(signing.secret.secretName, "seal-key");
  });

  it("sets port, public URL, audience and data dir, and probes health and readiness", () => {
    const c = container("inline");
    assert.equal(envValue(c, "PORT"), "8080");
    assert.equal(envValue(c, "SVC_PUBLIC_URL"), "https://entitlement.example.com");
    assert.equal(envValue(c, "SVC_AUDIENCE"), "https://entitlement.example.com");
    assert.equal(envValue(c, "SVC_DATA_DIR"), "/data");
    assert.deepEqual(c.livenessProbe?.httpGet, { path: "/api/health", port: "http" });
    assert.deepEqual(c.readinessProbe?.httpGet, { path: "/api/ready", port: "http" });
    const service = findObject(rendered.inline, "Service", fullname).spec as {
      type: string;
      ports: { port: number }[];
    };
    assert.equal(service.type, "ClusterIP");
    assert.equal(service.ports[0]?.port, 8080);
    assertRestrictedSecurity(
      podTemplateOf(findObject(rendered.inline, "Deployment", fullname)).spec,
      "entitlement",
    );
  });

  it("fails with every missing requirement named", async () => {
    const result = await templateChart({ chart, release: "ent" });
    assert.notEqual(result.code, 0);
    assert.match(result.stderr, /publicUrl is required/);
    assert.match(result.stderr, /PostgreSQL connection string is required/);
    assert.match(result.stderr, /seal signing key is required/);
  });

  it("passes trusted issuers, principal lists, log level and the trusted keys file to the service", () => {
    const c = container("identity");
    assert.equal(
      envValue(c, "SVC_TRUSTED_ISSUERS"),
      "google,https://container.googleapis.com/v1/projects/p/locations/l/clusters/c",
    );
    assert.equal(
      envValue(c, "SVC_ALLOWED_PRINCIPALS"),
      "audit-runner@p.iam.gserviceaccount.com,system:serviceaccount:audit:audit",
    );
    assert.equal(envValue(c, "SVC_SUSPENDED_PRINCIPALS"), "old@p.iam.gserviceaccount.com");
    assert.equal(envValue(c, "SVC_LOG_LEVEL"), "warn");
    assert.equal(envValue(c, "SVC_TRUSTED_KEYS_FILE"), "/var/run/svc/trusted-keys/trusted-keys.json");
    const keys = findObject(rendered.identity, "ConfigMap", `${fullname}-trusted-keys`).data as Record<
      string,
      string
    >;
    assert.deepEqual(JSON.parse(keys["trusted-keys.json"] ?? ""), [{ kid: "old-key" }]);
    assert.equal(envValue(container("inline"), "SVC_TRUSTED_KEYS_FILE"), undefined);
  });

  it("gives the redemption scope, the verification pool and the upload time bounds a value in every install (issues 13, 23)", () => {
    const defaults = container("inline");
    assert.equal(envValue(defaults, "SVC_REDEEM_SCOPE"), "issued_principal");
    assert.equal(envValue(defaults, "SVC_VERIFY_WORKERS"), "1");
    assert.equal(envValue(defaults, "SVC_VERIFY_QUEUE"), "16");
    assert.equal(envValue(defaults, "SVC_VERIFY_TIMEOUT_MS"), "10000");
    assert.equal(envValue(defaults, "SVC_UPLOAD_TIMEOUT_MS"), "60000");
    assert.equal(envValue(defaults, "SVC_UPLOAD_IDLE_TIMEOUT_MS"), "10000");
    const set = container("identity");
    assert.equal(envValue(set, "SVC_REDEEM_SCOPE"), "any_principal");
    assert.equal(envValue(set, "SVC_VERIFY_WORKERS"), "3");
    assert.equal(envValue(set, "SVC_VERIFY_QUEUE"), "0");
    assert.equal(envValue(set, "SVC_VERIFY_TIMEOUT_MS"), "2500");
    assert.equal(envValue(set, "SVC_UPLOAD_TIMEOUT_MS"), "30000");
    assert.equal(envValue(set, "SVC_UPLOAD_IDLE_TIMEOUT_MS"), "4000");
    // issue 23 item 5: the released runner digests, only when listed
    assert.equal(envValue(defaults, "SVC_RELEASED_RUNNER_DIGESTS"), undefined);
    assert.equal(
      envValue(set, "SVC_RELEASED_RUNNER_DIGESTS"),
      `sha256:${"ab".repeat(32)},sha256:${"cd".repeat(32)}`,
    );
  });

  it("refuses a redemption scope or a verification pool the service would refuse", async () => {
    for (const [name, value] of [
      ["redeemScope", "everyone"],
      ["verify.workers", 0],
      ["verify.queue", -1],
      ["verify.timeoutMs", 50],
      ["upload.timeoutMs", 50],
      ["upload.idleTimeoutMs", 600_001],
    ] as const) {
      const result = await templateChart({ chart, release: "ent", set: { ...required, [name]: value } });
      assert.notEqual(result.code, 0, `${name}=${value} rendered`);
      assert.match(result.stderr, /values don't meet the specifications of the schema/, name);
    }
  });

  it("exposes publicUrl through an optional Ingress and Gateway API HTTPRoute", () => {
    assert.equal(
      rendered.inline.find((o) => o.kind === "Ingress" || o.kind === "HTTPRoute"),
      undefined,
    );
    const ingress = findObject(rendered.exposed, "Ingress", fullname).spec as {
      ingressClassName: string;
      rules: { host: string }[];
    };
    assert.equal(ingress.ingressClassName, "gce");
    assert.equal(ingress.rules[0]?.host, "entitlement.example.com");
    const route = findObject(rendered.exposed, "HTTPRoute", fullname).spec as {
      parentRefs: unknown[];
      hostnames: string[];
      rules: { backendRefs: { name: string; port: number }[] }[];
    };
    assert.deepEqual(route.parentRefs, [{ name: "shared-gateway", namespace: "gateways" }]);
    assert.deepEqual(route.hostnames, ["entitlement.example.com"]);
    assert.deepEqual(route.rules[0]?.backendRefs, [{ name: fullname, port: 8080 }]);
  });

  it("keeps the ledger in SQLite on its own kept claim with one replica, and never trusts the dev issuer", () => {
    const c = container("sqlite");
    assert.equal(
      c.env?.find((e) => e.name === "SVC_DATABASE_URL"),
      undefined,
    );
    assert.equal(envValue(c, "SVC_TRUSTED_ISSUERS"), "google");
    assert.equal(
      rendered.sqlite.find((o) => o.kind === "Secret" && o.metadata.name === `${fullname}-db`),
      undefined,
    );
    const claim = findObject(rendered.sqlite, "PersistentVolumeClaim", `${fullname}-data`);
    assert.equal(claim.metadata.annotations?.["helm.sh/resource-policy"], "keep");
    const deployment = findObject(rendered.sqlite, "Deployment", fullname);
    assert.equal((deployment.spec as { strategy?: { type: string } }).strategy?.type, "Recreate");
    const data = podTemplateOf(deployment).spec.volumes?.find((v) => v.name === "data");
    assert.deepEqual(data, { name: "data", persistentVolumeClaim: { claimName: `${fullname}-data` } });
  });

  it("refuses SQLite with more than one replica or with a PostgreSQL URL too", async () => {
    const result = await templateChart({
      chart,
      release: "ent",
      set: { ...required, "database.sqlite.enabled": true, replicaCount: 2 },
    });
    assert.notEqual(result.code, 0);
    assert.match(result.stderr, /database\.sqlite\.enabled=true needs replicaCount=1/);
    assert.match(result.stderr, /unset database\.url and database\.existingSecret/);
  });

  it("refuses trusted keys that are no JSON array and an HTTPRoute without a Gateway", async () => {
    const result = await templateChart({
      chart,
      release: "ent",
      set: { ...required, "trustedKeys.json": "not-json", "httpRoute.enabled": true },
    });
    assert.notEqual(result.code, 0);
    assert.match(result.stderr, /trustedKeys\.json must be a JSON array/);
    assert.match(result.stderr, /httpRoute\.enabled=true requires httpRoute\.parentRefs/);
  });
});
