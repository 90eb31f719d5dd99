import { issuedEntryOf, type LogEntry } from "@svc/core";
import type { SealBundleRecord } from "../domain/ledger-types.ts";

/**
 * The `revoked` leaf of a stored seal (issue 30 item 1): the seal's identity and payload hash as
 * its `issued` leaf has them, with the revocation instant. Reads the bundle the store keeps.
 */
export function revokedEntryOf(bundleJson: string, revokedAt: string): LogEntry {
  const seal = JSON.parse(bundleJson) as SealBundleRecord;
  const issued = issuedEntryOf(seal.seal_json, seal.payload as Parameters<typeof issuedEntryOf>[1]);
  return { ...issued, event: "revoked", time: revokedAt };
}
