// @svc/science/sar: structure–activity relationships over measured assays.
export type { SarSummary } from "./sar-explorer.ts";
