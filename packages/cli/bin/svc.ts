#!/usr/bin/env node
import { runCli } from "../src/program.ts";

// The process edge: the environment is read here and by the config module only (issue 29 item 5).
process.exitCode = await runCli(
  process.argv.slice(2),
  {
    stdout: (text) => process.stdout.write(text),
    stderr: (text) => process.stderr.write(text),
  },
  process.env,
);
