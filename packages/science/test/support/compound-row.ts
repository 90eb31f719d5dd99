import type { CompoundRow } from "../../src/compound-row.ts";

/**
 * A portfolio row as the runner hands it to a module: candidate `C<index>` on line index + 1, no
 * name, no metadata, and `activities` when given.
 */
export const row = (index: number, smiles: string, activities?: Record<string, number>): CompoundRow => ({
  index,
  line: index + 1,
  candidateId: `C${index}`,
  name: null,
  smiles,
  metadata: {},
  ...(activities === undefined ? {} : { activities }),
});
