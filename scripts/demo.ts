// `npm run demo`: the README's first command. Until the runner lands (issue 4) it states the
// plan of the full entitled run it will perform.
console.log(`svc demo — not yet wired: the audit job (packages/runner) has not landed.
When it has, this command will:
  1. start the entitlement service on its embedded defaults (SQLite, dev issuer) on a free loopback port;
  2. grant runs to a demo principal and mint its identity token;
  3. stage examples/demo and run the audit job through check → consume → run_start → run_complete;
  4. verify the seal offline (svc seal verify) and online (POST /api/seal/verify);
  5. print where the summary, report and seal are, and stop everything it started.`);
