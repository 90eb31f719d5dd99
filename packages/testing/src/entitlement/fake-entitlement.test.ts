import { describeEntitlementContract } from "./entitlement-contract-suite.ts";
import { startFakeEntitlement } from "./fake-entitlement.ts";

// The fake answers the same contract suite as the real service
// (packages/entitlement/test/http-contract.test.ts), so it cannot drift from it.
describeEntitlementContract("the runner tests' fake", async () => {
  const fake = await startFakeEntitlement();
  return {
    url: fake.url,
    tokenFor: async (principal) => `token-${principal}`,
    grant: async (principal, runs) => fake.grant(principal, runs),
    close: () => fake.close(),
  };
});
