import { readFile } from "node:fs/promises";
import { CliError } from "../cli-error.ts";
import { formatSecretRef, type SecretRef } from "./secret-ref.ts";

/** Where secrets are read from; injected so tests can point at a kubeconfig of their own. */
export interface SecretEnvironment {
  env: NodeJS.ProcessEnv;
  /** Kubeconfig path for `k8s:` references; default the client's own lookup (`KUBECONFIG`, ~/.kube/config). */
  kubeconfig?: string;
}

/**
 * Reads the secret a reference points at. The value never appears in an error message; the
 * message names the reference and what to do.
 */
export async function resolveSecret(ref: SecretRef, where: SecretEnvironment): Promise<string> {
  const label = formatSecretRef(ref);
  const unavailable = (why: string): never => {
    throw new CliError("SECRET_UNAVAILABLE", `cannot read ${label}: ${why}`);
  };
  let value: string | undefined;
  switch (ref.kind) {
    case "file":
      value = await readFile(ref.path, "utf8").catch((error: NodeJS.ErrnoException) =>
        unavailable(`${error.code ?? error.message}; check the path or update the context`),
      );
      break;
    case "env":
      value = where.env[ref.name];
      if (value === undefined) unavailable(`${ref.name} is not set in the environment`);
      break;
    case "k8s": {
      // Loaded only for a Kubernetes secret reference: the client is most of svc --help's start-up otherwise.
      const { CoreV1Api, KubeConfig } = await import("@kubernetes/client-node");
      const config = new KubeConfig();
      try {
        if (where.kubeconfig) config.loadFromFile(where.kubeconfig);
        else config.loadFromDefault();
        if (ref.context) config.setCurrentContext(ref.context);
      } catch (error) {
        unavailable(`no usable kubeconfig (${(error as Error).message})`);
      }
      try {
        const secret = await config
          .makeApiClient(CoreV1Api)
          .readNamespacedSecret({ name: ref.name, namespace: ref.namespace });
        const encoded = secret.data?.[ref.key];
        if (encoded === undefined) unavailable(`the secret has no key ${ref.key}`);
        value = Buffer.from(encoded ?? "", "base64").toString("utf8");
      } catch (error) {
        if (error instanceof CliError) throw error;
        const code = (error as { code?: number }).code;
        unavailable(
          code === 404
            ? "no such secret in that namespace"
            : code === 403
              ? "your Kubernetes user may not read it (RBAC)"
              : "the Kubernetes API did not answer",
        );
      }
      break;
    }
  }
  const trimmed = (value ?? "").trim();
  if (trimmed === "") unavailable("it is empty");
  return trimmed;
}
