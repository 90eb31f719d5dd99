import { analyseDynamicsNma, DYNAMICS_NMA_METHOD, type DynamicsNmaResult } from "@svc/science/structure";
import type { StructureModule } from "./structure-module.ts";

/** `dynamics_nma` as a structure module: the Cα ANM of each staged structure (science's analyseDynamicsNma). */
export const dynamicsNmaModule: StructureModule<DynamicsNmaResult> = {
  id: "dynamics_nma",
  version: "1.1.0", // 1.1.0: only the 20 modes needed (shift-invert block Lanczos), up to 15,000 Cα (issue 39 item 4)
  method: DYNAMICS_NMA_METHOD,
  riskChannel: "biology",
  requiredInputs: ["structures"],
  assessStructure: async ({ parsed, staged }) => analyseDynamicsNma(parsed, staged.pocket),
};
