import type { PreparedCompound } from "../prepare-compound.ts";
import { IN_DOMAIN_CLASSES } from "./compound-class.ts";

/**
 * The out-of-domain reason every model gives for a compound outside the organic classes, or null
 * when the compound is organic or an organic salt (an unparsed compound has no class: null).
 */
export function classDomainReason(compound: PreparedCompound): string | null {
  if (!compound.ok || IN_DOMAIN_CLASSES.has(compound.chem.compound_class)) return null;
  return (
    `out_of_domain: compound_class ${compound.chem.compound_class} (${compound.chem.compound_class_reason}); ` +
    "the model's training set holds organic drug-like compounds only"
  );
}

/** The class gate's rule in one line: every model applies it before its own domain rule. */
export const CLASS_DOMAIN_RULE = "compound_class organic or organic_salt";
