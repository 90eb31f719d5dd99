#!/usr/bin/env node
// `npx svc-preflight`: starts the preflight service (configuration from the environment; see README).
import { main } from "../src/main.ts";

if (process.argv.includes("--help") || process.argv.includes("-h")) {
  // Also the image's build-time smoke check: proves the interpreter, sources and dependencies load.
  process.stdout.write(`Usage: svc-preflight

Starts the preflight HTTP service (spec §4.2) on PORT (default 8080). Every setting comes from the
environment: SVC_OUTPUT_ROOT, SVC_RUNNER_IMAGE, SVC_APP_FULLNAME, K8S_API_TOKENS, SVC_API_TOKEN,
SVC_AUTH_DISABLED, SVC_RUNNER_SERVICE_ACCOUNT, SVC_ALLOWED_NAMESPACES and more: see
packages/preflight/README.md. Invalid configuration stops start-up with every problem listed (exit 2).
`);
} else {
  await main();
}
