import { writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import { runSealVerify, type SealVerifyOutcome } from "../commands/seal-verify.ts";
import { fetchIssuerKeysToPin, parseIssuerUrl } from "./issuer-client.ts";
import { addToKeysFile } from "./keys-file.ts";

export interface PinAndVerifyOptions {
  /** The entitlement service that issued the seal. */
  readonly issuer: string;
  readonly runDir: string;
  /** The trust file to pin the issuer's keys in (what `svc trust add --issuer` writes). */
  readonly trustFile: string;
  /** Where to write the issuer's current public key, for `verify.sh --key`. */
  readonly issuerPemFile: string;
}

export interface PinAndVerifyResult extends SealVerifyOutcome {
  readonly keyIds: readonly string[];
}

/**
 * What `npm run demo` and `svc local run` do at the end of a run (issue 9 §4): pin the issuer's
 * published keys in a trust file, save its current key for verify.sh, and verify the run folder
 * as `svc seal verify <run-dir> --issuer <url>` does (outputs recomputed, revocation asked).
 */
export async function pinIssuerAndVerify(options: PinAndVerifyOptions): Promise<PinAndVerifyResult> {
  const keys = await fetchIssuerKeysToPin(parseIssuerUrl(options.issuer));
  await addToKeysFile(options.trustFile, keys);
  await writeFile(options.issuerPemFile, keys[0]?.public_key_pem ?? "");
  const outcome = await runSealVerify(
    options.runDir,
    { issuer: options.issuer },
    {
      trustFile: options.trustFile,
      trustFileExplicit: true,
      witnessFile: join(dirname(options.trustFile), "log-witness.json"),
    },
  );
  return { ...outcome, keyIds: keys.map((key) => key.key_id) };
}
