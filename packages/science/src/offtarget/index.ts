// @svc/science/offtarget: off-target screening against DrugCentral's targets.
export { offtargetScreening } from "./offtarget-screening.ts";
