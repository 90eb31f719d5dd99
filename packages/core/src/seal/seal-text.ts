import { CoreError } from "../core-error.ts";

/**
 * The characters each free-text field may hold when it is signed and drawn on a seal (issue 9
 * item 2). ASCII only, so no bidi control (U+202E), no homoglyph from another script and no
 * invisible character can make a label read differently from what is signed; no markup character
 * (`<>&"'`) or space, so nothing needs escaping to be drawn. Documented in
 * docs/contracts/entitlement-http.md ("Text rules").
 */
export const SEAL_TEXT_RULES = {
  run_id: {
    pattern: /^[A-Za-z0-9][A-Za-z0-9._:-]{0,127}$/,
    allowed: "1-128 of A-Z a-z 0-9 . _ : - (first a letter or digit)",
  },
  project_id: {
    pattern: /^[A-Za-z0-9][A-Za-z0-9._:-]{0,127}$/,
    allowed: "1-128 of A-Z a-z 0-9 . _ : - (first a letter or digit)",
  },
  category_id: {
    pattern: /^[A-Za-z0-9][A-Za-z0-9._:-]{0,127}$/,
    allowed: "1-128 of A-Z a-z 0-9 . _ : - (first a letter or digit)",
  },
  // an OCI image reference: registry host[:port]/path[:tag][@sha256:digest]
  "image.reference": {
    pattern: /^[A-Za-z0-9][A-Za-z0-9._:/@-]{0,511}$/,
    allowed: "1-512 of A-Z a-z 0-9 . _ : / @ - (first a letter or digit)",
  },
  // an e-mail address or an OIDC subject (Kubernetes system:serviceaccount:<ns>:<name>)
  principal: {
    pattern: /^[A-Za-z0-9][A-Za-z0-9._:@+=/-]{0,319}$/,
    allowed: "1-320 of A-Z a-z 0-9 . _ : @ + = / - (first a letter or digit)",
  },
} as const satisfies Record<string, { pattern: RegExp; allowed: string }>;

export type SealTextField = keyof typeof SEAL_TEXT_RULES;

/** The signed text fields of a seal, as issueSealBundle receives them. */
export interface SealTextFields {
  readonly run_id: string;
  readonly project_id: string;
  readonly category_id: string;
  readonly image: { readonly reference: string };
  readonly principal: string;
}

/** Why `value` is outside the field's safe set (naming the first offending character), or null. */
export function describeUnsafeSealText(field: SealTextField, value: string): string | null {
  const rule = SEAL_TEXT_RULES[field];
  if (rule.pattern.test(value)) return null;
  const offending = [...value].find((char) => !rule.pattern.test(`a${char}`));
  const shown =
    offending === undefined
      ? "its length or first character"
      : `U+${(offending.codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, "0")}`;
  return `field ${field}: ${shown} is outside the seal's safe set (${rule.allowed})`;
}

/** Every field of `fields` outside its safe set, one message each. */
export function findUnsafeSealText(fields: SealTextFields): string[] {
  const values: [SealTextField, string][] = [
    ["run_id", fields.run_id],
    ["project_id", fields.project_id],
    ["category_id", fields.category_id],
    ["image.reference", fields.image.reference],
    ["principal", fields.principal],
  ];
  return values.flatMap(([field, value]) => describeUnsafeSealText(field, value) ?? []);
}

/** Throws `SEAL_TEXT_UNSAFE` naming every field outside its safe set (the signer's last fence). */
export function assertSealText(fields: SealTextFields): void {
  const problems = findUnsafeSealText(fields);
  if (problems.length > 0) throw new CoreError("SEAL_TEXT_UNSAFE", problems.join("; "));
}
