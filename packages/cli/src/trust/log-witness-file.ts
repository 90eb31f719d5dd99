import { mkdir, readFile, rename, writeFile } from "node:fs/promises";
import { dirname } from "node:path";
import { z } from "zod";
import { CliError } from "../cli-error.ts";

/** What `svc log watch` keeps per log (issue 30 item 5): the last checkpoint it verified. */
const witnessFileSchema = z.object({
  version: z.literal("svc.log-witness/v1"),
  logs: z.record(
    z.string(),
    z.object({ checkpoint: z.string(), issuer: z.string(), seen_at: z.string() }).strict(),
  ),
});

export type WitnessFile = z.infer<typeof witnessFileSchema>;

/** Reads the witness file; a missing one is empty, an unreadable one an error (never silently reset). */
export async function readWitnessFile(path: string): Promise<WitnessFile> {
  let text: string;
  try {
    text = await readFile(path, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT")
      return { version: "svc.log-witness/v1", logs: {} };
    throw new CliError("FILE_UNREADABLE", `${path}: ${(error as Error).message}`, {
      cause: error,
    });
  }
  try {
    return witnessFileSchema.parse(JSON.parse(text));
  } catch {
    throw new CliError(
      "KEYS_FILE_INVALID",
      `${path} is not a svc.log-witness/v1 file; move it away to start over`,
    );
  }
}

/** Writes the file whole (a temporary file renamed over it), so a crash leaves the old or the new one. */
export async function writeWitnessFile(path: string, file: WitnessFile): Promise<void> {
  await mkdir(dirname(path), { recursive: true, mode: 0o700 });
  const temporary = `${path}.${process.pid}.tmp`;
  try {
    await writeFile(temporary, `${JSON.stringify(file, null, 2)}\n`, { mode: 0o600 });
    await rename(temporary, path);
  } catch (error) {
    throw new CliError("FILE_UNWRITABLE", `${path}: ${(error as Error).message}`, {
      cause: error,
    });
  }
}
