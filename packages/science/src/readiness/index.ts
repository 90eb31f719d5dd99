// @svc/science/readiness: wet-lab readiness and its signals.
export type { ReadinessFinding } from "./wetlab-readiness.ts";
