// @svc/science/yscramble: y-scrambling of a portfolio's measured assay.
export { type YScrambleSummary, yScrambleValidation } from "./y-scramble-validation.ts";
