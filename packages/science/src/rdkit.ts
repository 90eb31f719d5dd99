import { createRequire } from "node:module";
import type { Log, MainModule, Mol as RDKitMol } from "@rdkit/rdkit";

export type RDKit = MainModule;
export type Mol = RDKitMol;

let loading: Promise<RDKit> | null = null;

/**
 * The RDKit WebAssembly module, initialised once per process (~0.2 s) and reused.
 * RDKit's own logging is switched off: parse failures are reported per row in the results instead.
 */
export function loadRDKit(): Promise<RDKit> {
  if (loading === null) {
    const require = createRequire(import.meta.url);
    const init = require("@rdkit/rdkit") as (options?: unknown) => Promise<RDKit>;
    loading = init().then((rdkit) => {
      rdkit.disable_logging();
      return rdkit;
    });
  }
  return loading;
}

/** A parsed molecule, or RDKit's own reason for refusing the input. */
export type ParseOutcome = { readonly mol: Mol } | { readonly error: string };

const errorLogs = new WeakMap<RDKit, Log | null>();

/**
 * Parses a SMILES; when RDKit refuses it, returns RDKit's own reason (its error log lines,
 * timestamps removed, repeats dropped) so the chemist sees "unclosed ring" or the offending
 * valence rather than one generic message (issue 10 item 3). The caller deletes the molecule.
 */
export function parseSmiles(rdkit: RDKit, smiles: string): ParseOutcome {
  let log = errorLogs.get(rdkit);
  if (log === undefined) {
    // Capturing keeps the log out of stderr and lets us read it back per molecule.
    log = rdkit.set_log_capture("rdApp.error");
    errorLogs.set(rdkit, log);
  }
  log?.clear_buffer();
  const mol = rdkit.get_mol(smiles);
  if (mol?.is_valid()) return { mol };
  mol?.delete();
  const lines = (log?.get_buffer() ?? "")
    .split("\n")
    .map((line) => line.replace(/^\[\d\d:\d\d:\d\d\]\s*/, "").trim())
    .filter((line) => line !== "");
  log?.clear_buffer();
  const reason = [...new Set(lines)].join("; ");
  return { error: reason === "" ? "RDKit could not parse or sanitize the SMILES" : `RDKit: ${reason}` };
}
