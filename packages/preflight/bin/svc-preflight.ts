#!/usr/bin/env node
// `npx svc-preflight`: starts the preflight service (configuration from the environment; see README).
import { main } from "../src/main.ts";

await main();
