import { defineStructureModule } from "../../define-structure-module.ts";
import { selectCalphas } from "../amino-acids.ts";
import {
  analyseCrypticPockets,
  CRYPTIC_POCKETS_METHOD,
  type CrypticPocketsResult,
} from "../cryptic-pockets.ts";

/**
 * `cryptic_pockets` (issue 40 item 5), EXPLORATORY: ConCavity's cavities on the crystal receptor and
 * its ANM conformers, the transient ones worded as a hint. Deep profile only, from its measured cost.
 */
export const crypticPocketsModule = defineStructureModule<CrypticPocketsResult, never>({
  id: "cryptic_pockets",
  version: "1.0.0",
  method: CRYPTIC_POCKETS_METHOD,
  riskChannel: "chemistry",
  requiredInputs: ["structures"],
  callsTools: true,
  async assessStructure(context) {
    // Seven ConCavity runs cost up to about 80 CPU-s on a 2,770-Cα receptor: a sizeable share of a
    // standard structure's 10-minute budget for a hint, so standard says so instead.
    if (context.mode !== "deep")
      return {
        status: "not_assessed",
        reason:
          "deep profile only: seven ConCavity runs (the crystal receptor and its six ANM conformers) cost up to about 80 CPU-s per structure; a standard run reports no cavity hints",
        calpha_count: selectCalphas(context.parsed).length,
      };
    return analyseCrypticPockets(context.parsed, context.staged.pocket, context.workDir);
  },
});
