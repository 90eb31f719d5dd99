import { CliError } from "../cli-error.ts";

/** An integer option within bounds; the error names the option. */
export function parseIntegerOption(option: string, value: string, min: number, max: number): number {
  if (!/^-?\d+$/.test(value) || Number(value) < min || Number(value) > max)
    throw new CliError("INPUT_INVALID", `${option} must be an integer from ${min} to ${max}, not "${value}"`);
  return Number(value);
}

/** `standard` or `deep` (spec §2.1). */
export function parseMode(value: string): "standard" | "deep" {
  if (value !== "standard" && value !== "deep")
    throw new CliError("INPUT_INVALID", `--mode must be standard or deep, not "${value}"`);
  return value;
}
