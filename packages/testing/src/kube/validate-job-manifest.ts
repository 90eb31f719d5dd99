import { Job } from "kubernetes-models/batch/v1";

/**
 * Validates a Job object against the Kubernetes OpenAPI schema (kubernetes-models); throws with
 * the schema errors when it does not conform. Unknown fields pass, as kubernetes-models allows them.
 */
export function assertValidJobManifest(obj: unknown): void {
  new Job(obj as ConstructorParameters<typeof Job>[0]).validate();
}
