import type { MethodCard } from "./analysis-module.ts";

/** The name of the docs/science.md generated block holding module `moduleId`'s card. */
export function methodCardBlockName(moduleId: string): string {
  return `method-card:${moduleId}`;
}

/**
 * A module's method card as the markdown bullets of its docs/science.md section: the same text the
 * run writes into `summary.method`, so every figure there is the one the code computes, never a
 * number typed by hand (issue 24 item 7).
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
