import { isConsistentExtension, type LogCheckpoint, logOriginOf, openCheckpoint } from "@svc/core";
import { CliError, exitOf } from "../cli-error.ts";
import type { TrustFiles } from "../config/cli-config.ts";
import { svcCommand } from "../config/svc-command.ts";
import { isSameIssuer, parseIssuerUrl } from "../trust/issuer-client.ts";
import { fetchConsistency, fetchLatestCheckpoint, LogAnswerTooLarge } from "../trust/log-client.ts";
import { readWitnessFile, writeWitnessFile } from "../trust/log-witness-file.ts";
import { resolveTrust, type TrustOptions } from "../trust/resolve-trust.ts";

export interface LogWatchOutcome {
  readonly exitCode: number;
  readonly output: string;
}

/**
 * `svc log watch --issuer <url>` (issue 30 item 5): a witness. Fetches the issuer's latest
 * checkpoint, requires the signature of a pinned key (never one the issuer publishes now), and checks that it extends the last checkpoint
 * this user saw of the same log (kept in the CLI's config folder, by origin): RFC 9162 §2.1.4
 * consistency, so a log that shrank, was rewritten, or shows another tree of the same size (a
 * fork) exits LOG_INCONSISTENT (15) and keeps the old checkpoint as the evidence.
 */
export async function runLogWatch(options: TrustOptions, config: TrustFiles): Promise<LogWatchOutcome> {
  if (options.issuer === undefined)
    throw new CliError("USAGE", "svc log watch needs --issuer <entitlement url>");
  const issuer = parseIssuerUrl(options.issuer);
  // pinned keys only: a key the issuer publishes today could sign a fork (it rotates with seal keys)
  const { issuer: _asked, ...pinned } = options;
  const trust = await resolveTrust(pinned, config);
  if (trust.keys.length === 0)
    throw new CliError(
      "USAGE",
      `no pinned key to check the log's checkpoints with: pin the issuer first (${svcCommand()} trust add --issuer ${issuer.origin}) or pass --key / --keys`,
    );
  // issue 38 item 2: a key pinned for another issuer vouches for nothing here; a key given by hand
  // (no issuer) still may
  const keys = trust.keys.filter((key) => key.issuer == null || isSameIssuer(key.issuer, issuer));
  let note: string;
  try {
    note = await fetchLatestCheckpoint(issuer);
  } catch (error) {
    if (error instanceof LogAnswerTooLarge) throw error;
    throw new CliError("ISSUER_UNREACHABLE", `${(error as Error).message}; check --issuer and try again`);
  }
  const opened = openCheckpoint(note, keys);
  if ("refused" in opened)
    return {
      exitCode: opened.refused === "malformed" ? exitOf("LOG_INCONSISTENT") : exitOf("UNVERIFIED"),
      output: `${opened.refused === "malformed" ? "LOG_INCONSISTENT" : "UNVERIFIED"}  ${issuer.origin}: the latest checkpoint is ${opened.refused === "malformed" ? "not a C2SP checkpoint" : "not signed by a key you trust"}\n`,
    };
  const latest = opened.checkpoint;
  // the history is the issuer's: its log is under the origin its name gives (logOriginOf), never
  // one the checkpoint picks (…/seal-log/v2 or …/Seal-Log would start a fresh history, "FIRST")
  const pinnedFor = keys.find((key) => key.key_id === opened.keyId)?.issuer;
  const expected = pinnedFor != null ? logOriginOf(pinnedFor) : null;
  if (expected !== null ? latest.origin !== expected : !isIssuerLogOrigin(latest.origin))
    return {
      exitCode: exitOf("LOG_INCONSISTENT"),
      output: `LOG_INCONSISTENT  ${issuer.origin}: the checkpoint is of the log ${latest.origin}, not of ${expected ?? "an issuer's log (<host>[/<path>]/seal-log)"}; nothing kept\n`,
    };
  const file = await readWitnessFile(config.witnessFile);
  const kept = file.logs[latest.origin];
  const keep = async () => {
    file.logs[latest.origin] = { checkpoint: note, issuer: issuer.origin, seen_at: new Date().toISOString() };
    await writeWitnessFile(config.witnessFile, file);
  };
  if (kept === undefined) {
    await keep();
    return {
      exitCode: exitOf("DONE"),
      output: `FIRST  ${latest.origin} at size ${latest.size}, signed by ${opened.keyId}: kept in ${config.witnessFile}\n`,
    };
  }
  const older = parseKept(kept.checkpoint);
  let proof: Buffer[] = [];
  if (latest.size > older.size) {
    try {
      const answer = await fetchConsistency(issuer, older.size);
      // the proof must be to the very tree the latest checkpoint signs
      if (answer.to !== latest.size) throw new Error(`it proves up to size ${answer.to}, not ${latest.size}`);
      proof = answer.consistency_proof.map((hash) => Buffer.from(hash, "base64"));
    } catch (error) {
      throw new CliError("ISSUER_RESPONSE_INVALID", `consistency proof: ${(error as Error).message}`);
    }
  }
  if (!isConsistentExtension(older, latest, proof))
    return {
      exitCode: exitOf("LOG_INCONSISTENT"),
      output: [
        `LOG_INCONSISTENT  ${latest.origin}: the checkpoint of size ${latest.size} from ${issuer.origin} does not extend the one of size ${older.size} seen ${kept.seen_at} from ${kept.issuer} (rewritten, rolled back or forked history)`,
        "  kept (unchanged):",
        indent(kept.checkpoint),
        "  now:",
        indent(note),
      ].join("\n"),
    };
  await keep();
  return {
    exitCode: exitOf("DONE"),
    output: `CONSISTENT  ${latest.origin} grew from size ${older.size} to ${latest.size}, signed by ${opened.keyId}\n`,
  };
}

/**
 * Whether `origin` is a log origin an issuer's name gives (core logOriginOf: host, optional path,
 * then /seal-log), for a key given by hand that names no issuer: lower case, nothing after
 * /seal-log, so no variant of one issuer's origin starts a history of its own.
 */
function isIssuerLogOrigin(origin: string): boolean {
  return (
    /^[a-z0-9.-]+(:[0-9]+)?(\/[a-z0-9._~%!$&'()*,;=:@-]+)*\/seal-log$/.test(origin) &&
    !/\/seal-log\//.test(origin)
  );
}

/** The kept checkpoint was verified before it was kept; only its tree is needed now. */
function parseKept(note: string): LogCheckpoint {
  const [origin, size, root] = note.split("\n");
  return { origin: origin as string, size: Number(size), rootHash: Buffer.from(root as string, "base64") };
}

function indent(note: string): string {
  return `${note
    .trimEnd()
    .split("\n")
    .map((line) => `    ${line}`)
    .join("\n")}\n`;
}
