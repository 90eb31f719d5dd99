import { stat } from "node:fs/promises";
import {
  checkIssuerAnswer,
  checkIssuerLog,
  checkReleasedImage,
  describeAttestation,
  describeClaimStrength,
  isSealPayload,
  PRESEAL_VERSION,
  SEAL_STATES,
  type SealState,
  type SealVerification,
  verifySealSvg,
  withChecks,
} from "@svc/core";
import { CliError, exitOf } from "../cli-error.ts";
import type { TrustFiles } from "../config/cli-config.ts";
import { svcCommand } from "../config/svc-command.ts";
import { readFileOrThrow } from "../read-file-or-throw.ts";
import { verifyRunFolder } from "../run-folder/verify-run-folder.ts";
import { askIssuer, fetchReleasedRunners } from "../trust/issuer-client.ts";
import { askIssuerLog } from "../trust/log-client.ts";
import { readWitnessFile } from "../trust/log-witness-file.ts";
import { resolveTrust, type Trust, type TrustOptions } from "../trust/resolve-trust.ts";
import { checkAgainstWitness } from "../trust/witness-check.ts";

export interface SealVerifyOptions extends TrustOptions {
  readonly json?: boolean;
}

export interface SealVerifyOutcome {
  readonly exitCode: number;
  readonly output: string;
}

/** The exit code of each state (packages/cli/README.md, "States and exit codes"), from the one exit table: 0 only for VERIFIED. */
export const EXIT_BY_STATE: Readonly<Record<SealState, number>> = Object.freeze(
  Object.fromEntries(SEAL_STATES.map((state) => [state, exitOf(state)])) as Record<SealState, number>,
);

/** The one line printed when nothing is trusted (issue 9 §4). */
export const PIN_ISSUER_HINT = `no trusted key: pin your issuer once with "${svcCommand()} trust add --issuer <entitlement url>" (or pass --key, --keys or --issuer); a key inside the folder never vouches for itself`;

/**
 * `svc seal verify <seal.svg | run-output-dir>`. Trust comes from `--key`, `--keys`, `--issuer`
 * or the user's trust file, never from the folder. A run folder's outputs and manifest are
 * recomputed and must be the sealed ones. With `--issuer` the issuer is asked about revocation.
 */
export async function runSealVerify(
  target: string,
  options: SealVerifyOptions,
  config: TrustFiles,
): Promise<SealVerifyOutcome> {
  const isDirectory = (await statOrThrow(target)).isDirectory();
  const trust = await resolveTrust(options, config);
  const checked = isDirectory
    ? await verifyRunFolder(target, trust.keys)
    : { svgPath: target, svg: await readFileOrThrow(target), result: null };
  let result = checked.result ?? verifySealSvg(checked.svg, trust.keys);
  // issue 38 item 2: the folder's checkpoint against the one svc log watch kept for that log
  const folderProof = "logProof" in checked ? checked.logProof : null;
  if (folderProof != null) {
    const witnessed = checkAgainstWitness(folderProof, await readWitnessFile(config.witnessFile));
    if (witnessed !== null) result = withChecks(result, [witnessed]);
  }
  if (trust.issuer && isSealPayload(result.payload)) {
    const answer = await askIssuer(trust.issuer, checked.svg);
    // issue 23 item 5: the image digest against the runners the issuer released, when it lists them
    const released = checkReleasedImage(
      result.payload,
      await fetchReleasedRunners(trust.issuer),
      trust.issuer.origin,
    );
    // issue 30 item 4: the issuer's log now must extend the checkpoint kept and still hold the leaf
    const stored = "logProof" in checked ? checked.logProof : null;
    const logCheck =
      stored == null
        ? []
        : [
            checkIssuerLog(
              stored,
              stored.entry,
              await askIssuerLog(trust.issuer, result.payload.seal_id, stored.size),
              trust.keys,
              trust.issuer.origin,
            ),
          ];
    result = withChecks(result, [
      checkIssuerAnswer(trust.issuer.origin, answer),
      ...(released ? [released] : []),
      ...logCheck,
    ]);
  } else if (trust.issuer && result.payload?.seal_version === PRESEAL_VERSION) {
    // issue 23 item 7: a pre-seal never reached the issuer, so there is nothing it could vouch for
    result = withChecks(result, [
      {
        name: "revocation",
        ok: false,
        detail: `not asked: ${trust.issuer.origin} never saw this pre-seal; it is an unsigned claim until svc-runner seal completes it`,
        code: "PRESEAL_UNSIGNED",
      },
    ]);
  }
  const notes = trust.keys.length === 0 ? [PIN_ISSUER_HINT] : [];
  if (trust.issuer && trust.keys.length > 0) {
    notes.push(
      `to pin this issuer's keys for next time: ${svcCommand()} trust add --issuer ${trust.issuer.origin}`,
    );
  }
  return {
    exitCode: EXIT_BY_STATE[result.state],
    output: options.json
      ? formatJson(checked.svgPath, result, trust, notes)
      : formatText(checked.svgPath, result, trust, notes),
  };
}

function formatText(path: string, result: SealVerification, trust: Trust, notes: readonly string[]): string {
  const lines = [`${result.state}  ${path}`];
  if (result.payload && "seal_id" in result.payload) {
    lines.push(
      `  seal ${result.payload.seal_id}  run ${result.payload.run_id}  project ${result.payload.project_id}  key ${result.payload.key_id}`,
    );
  }
  if (isSealPayload(result.payload)) lines.push(`  ${describeAttestation(result.payload)}`);
  // issue 37 item 3: the signed claim strength, when the seal carries one
  const claim = isSealPayload(result.payload) ? describeClaimStrength(result.payload) : null;
  if (claim !== null) lines.push(`  ${claim}`);
  const funding = fundingOf(result);
  if (funding) lines.push(`  funding: ${describeFunding(funding)}`);
  lines.push(`  trust: ${trust.sources.length > 0 ? trust.sources.join("; ") : "none"}`);
  for (const check of result.checks)
    lines.push(`  ${check.ok ? "ok  " : "FAIL"} ${check.name}: ${check.detail}`);
  if (result.reason_code !== null) lines.push(`  reason: ${result.reason_code}: ${result.reason}`);
  for (const note of notes) lines.push(`  note: ${note}`);
  return `${lines.join("\n")}\n`;
}

function formatJson(path: string, result: SealVerification, trust: Trust, notes: readonly string[]): string {
  const { signature: _signature, canonical_svg: _canonical, ...rest } = result;
  const funding = fundingOf(result);
  return `${JSON.stringify({ path, ...rest, ...(funding ? { funding } : {}), trust: trust.sources, notes }, null, 2)}\n`;
}

/** How the sealed run was paid (issue 16 item 1): bought, or a rerun credit from redeeming `rerun_of`. */
interface Funding {
  readonly kind: "purchased" | "rerun";
  readonly rerun_of: string | null;
  readonly redeemable: boolean;
}

function fundingOf(result: SealVerification): Funding | null {
  const payload = result.payload;
  if (!isSealPayload(payload)) return null;
  if (payload.funding === "rerun")
    return { kind: "rerun", rerun_of: payload.rerun_of ?? null, redeemable: false };
  return { kind: "purchased", rerun_of: null, redeemable: true };
}

function describeFunding(funding: Funding): string {
  return funding.kind === "rerun"
    ? `rerun, paid by redeeming seal ${funding.rerun_of}; this seal cannot be redeemed`
    : "purchased run";
}

async function statOrThrow(path: string) {
  try {
    return await stat(path);
  } catch {
    throw new CliError("FILE_NOT_FOUND", `${path}: no such file or directory`);
  }
}
