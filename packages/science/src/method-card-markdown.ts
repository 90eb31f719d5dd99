import type { MethodCard } from "./analysis-module.ts";

/** The markers around a card docs/science.md takes from the module itself (issue 24 item 7). */
export function methodCardMarkers(moduleId: string): { readonly start: string; readonly end: string } {
  return {
    start: `<!-- method-card ${moduleId}: generated from the module's method card by packages/science/scripts/write-science-docs.ts; do not edit -->`,
    end: `<!-- /method-card ${moduleId} -->`,
  };
}

/**
 * A module's method card as the markdown bullets of its docs/science.md section: the same text the
 * run writes into `summary.method`, so every figure there is the one the code computes, never a
 * number typed by hand.
 */
export function methodCardMarkdown(card: MethodCard): string {
  return [
    `- **What.** ${card.what}`,
    `- **Citation.** ${card.citations.join("; ")}.`,
    `- **Data.** ${card.data.map((file) => `\`${file}\``).join(", ")} (\`packages/science/data/\`, PROVENANCE.md).`,
    `- **Validation.** ${card.validation}`,
    `- **Limits.** ${card.limits}`,
  ].join("\n");
}

/**
 * `docs` with the text between each module's markers replaced by its card. A module whose markers
 * are absent is left alone (its card is still hand-written).
 */
export function writeMethodCards(docs: string, cards: ReadonlyMap<string, MethodCard>): string {
  let out = docs;
  for (const [id, card] of cards) {
    const { start, end } = methodCardMarkers(id);
    const from = out.indexOf(start);
    const to = out.indexOf(end);
    if (from === -1 || to === -1 || to < from) continue;
    out = `${out.slice(0, from + start.length)}\n${methodCardMarkdown(card)}\n${out.slice(to)}`;
  }
  return out;
}
