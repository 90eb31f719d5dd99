// @svc/science/manufacturability: stereocentres, ring systems and other manufacturing flags.
export type { ManufacturabilityFinding } from "./manufacturability-audit.ts";
