// @svc/science/synthesis: synthetic accessibility (SA score).
export type { SynthesisFinding } from "./synthesis-audit.ts";
