import { open } from "node:fs/promises";

// No import beyond node:fs: `svc project init` reads these without loading the runner (its
// --help loads no @svc/core, packages/cli/test/help-loads-no-command.e2e.test.ts).

/**
 * The most portfolio rows a run reads (issue 37 item 7). The runner's memory and scratch space
 * were measured to 560,000 rows (README, "Memory"); a million leaves room above that and stays
 * within the Standard profile's 8 GiB and 50 GiB claim.
 */
export const PORTFOLIO_MAX_ROWS = 1_000_000;

/**
 * The largest portfolio file a run reads: {@link PORTFOLIO_MAX_ROWS} rows of about 540 bytes. A
 * drug-like row (an id, a name, a SMILES of 20–70 heavy atoms) takes 60–200 bytes, the longest
 * SMILES the runner assesses 4,000 characters (`SVC_MAX_SMILES_LENGTH`); an SD file, about 3 KiB
 * a molecule, reaches it near 180,000 molecules.
 */
export const PORTFOLIO_MAX_BYTES = 512 * 1024 * 1024;

/** The reason a refusal of a too-large file gives, in the words init and the runner share. */
export const PORTFOLIO_LIMIT_REASON = `the runner reads at most ${PORTFOLIO_MAX_ROWS.toLocaleString("en")} rows and ${PORTFOLIO_MAX_BYTES / 1024 / 1024} MiB (its memory and scratch were measured to 560,000 rows); split the portfolio into several projects`;

/** Bytes read from the start of a file to tell text from binary. */
const SNIFF_BYTES = 64 * 1024;

/** What the first bytes of an input file say it is. */
export type InputFileKind =
  | { readonly kind: "text"; readonly size: number }
  | { readonly kind: "empty"; readonly size: number }
  | { readonly kind: "binary"; readonly size: number; readonly why: string };

/**
 * Reads at most the first 64 KiB of a file: empty (no byte but white space), binary (a NUL or
 * another C0 control character than tab, LF, CR and form feed, or bytes that are not UTF-8), or
 * text. Nothing of a binary file is ever echoed: a refusal names only its size.
 */
export async function sniffInputFile(path: string): Promise<InputFileKind> {
  const handle = await open(path, "r");
  try {
    const { size } = await handle.stat();
    const buffer = Buffer.alloc(Math.min(SNIFF_BYTES, size));
    const { bytesRead } = await handle.read(buffer, 0, buffer.length, 0);
    const head = buffer.subarray(0, bytesRead);
    for (const byte of head)
      if (byte < 0x20 && byte !== 0x09 && byte !== 0x0a && byte !== 0x0d && byte !== 0x0c)
        return { kind: "binary", size, why: byte === 0 ? "a NUL byte" : "control characters" };
    if (!isUtf8Prefix(head, bytesRead < size))
      return { kind: "binary", size, why: "bytes that are not UTF-8 text" };
    const text = head.toString("utf8").replace(/^\uFEFF/, "");
    if (bytesRead === size && text.trim() === "") return { kind: "empty", size };
    return { kind: "text", size };
  } finally {
    await handle.close();
  }
}

/** Whether `bytes` is UTF-8, allowing a character cut at the end when the file goes on. */
function isUtf8Prefix(bytes: Buffer, truncated: boolean): boolean {
  const decoder = new TextDecoder("utf-8", { fatal: true });
  try {
    decoder.decode(bytes, { stream: truncated });
    return true;
  } catch {
    return false;
  }
}

/** A size in words: bytes, KiB or MiB. */
export function formatBytes(size: number): string {
  if (size < 1024) return `${size} bytes`;
  if (size < 1024 * 1024) return `${(size / 1024).toFixed(1)} KiB`;
  return `${(size / 1024 / 1024).toFixed(1)} MiB`;
}
