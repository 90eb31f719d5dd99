import { spawn } from "node:child_process";
import { once } from "node:events";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { CliError, exitOf } from "../cli-error.ts";
import { svcCommand } from "../config/svc-command.ts";
import { explainProjectPath } from "./explain-project-path.ts";

/** Path of the runner's bin, from its package entry (`<package>/src/index.ts` → `<package>/bin/`). */
export function runnerBin(): string {
  return join(dirname(dirname(fileURLToPath(import.meta.resolve("@svc/runner")))), "bin", "svc-runner.ts");
}

async function runNode(
  args: string[],
  out: (text: string) => void,
  err: (text: string) => void,
): Promise<number> {
  const child = spawn(process.execPath, args, { stdio: ["ignore", "pipe", "pipe"] });
  child.stdout.on("data", (chunk) => out(String(chunk)));
  child.stderr.on("data", (chunk) => err(String(chunk)));
  const [code] = (await once(child, "exit")) as [number | null];
  return code ?? exitOf("INTERNAL");
}

/** What `svc-runner validate` prints on stdout (svc.validation-result/v1), as far as the summary reads it. */
interface ValidationResult {
  project_id: string;
  inputs_sha256: string;
  category_id: string;
  modules: { module_id: string; bucket: string; outcome: string; reason: string | null }[];
  validation: { rows: number; ok: number; invalid: number; unassessed: number; first_invalid: unknown[] };
  assays: {
    rows: number;
    censored_rows?: number;
    missing_rows?: number;
    compounds: number;
    assay_ids: string[];
  } | null;
  charged: boolean;
}

/** A few lines a chemist reads (issue 28 item 6); `--json` prints the runner's whole result instead. */
export function summarizeValidation(result: ValidationResult, projectDir: string): string {
  const { validation } = result;
  const required = result.modules.filter((m) => m.bucket === "required");
  const planned = required.filter((m) => m.outcome === "planned");
  const skipped = required.filter((m) => m.outcome !== "planned");
  const others = result.modules.filter((m) => m.bucket !== "required" && m.outcome === "planned");
  const lines = [
    `${result.project_id}: ${validation.invalid === 0 ? "valid" : "has invalid rows"}; nothing was charged`,
    `  rows      ${validation.rows} read: ${validation.ok} valid, ${validation.invalid} invalid, ${validation.unassessed} unassessed`,
    `  category  ${result.category_id}`,
    `  modules   ${planned.length} of ${required.length} required would run${skipped.length > 0 ? `; not: ${skipped.map((m) => `${m.module_id} (${m.reason ?? m.outcome})`).join(", ")}` : ""}${others.length > 0 ? `; ${others.length} more on request` : ""}`,
    `  assays    ${result.assays === null ? "none" : assaysLine(result.assays)}`,
    `  inputs    sha256 ${result.inputs_sha256}`,
  ];
  for (const row of validation.first_invalid.slice(0, 5)) lines.push(`  invalid   ${JSON.stringify(row)}`);
  lines.push(`the whole result: ${svcCommand()} project check ${projectDir} --json`);
  return `${lines.join("\n")}\n`;
}

/** The assay table as the runner read it: values, censored and missing rows (issue 37 item 6). */
function assaysLine(assays: NonNullable<ValidationResult["assays"]>): string {
  const censored = assays.censored_rows ?? 0;
  const missing = assays.missing_rows ?? 0;
  return `${assays.rows} row(s) with a value${censored > 0 ? ` (${censored} censored, kept with their qualifier)` : ""} for ${assays.compounds} compound(s) in ${assays.assay_ids.length} assay(s)${missing > 0 ? `; ${missing} row(s) blank or not determined` : ""}`;
}

/**
 * `svc project check <dir>`: the runner's own validation (`svc-runner validate`: sources.json,
 * files, every row through RDKit), which never contacts the entitlement service, so nothing is
 * charged. Prints a summary, or with `json` the runner's result as it is. Returns the runner's exit
 * code (0 valid, 2 bad input).
 */
export async function checkProject(
  projectDir: string,
  out: (text: string) => void,
  err: (text: string) => void,
  options: { json?: boolean } = {},
): Promise<number> {
  const wrongPath = await explainProjectPath(projectDir);
  if (wrongPath !== null) throw new CliError("INPUT_INVALID", wrongPath);
  const dir = resolve(projectDir);
  const bin = runnerBin();
  let help = "";
  await runNode(
    [bin, "--help"],
    (text) => {
      help += text;
    },
    () => {},
  );
  if (!/^\s+validate\b/m.test(help))
    throw new CliError(
      "RUNNER_INCOMPATIBLE",
      `this svc-runner has no validate command yet; run ${svcCommand()} local run <dir> to check the project end to end`,
    );
  const parts = dir.split("/");
  const projectId = parts.pop() ?? "";
  let printed = "";
  const code = await runNode(
    [bin, "validate", "--project-id", projectId, "--input-root", parts.join("/") || "/"],
    (text) => {
      printed += text;
    },
    err,
  );
  let result: ValidationResult | null = null;
  try {
    result = JSON.parse(printed) as ValidationResult;
  } catch {
    // not the result document (an older runner, or an error): shown as the runner printed it
  }
  out(options.json || result === null ? printed : summarizeValidation(result, projectDir));
  return code;
}
