import { mkdir, open, readFile, rename, rm } from "node:fs/promises";
import { dirname } from "node:path";
import { z } from "zod";
import { CliError } from "../cli-error.ts";
import { secretRefSchema } from "./secret-ref.ts";
import { svcCommand } from "./svc-command.ts";

/** One named set of endpoints and where their credentials come from. */
export const contextSchema = z.object({
  preflight: z
    .object({
      url: z.url(),
      token: secretRefSchema.optional(),
      namespace: z.string().min(1).optional(),
    })
    .optional(),
  entitlement: z
    .object({
      url: z.url(),
      identity: secretRefSchema.optional(),
      admin: secretRefSchema.optional(),
    })
    .optional(),
});
export type SvcContext = z.infer<typeof contextSchema>;

/** The contexts file (`CliConfig.contextsFile`): the named contexts and the one in use. */
export const contextsFileSchema = z.object({
  version: z.literal(1),
  current: z.string().nullable(),
  contexts: z.record(z.string(), contextSchema),
});
export type ContextsFile = z.infer<typeof contextsFileSchema>;

/** Reads the config file; a missing file is an empty config. */
export async function loadContextsFile(path: string): Promise<ContextsFile> {
  let text: string;
  try {
    text = await readFile(path, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT")
      return { version: 1, current: null, contexts: {} };
    throw new CliError("CONFIG_INVALID", `${path}: ${(error as Error).message}`, {
      cause: error,
    });
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new CliError(
      "CONFIG_INVALID",
      `${path} is not JSON; fix it or remove it and run ${svcCommand()} context add again`,
    );
  }
  const parsed = contextsFileSchema.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new CliError(
      "CONFIG_INVALID",
      `${path}: ${issue?.path.join(".") || "(root)"}: ${issue?.message}; fix it or remove it and run ${svcCommand()} context add again`,
    );
  }
  return parsed.data;
}

/**
 * Writes the config file with mode 0600 in a 0700 folder, through a temporary file and a rename,
 * so a crash never leaves a half-written config.
 */
export async function saveContextsFile(path: string, config: ContextsFile): Promise<void> {
  await mkdir(dirname(path), { recursive: true, mode: 0o700 });
  const temporary = `${path}.${process.pid}.tmp`;
  const handle = await open(temporary, "w", 0o600);
  try {
    await handle.writeFile(`${JSON.stringify(config, null, 2)}\n`);
    await handle.sync();
  } finally {
    await handle.close();
  }
  try {
    await rename(temporary, path);
  } catch (error) {
    await rm(temporary, { force: true });
    throw error;
  }
}

/** The context named, or the current one; a clear error when there is none. */
export function pickContext(
  config: ContextsFile,
  name: string | undefined,
): { name: string; context: SvcContext } {
  const chosen = name ?? config.current ?? undefined;
  if (chosen === undefined)
    throw new CliError(
      "CONTEXT_NOT_FOUND",
      `no context in use: run ${svcCommand()} context add <name> ... then ${svcCommand()} context use <name>`,
    );
  const context = config.contexts[chosen];
  if (!context)
    throw new CliError(
      "CONTEXT_NOT_FOUND",
      `no context "${chosen}"; known: ${Object.keys(config.contexts).join(", ") || "none"} (${svcCommand()} context list)`,
    );
  return { name: chosen, context };
}
