import { readFile, stat } from "node:fs/promises";
import { join } from "node:path";
import {
  CoreError,
  importPublicKeyPem,
  type SealState,
  type SealVerification,
  type TrustedKey,
  toTrustedKey,
  verifySealFolder,
} from "@svc/core";
import { CliError, EXIT } from "../cli-error.ts";

export interface SealVerifyOptions {
  /** PEM files of public keys to trust (repeatable). */
  readonly key?: readonly string[];
  /** A JSON file as served by GET /api/seal/keys: `{ "keys": TrustedKey[] }`. */
  readonly keys?: string;
  readonly json?: boolean;
}

export interface SealVerifyOutcome {
  readonly exitCode: number;
  readonly output: string;
}

const EXIT_BY_STATE: Record<SealState, number> = {
  VERIFIED: EXIT.verified,
  INVALID: EXIT.invalid,
  UNVERIFIED: EXIT.unverified,
  PENDING: EXIT.pending,
  REVOKED: EXIT.revoked,
};

/**
 * `svc seal verify <seal.svg | run-output-dir>`: offline verification (issue 2 §5). For a run
 * directory it checks `seal/seal.svg` and that `seal.json` and `seal.sig` carry the same bytes;
 * without `--key`/`--keys` it trusts `seal/public_key.pem` from the folder and says so.
 */
export async function runSealVerify(target: string, options: SealVerifyOptions): Promise<SealVerifyOutcome> {
  const isDirectory = (await statOrThrow(target)).isDirectory();
  const sealDir = isDirectory ? join(target, "seal") : null;
  const svgPath = sealDir ? join(sealDir, "seal.svg") : target;
  const notes: string[] = [];

  let trusted = await loadTrustedKeys(options);
  if (trusted.length === 0) {
    if (!sealDir)
      throw new CliError(
        "KEY_REQUIRED",
        "pass --key <public_key.pem> (or --keys <keys.json>) to say which issuer key you trust",
      );
    trusted = [
      publicKeyFromPem(await readText(join(sealDir, "public_key.pem")), join(sealDir, "public_key.pem")),
    ];
    notes.push(
      "trusting seal/public_key.pem from the run folder; pin the issuer's published key with --key for an independent check",
    );
  }

  const svg = await readBytes(svgPath);
  const result = sealDir
    ? verifySealFolder(
        {
          sealSvg: svg,
          sealJson: await readOptional(join(sealDir, "seal.json")),
          sealSig: (await readOptional(join(sealDir, "seal.sig")))?.toString("utf8") ?? null,
        },
        trusted,
      )
    : verifySealFolder({ sealSvg: svg }, trusted);
  return {
    exitCode: EXIT_BY_STATE[result.state],
    output: options.json ? formatJson(svgPath, result, notes) : formatText(svgPath, result, notes),
  };
}

function formatText(path: string, result: SealVerification, notes: readonly string[]): string {
  const lines = [`${result.state}  ${path}`];
  if (result.payload && "seal_id" in result.payload) {
    lines.push(
      `  seal ${result.payload.seal_id}  run ${result.payload.run_id}  project ${result.payload.project_id}`,
    );
  }
  for (const check of result.checks)
    lines.push(`  ${check.ok ? "ok  " : "FAIL"} ${check.name}: ${check.detail}`);
  if (result.state !== "VERIFIED") lines.push(`  reason: ${result.reason}`);
  for (const note of notes) lines.push(`  note: ${note}`);
  return `${lines.join("\n")}\n`;
}

function formatJson(path: string, result: SealVerification, notes: readonly string[]): string {
  const { signature: _signature, ...rest } = result;
  return `${JSON.stringify({ path, ...rest, notes }, null, 2)}\n`;
}

async function loadTrustedKeys(options: SealVerifyOptions): Promise<TrustedKey[]> {
  const trusted: TrustedKey[] = [];
  for (const path of options.key ?? []) trusted.push(publicKeyFromPem(await readText(path), path));
  if (options.keys) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(await readText(options.keys));
    } catch (error) {
      if (error instanceof CliError) throw error;
      throw new CliError(
        "KEYS_FILE_INVALID",
        `${options.keys}: not JSON; expected the body of GET /api/seal/keys`,
      );
    }
    const keys = (parsed as { keys?: unknown }).keys;
    if (!Array.isArray(keys) || !keys.every(isTrustedKeyShape)) {
      throw new CliError(
        "KEYS_FILE_INVALID",
        `${options.keys}: expected { "keys": [{ "key_id", "public_key_pem", ... }] }`,
      );
    }
    trusted.push(...keys);
  }
  return trusted;
}

function isTrustedKeyShape(value: unknown): value is TrustedKey {
  const key = value as Record<string, unknown>;
  return (
    typeof key === "object" &&
    key !== null &&
    typeof key.key_id === "string" &&
    typeof key.public_key_pem === "string"
  );
}

function publicKeyFromPem(pem: string, path: string): TrustedKey {
  try {
    return toTrustedKey(importPublicKeyPem(pem));
  } catch (error) {
    if (error instanceof CoreError) throw new CliError("KEY_INVALID", `${path}: ${error.message}`);
    throw error;
  }
}

async function statOrThrow(path: string) {
  try {
    return await stat(path);
  } catch {
    throw new CliError("FILE_NOT_FOUND", `${path}: no such file or directory`);
  }
}

async function readBytes(path: string): Promise<Buffer> {
  try {
    return await readFile(path);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "ENOENT") throw new CliError("FILE_NOT_FOUND", `${path}: no such file`);
    throw new CliError("FILE_UNREADABLE", `${path}: ${code ?? "cannot be read"}`);
  }
}

async function readText(path: string): Promise<string> {
  return (await readBytes(path)).toString("utf8");
}

async function readOptional(path: string): Promise<Buffer | null> {
  try {
    return await readFile(path);
  } catch {
    return null;
  }
}
