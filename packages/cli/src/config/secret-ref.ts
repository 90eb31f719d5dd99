import { resolve } from "node:path";
import { z } from "zod";
import { CliError } from "../cli-error.ts";

/**
 * Where a secret comes from: a file, an environment variable, or a key of a Kubernetes Secret
 * (read with the user's kubeconfig). The config file holds these references, never the secrets.
 */
export const secretRefSchema = z.discriminatedUnion("kind", [
  z.object({ kind: z.literal("file"), path: z.string().min(1) }),
  z.object({ kind: z.literal("env"), name: z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/) }),
  z.object({
    kind: z.literal("k8s"),
    namespace: z.string().min(1),
    name: z.string().min(1),
    key: z.string().min(1),
    context: z.string().min(1).optional(),
  }),
]);
export type SecretRef = z.infer<typeof secretRefSchema>;

const USAGE = "use file:<path>, env:<VARIABLE> or k8s:<namespace>/<secret>#<key>";

/** Parses `file:<path>`, `env:<NAME>` or `k8s:<namespace>/<secret>#<key>`; `option` names the flag in errors. */
export function parseSecretRef(option: string, text: string): SecretRef {
  const colon = text.indexOf(":");
  const scheme = colon === -1 ? "" : text.slice(0, colon);
  const rest = text.slice(colon + 1);
  let candidate: unknown;
  // Stored absolute (issue 28 item 6): a context is used from any folder, not the one it was added in.
  if (scheme === "file") candidate = { kind: "file", path: rest === "" ? rest : resolve(rest) };
  else if (scheme === "env") candidate = { kind: "env", name: rest };
  else if (scheme === "k8s") {
    const match = /^([^/#]+)\/([^/#]+)#(.+)$/.exec(rest);
    candidate = match ? { kind: "k8s", namespace: match[1], name: match[2], key: match[3] } : null;
  }
  const parsed = secretRefSchema.safeParse(candidate);
  if (!parsed.success)
    throw new CliError("INPUT_INVALID", `${option} "${text}" is not a secret source: ${USAGE}`);
  return parsed.data;
}

/** The reference as the user typed it (safe to print: it names where the secret is, not the secret). */
export function formatSecretRef(ref: SecretRef): string {
  switch (ref.kind) {
    case "file":
      return `file:${ref.path}`;
    case "env":
      return `env:${ref.name}`;
    case "k8s":
      return `k8s:${ref.namespace}/${ref.name}#${ref.key}`;
  }
}
