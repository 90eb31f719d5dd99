import type { PreflightConfig } from "./config.ts";
import type { KubeGateway } from "./kube/kube-gateway.ts";

/** Shared by the route modules: config, gateways and the checks routes apply (the bearer check is the protected scope's, app.ts). */
export interface RouteContext {
  config: PreflightConfig;
  clock: () => Date;
  /** The gateway, or KUBERNETES_NOT_CONFIGURED. */
  requireKube: () => KubeGateway;
  kube: KubeGateway | null;
  /** Validates a namespace's syntax (DNS-1123, INVALID_INPUT). */
  validateNamespace: (namespace: string) => void;
  /** Validates a namespace and the allow list (NAMESPACE_NOT_ALLOWED). */
  checkNamespace: (namespace: string) => void;
}
