import { rename, rm, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import {
  CoreError,
  canonicalBytes,
  checkIssuerAnswer,
  decodeSealSig,
  parseSealPayload,
  renderSealSvg,
  SEAL_FILES,
  type SealVerification,
  verifySealSvg,
  withChecks,
} from "@svc/core";
import { CliError, exitOf } from "../cli-error.ts";
import type { TrustFiles } from "../config/cli-config.ts";
import { readFileOrThrow } from "../read-file-or-throw.ts";
import { askIssuer } from "../trust/issuer-client.ts";
import { resolveTrust, type TrustOptions } from "../trust/resolve-trust.ts";
import { EXIT_BY_STATE, type SealVerifyOutcome } from "./seal-verify.ts";

export interface SealRenderOptions extends TrustOptions {
  /** Where to write the canonical seal.svg. */
  readonly output: string;
  /** seal.sig for a seal.json source; defaults to the seal.sig beside it. */
  readonly sig?: string;
}

/**
 * `svc seal render <seal.svg | seal.json> -o out.svg` (issue 9 §1): writes the canonical image of
 * a seal whose signature verifies with a key you trust, e.g. after an optimiser rewrote the file.
 * Nothing is written unless the rendering itself verifies (and, with --issuer, is not revoked).
 */
export async function runSealRender(
  source: string,
  options: SealRenderOptions,
  config: TrustFiles,
): Promise<SealVerifyOutcome> {
  const trust = await resolveTrust(options, config);
  const bytes = await readFileOrThrow(source);
  const candidate = isJson(bytes)
    ? await renderFromJson(bytes, source, options.sig ?? join(dirname(source), SEAL_FILES.signature))
    : verifySealSvg(bytes, trust.keys).canonical_svg;
  if (candidate === null) {
    const why = verifySealSvg(bytes, trust.keys);
    return refuse(source, why);
  }
  let result = verifySealSvg(candidate, trust.keys);
  if (trust.issuer && result.state === "VERIFIED") {
    const answer = await askIssuer(trust.issuer, Buffer.from(candidate));
    result = withChecks(result, [checkIssuerAnswer(trust.issuer.origin, answer)]);
  }
  if (result.state !== "VERIFIED") return refuse(source, result);
  await writeAtomically(options.output, candidate);
  const sealId = result.payload && "seal_id" in result.payload ? result.payload.seal_id : "";
  return {
    exitCode: exitOf("DONE"),
    output: `wrote ${options.output}: the canonical image of ${sealId} (VERIFIED; trust: ${trust.sources.join("; ")})\n`,
  };
}

async function renderFromJson(bytes: Buffer, source: string, sigPath: string): Promise<string> {
  // Read strictly, as every verifier reads it (issue 23 item 10): never a lenient base64 decode.
  const signature = decodeSealSig((await readFileOrThrow(sigPath)).toString("utf8"));
  if (signature === null)
    throw new CliError(
      "SEAL_NOT_RENDERABLE",
      `${sigPath}: not one line of standard base64 of a 64-byte signature`,
    );
  try {
    const payload = parseSealPayload(JSON.parse(bytes.toString("utf8")));
    // seal.json is exactly the signed bytes; any other spelling is not the signed document.
    if (!canonicalBytes(payload).equals(bytes))
      throw new CliError(
        "SEAL_NOT_RENDERABLE",
        `${source}: not the canonical signed bytes of a seal payload`,
      );
    return renderSealSvg(payload, signature);
  } catch (error) {
    if (error instanceof CliError) throw error;
    const message =
      error instanceof CoreError || error instanceof SyntaxError ? error.message : String(error);
    throw new CliError("SEAL_NOT_RENDERABLE", `${source}: ${message}`);
  }
}

function refuse(source: string, result: SealVerification): SealVerifyOutcome {
  return {
    exitCode: EXIT_BY_STATE[result.state],
    output: `not rendered: ${source} is ${result.state} (${result.reason_code ?? "no code"}: ${result.reason})\n`,
  };
}

function isJson(bytes: Buffer): boolean {
  return bytes.toString("utf8", 0, 64).trimStart().startsWith("{");
}

async function writeAtomically(path: string, text: string): Promise<void> {
  const temporary = join(dirname(path), `.${process.pid}.seal-render.tmp`);
  try {
    await writeFile(temporary, text, { mode: 0o644 });
    await rename(temporary, path);
  } catch (error) {
    await rm(temporary, { force: true });
    throw new CliError(
      "FILE_UNWRITABLE",
      `${path}: ${(error as NodeJS.ErrnoException).code ?? "cannot be written"}`,
    );
  }
}
