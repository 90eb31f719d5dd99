import type { PreparedCompound, RDKit } from "@svc/science/modules";

/**
 * A prepared compound as it crosses a thread or a scratch file: plain data, without the RDKit
 * instance that `PreparedCompound` carries for the analyzers (a WebAssembly module cannot be
 * structured-cloned, and each thread owns its own instance).
 */
export type PortableCompound =
  | Omit<Extract<PreparedCompound, { ok: true }>, "rdkit">
  | Extract<PreparedCompound, { ok: false }>;

/** Drops the RDKit handle so the compound can be posted to another thread or serialized. */
export function toPortable(compound: PreparedCompound): PortableCompound {
  if (!compound.ok) return compound;
  const { rdkit: _rdkit, ...plain } = compound;
  return plain;
}

/** Gives a portable compound the RDKit instance of the thread that will analyse it. */
export function withRDKit(compound: PortableCompound, rdkit: RDKit): PreparedCompound {
  return compound.ok ? { ...compound, rdkit } : compound;
}
