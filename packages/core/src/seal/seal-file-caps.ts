import { SEAL_FILES } from "../run-folder/run-files.ts";
import type { SealCheck } from "./seal-check.ts";
import { VERIFY_SCRIPT_PATH } from "./verify-script-path.ts";
import { SEAL_SVG_CAPS } from "./verify-seal-svg.ts";

const KIB = 1024;
const MIB = 1024 * KIB;

/**
 * The most bytes a verifier reads of each file it checks in a run folder (issue 38 item 8): the
 * size is taken from the open file before any byte is read, and a file over its cap is
 * SEAL_FILE_TOO_LARGE, never read. Each cap is far above what the issuer writes: seal.json holds
 * bounded fields (a 320-character principal at most), seal.sig 88 characters, the log proof a
 * 10 000-character checkpoint and 64 hashes, the provenance one statement naming every output
 * (run_complete bodies are at most 16 MiB, base64 adds a third). seal.svg keeps its own cap and
 * code (SVG_TOO_COMPLEX, SEAL_SVG_CAPS.maxBytes). verify.sh applies the same table.
 */
export const SEAL_FILE_MAX_BYTES: Readonly<Record<string, number>> = Object.freeze({
  [SEAL_FILES.svg]: SEAL_SVG_CAPS.maxBytes,
  [SEAL_FILES.presealSvg]: SEAL_SVG_CAPS.maxBytes,
  [SEAL_FILES.json]: 16 * KIB,
  [SEAL_FILES.preseal]: 16 * KIB,
  [SEAL_FILES.signature]: KIB,
  [SEAL_FILES.publicKey]: KIB,
  [SEAL_FILES.instructions]: 64 * KIB,
  [SEAL_FILES.logProof]: 64 * KIB,
  [SEAL_FILES.provenance]: 32 * MIB,
  [VERIFY_SCRIPT_PATH]: MIB,
});

/** The cap of a file of `seal/` (by name) or of the folder's verify.sh (by path). */
export function sealFileMaxBytes(name: string): number {
  const cap = SEAL_FILE_MAX_BYTES[name];
  if (cap === undefined) throw new Error(`no size cap for ${name}`);
  return cap;
}

/** The failed check for a file of `size` bytes over its cap; `path` names it as the folder does. */
export function sealFileTooLarge(path: string, size: number, cap: number): SealCheck {
  return {
    name: "seal_files",
    ok: false,
    detail: `${path} is ${size} bytes, over its cap of ${cap}: not read`,
    code: "SEAL_FILE_TOO_LARGE",
  };
}
