import type { Interaction } from "./interaction-profile.ts";

/**
 * The identity of an interaction for comparisons: its type, residue (chain, number, name) and ligand
 * atom(s), plus the direction where PLIP records one (who donates, who carries the charge) and the
 * stacking geometry. Two profiles agree on an interaction when these keys are equal.
 */
export function interactionKey(interaction: Interaction): string {
  const r = interaction.residue;
  const residue = `${r.chain}:${r.resSeq}:${r.resName}`;
  const atoms = [...interaction.ligandAtoms].sort((a, b) => a - b).join(",");
  let detail = atoms;
  if (interaction.type === "hydrogen_bond") detail = `${atoms}|${interaction.proteinIsDonor}`;
  if (interaction.type === "salt_bridge") detail = `${atoms}|${interaction.proteinIsPositive}`;
  if (interaction.type === "pi_stacking") detail = `${atoms}|${interaction.stacking}`;
  if (interaction.type === "pi_cation") detail = `${atoms}|${interaction.proteinIsCharged}`;
  if (interaction.type === "metal_complex") detail = `${atoms}|${interaction.receptorAtoms.join(",")}`;
  return `${interaction.type}|${residue}|${detail}`;
}
