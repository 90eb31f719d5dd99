import { readFile } from "node:fs/promises";
import { RunnerError } from "../runner-error.ts";

/** Where the runner's identity token comes from (ARCHITECTURE convention 3: role-named interface). */
export interface TokenSource {
  readonly kind: "cloud" | "k8s" | "dev";
  /** An OIDC ID token for the audience. Never logged. */
  getToken(audience: string): Promise<string>;
}

/**
 * GKE Workload Identity (domain notes): the metadata server mints a Google-signed ID token for
 * the audience; `format=full` puts `email` in it, which the entitlement service uses as principal.
 */
export function cloudTokenSource(metadataUrl: string, timeoutMs = 5000): TokenSource {
  return {
    kind: "cloud",
    async getToken(audience) {
      const url = new URL("/computeMetadata/v1/instance/service-accounts/default/identity", metadataUrl);
      url.searchParams.set("audience", audience);
      url.searchParams.set("format", "full");
      let response: Response;
      try {
        response = await fetch(url, {
          headers: { "Metadata-Flavor": "Google" },
          signal: AbortSignal.timeout(timeoutMs),
        });
      } catch (error) {
        throw new RunnerError(
          "TOKEN_UNAVAILABLE",
          `cloud auth: metadata server ${metadataUrl} unreachable (${(error as Error).message}); is Workload Identity enabled?`,
        );
      }
      if (!response.ok) {
        throw new RunnerError(
          "TOKEN_UNAVAILABLE",
          `cloud auth: metadata server answered ${response.status}; check workloadIdentity.cloudServiceAccount`,
        );
      }
      return requireToken(
        (await response.text()).trim(),
        "cloud auth: metadata server returned an empty token",
      );
    },
  };
}

/** A projected Kubernetes service-account token with the audience set in the pod spec. */
export function k8sTokenSource(tokenFile: string): TokenSource {
  return {
    kind: "k8s",
    // Re-read on every call: the kubelet rotates projected tokens in place.
    getToken: () => readTokenFile(tokenFile, "k8s auth (SVC_K8S_TOKEN_FILE)"),
  };
}

/** A token minted by the entitlement service's dev issuer, from a variable or a file. */
export function devTokenSource(token: string | undefined, tokenFile: string | undefined): TokenSource {
  return {
    kind: "dev",
    async getToken() {
      if (token !== undefined && token.trim() !== "") return token.trim();
      if (tokenFile !== undefined && tokenFile !== "")
        return readTokenFile(tokenFile, "dev auth (SVC_DEV_TOKEN_FILE)");
      throw new RunnerError(
        "TOKEN_UNAVAILABLE",
        "dev auth: set SVC_DEV_TOKEN or SVC_DEV_TOKEN_FILE (svc-entitlement mint-dev-token)",
      );
    },
  };
}

async function readTokenFile(path: string, what: string): Promise<string> {
  let text: string;
  try {
    text = await readFile(path, "utf8");
  } catch {
    throw new RunnerError("TOKEN_UNAVAILABLE", `${what}: token file ${path} cannot be read`);
  }
  return requireToken(text.trim(), `${what}: token file ${path} is empty`);
}

function requireToken(token: string, message: string): string {
  if (token === "") throw new RunnerError("TOKEN_UNAVAILABLE", message);
  return token;
}
