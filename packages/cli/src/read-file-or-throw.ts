import { readFile } from "node:fs/promises";
import { CliError } from "./cli-error.ts";

/** Reads a file the user named; a missing or unreadable one is a one-line user error. */
export async function readFileOrThrow(path: string): Promise<Buffer> {
  try {
    return await readFile(path);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const options = { cause: error };
    if (code === "ENOENT") throw new CliError("FILE_NOT_FOUND", `${path}: no such file`, options);
    if (code === "EISDIR")
      throw new CliError("FILE_UNREADABLE", `${path}: is a directory, expected a file`, options);
    throw new CliError("FILE_UNREADABLE", `${path}: ${code ?? "cannot be read"}`, options);
  }
}
