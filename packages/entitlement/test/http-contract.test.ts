import { describeEntitlementContract } from "@svc/testing";
import { startTestService } from "./app-harness.ts";

// The real service (real SQLite ledger, real token verification against an OIDC issuer double)
// answers the one contract suite the runner tests' fake answers too (@svc/testing).
describeEntitlementContract("the real service", async () => {
  const service = await startTestService();
  return {
    url: service.url,
    tokenFor: (principal) => service.tokenFor(principal),
    grant: async (principal, runs) => {
      const answer = await service.request("/api/entitlement/issue", {
        body: { principal, runs },
        headers: { "x-svc-admin-token": service.adminToken },
      });
      if (answer.status !== 200)
        throw new Error(`grant failed: ${answer.status} ${JSON.stringify(answer.body)}`);
    },
    close: () => service.close(),
  };
});
