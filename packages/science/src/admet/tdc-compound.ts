import { compoundOnBits } from "../fingerprint/parent-fingerprint.ts";
import { classDomainReason } from "../parent/class-domain.ts";
import { withParentMol } from "../parent/with-parent-mol.ts";
import type { PreparedCompound } from "../prepare-compound.ts";
import { tdcDescriptorRow } from "./tdc-features.ts";
import { classifyTdc, regressTdc, type TdcClassification, type TdcRegression } from "./tdc-model.ts";

/**
 * The TDC models' inputs for a prepared compound: the parent's Morgan bits (shared with the other
 * fingerprint modules) and its RDKit descriptor row (the shared parent's memoized descriptors), so
 * a query is featurised as the training rows were (tdc-features.ts runs the same preparation).
 */
export function tdcInputs(compound: PreparedCompound & { ok: true }): { bits: number[]; raw: number[] } {
  return { bits: compoundOnBits(compound), raw: withParentMol(compound, (mol) => tdcDescriptorRow(mol)) };
}

/** Outside the organic classes no model output is a finding: the estimate is kept, marked, for audit. */
export type Gated<T> =
  | T
  | { readonly in_domain: false; readonly domain_reason: string; readonly raw_out_of_domain: T };

function gate<T>(compound: PreparedCompound & { ok: true }, output: T): Gated<T> {
  const reason = classDomainReason(compound);
  return reason === null ? output : { in_domain: false, domain_reason: reason, raw_out_of_domain: output };
}

export function classifyCompound(
  key: string,
  compound: PreparedCompound & { ok: true },
  inputs: { bits: number[]; raw: number[] },
): Gated<TdcClassification> {
  return gate(compound, classifyTdc(key, inputs.bits, inputs.raw));
}

export function regressCompound(
  key: string,
  compound: PreparedCompound & { ok: true },
  inputs: { bits: number[]; raw: number[] },
): Gated<TdcRegression> {
  return gate(compound, regressTdc(key, inputs.bits, inputs.raw));
}
