import { compoundOnBits } from "../fingerprint/parent-fingerprint.ts";
import { type OutOfDomain, similarityDomainReason } from "../fingerprint/similarity-domain.ts";
import { CLASS_DOMAIN_RULE, classDomainReason } from "../parent/class-domain.ts";
import { withParentMol } from "../parent/with-parent-mol.ts";
import type { PreparedCompound } from "../prepare-compound.ts";
import { tdcDescriptorRow } from "./tdc-features.ts";
import {
  classifyTdc,
  regressTdc,
  type TdcClassification,
  type TdcRegression,
  tdcModel,
} from "./tdc-model.ts";

/**
 * The TDC models' inputs for a prepared compound: the parent's Morgan bits (shared with the other
 * fingerprint modules) and its RDKit descriptor row (the shared parent's memoized descriptors), so
 * a query is featurised as the training rows were (tdc-features.ts runs the same preparation).
 */
export function tdcInputs(compound: PreparedCompound & { ok: true }): { bits: number[]; raw: number[] } {
  return { bits: compoundOnBits(compound), raw: withParentMol(compound, (mol) => tdcDescriptorRow(mol)) };
}

/**
 * Outside the organic classes, or outside the model's own similarity domain (issue 24 item 1), no
 * model output is a finding: the estimate is kept, marked, for audit only.
 */
export type Gated<T> = T | OutOfDomain<T>;

function gate<T extends TdcClassification | TdcRegression>(
  key: string,
  compound: PreparedCompound & { ok: true },
  output: T,
): Gated<T> {
  const outOfClass = classDomainReason(compound);
  const reason =
    outOfClass ??
    (output.in_domain
      ? null
      : similarityDomainReason(output.nearest_tanimoto, tdcModel(key).file.domain, true));
  if (reason === null) return output;
  return {
    status: "out_of_domain",
    in_domain: false,
    domain_rule: outOfClass === null ? output.domain_rule : CLASS_DOMAIN_RULE,
    domain_reason: reason,
    raw_out_of_domain: output,
  };
}

export function classifyCompound(
  key: string,
  compound: PreparedCompound & { ok: true },
  inputs: { bits: number[]; raw: number[] },
): Gated<TdcClassification> {
  return gate(key, compound, classifyTdc(key, inputs.bits, inputs.raw));
}

export function regressCompound(
  key: string,
  compound: PreparedCompound & { ok: true },
  inputs: { bits: number[]; raw: number[] },
): Gated<TdcRegression> {
  return gate(key, compound, regressTdc(key, inputs.bits, inputs.raw));
}
