#!/usr/bin/env node
import { mkdir, rename, writeFile } from "node:fs/promises";
import { dirname } from "node:path";
import { bundleVerifyPageScript } from "../src/verify-page/build-verify-page.ts";
import { PREBUILT_VERIFY_SCRIPT } from "../src/verify-page/load-verify-page.ts";

// Writes the verification page's bundled script for images installed without dev dependencies
// (the Dockerfile runs this in a build stage); written to a temporary name and renamed, so a
// failed build never leaves half a script behind.
const script = await bundleVerifyPageScript();
await mkdir(dirname(PREBUILT_VERIFY_SCRIPT), { recursive: true });
await writeFile(`${PREBUILT_VERIFY_SCRIPT}.tmp`, script);
await rename(`${PREBUILT_VERIFY_SCRIPT}.tmp`, PREBUILT_VERIFY_SCRIPT);
process.stdout.write(`wrote ${PREBUILT_VERIFY_SCRIPT} (${script.length} bytes)\n`);
