// @svc/science/numeric: the numeric helpers every module shares (one rounding, one seeded PRNG).
export { pearson } from "./pearson.ts";
export { round } from "./round.ts";
export { mulberry32 } from "./seeded-shuffle.ts";
