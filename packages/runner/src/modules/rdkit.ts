import { createRequire } from "node:module";
import type { MainModule } from "@rdkit/rdkit";

export type RDKit = MainModule;

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
