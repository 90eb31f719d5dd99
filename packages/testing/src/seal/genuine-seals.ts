import { generateSigningKey, issueSealBundle, type SealBundle, type SigningKey, sha256Hex } from "@svc/core";

/** Pretty-prints a seal as an editor would: one element per line, indented, CRLF line ends. */
export function prettyPrintSeal(svg: string): string {
  let depth = 0;
  return svg
    .replace(/></g, ">\n<")
    .split("\n")
    .map((line) => {
      if (line.startsWith("</")) depth = Math.max(0, depth - 1);
      const indented = `${"  ".repeat(depth)}${line}`;
      if (/^<[^/?!][^>]*[^/]>$/.test(line) && !line.includes("</")) depth++;
      return indented;
    })
    .join("\r\n");
}

/**
 * The fields of a corpus seal naming `issuer`, with a fresh seal id drawn from `tag` (the genuine
 * seal and the issuer-trust forgeries share them, so they differ only where an attack says).
 */
export function corpusSealFields(issuer: string, tag: string) {
  return {
    seal_id: `seal_${sha256Hex(`${tag} ${Date.now()} ${Math.random()}`).slice(0, 32)}`,
    principal: "auditor@customer.example",
    run_id: "run_20261123T101500Z",
    project_id: "demo-project",
    mode: "standard" as const,
    module_id: "computational",
    category_id: "SMALL_MOLECULE__LIGAND_ONLY__NO_STRUCTURE__NO_ASSAYS",
    image: { reference: "registry.example/svc/runner:1.0.0", digest: null },
    inputs_sha256: sha256Hex("inputs"),
    run_manifest_sha256: sha256Hex("manifest"),
    outputs_sha256: sha256Hex("outputs"),
    issued_at: "2026-11-23T10:20:00Z",
    issuer,
    verify_url: null,
  };
}

/**
 * A freshly issued genuine seal and the attacker's own seal (another key, a verify_url of their
 * choosing), the two inputs of the forgery corpus.
 */
export function issueCorpusSeals(key: SigningKey = generateSigningKey()): {
  genuine: SealBundle;
  decoy: SealBundle;
  key: SigningKey;
} {
  const fields = corpusSealFields("https://entitlement.example", "genuine");
  const genuine = issueSealBundle(fields, key);
  const decoy = issueSealBundle(
    {
      ...fields,
      seal_id: `seal_${sha256Hex(`decoy ${fields.seal_id}`).slice(0, 32)}`,
      project_id: "acme-rx",
      mode: "deep",
      verify_url: "https://attacker.example/verify",
    },
    generateSigningKey(),
  );
  return { genuine, decoy, key };
}
