import type { PreflightConfig } from "../config.ts";

/** One entry of the module registry served by `GET /api/modules` (spec §2.5). */
export interface ModuleEntry {
  id: string;
  description: string;
  /** The smoke command as an operator would type it. */
  smokeCommand: string;
  /** The argv the smoke Job runs (runner command + `--help`). */
  smokeArgv: string[];
  /** The product's historical smoke command, for operators migrating from it. */
  legacySmokeCommand: string;
  /** Runner image the module runs in, or null when `SVC_RUNNER_IMAGE` is unset. */
  image: string | null;
  imageGpu: string | null;
}

/** The built-in module id (spec §2.5). */
export const COMPUTATIONAL_MODULE_ID = "computational";

/** Builds the registry from the configuration; `computational` is the only built-in module. */
export function buildModuleRegistry(config: PreflightConfig): ModuleEntry[] {
  const smokeArgv = [...config.runnerCommand, "--help"];
  return [
    {
      id: COMPUTATIONAL_MODULE_ID,
      description:
        "Computational audit of staged molecules: resolves the category, runs the module plan, writes results, report, repro pack and seal.",
      // docs/contracts/runner-env.md: `svc-runner --help` exits 0 (spec §2.5 analogue).
      smokeCommand: smokeArgv.join(" "),
      smokeArgv,
      legacySmokeCommand: "python3 -m app.svc_core_runner_v3 --help",
      image: config.runnerImage,
      imageGpu: config.runnerImageGpu,
    },
  ];
}
