import {
  buildProvenanceStatement,
  type ProvenanceFacts,
  parseSealPayload,
  provenanceDisagreement,
  type SealBundleResponse,
  type SigningKey,
  signProvenanceFile,
  toInstant,
} from "@svc/core";
import type { RunRecord } from "../domain/ledger-types.ts";
import { EntitlementError } from "../errors/entitlement-error.ts";

/**
 * The run's signed SLSA provenance (issue 30 item 6; docs/seal-provenance.md): the exact bytes of
 * `seal/provenance.intoto.jsonl`, built from the signed seal payload (project, mode, category,
 * inputs, image, run, seal, issue time), the issuer's own run_start time and the job's policy and
 * module versions, and signed with the key that signed the seal (keyid = its `key_id`).
 *
 * Undefined when the seal was signed by a key this replica no longer holds (a replayed
 * run_complete after a key rotation): the statement is never signed by another key than the
 * seal's. Refuses (PROVENANCE_MISMATCH) facts whose lists are not what the seal binds.
 */
export function signRunProvenance(
  seal: SealBundleResponse,
  facts: ProvenanceFacts,
  key: SigningKey,
  run: RunRecord | null,
): string | undefined {
  const payload = parseSealPayload(JSON.parse(seal.seal_json));
  if (payload.key_id !== key.keyId || run?.started_at == null) return undefined;
  const disagreement = provenanceDisagreement(payload, facts);
  if (disagreement !== null) throw new EntitlementError("PROVENANCE_MISMATCH", disagreement);
  const startedOn = toInstant(new Date(run.started_at));
  return signProvenanceFile(buildProvenanceStatement(payload, facts, startedOn), key);
}
