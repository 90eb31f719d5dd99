import { parentPort } from "node:worker_threads";
import { loadRDKit, prepareCompound } from "@svc/science";
import type { PortfolioRow } from "../inputs/portfolio.ts";
import { type PortableCompound, toPortable } from "./portable-compound.ts";

/** Main thread → worker: prepare one row. */
export interface PrepareRequest {
  readonly id: number;
  readonly row: PortfolioRow;
}

/** Worker → main thread. */
export type WorkerMessage =
  | { readonly kind: "ready"; readonly rdkitVersion: string }
  | { readonly kind: "prepared"; readonly id: number; readonly compound: PortableCompound }
  | { readonly kind: "fault"; readonly id: number; readonly message: string };

// One RDKit WebAssembly instance per worker thread. A wasm trap ("memory access out of bounds")
// can leave RDKit's heap corrupt, so after any fault this worker reports it and exits; the pool
// starts a fresh one (issue 10 item 2).
const port = parentPort;
if (port === null) throw new Error("compound-worker.ts runs only as a worker thread");
const rdkit = await loadRDKit();
// Warm-up before reporting ready: the first InChI, depiction and descriptor calls compile and
// initialise code paths that can take seconds on a loaded machine, and must not be charged to
// the first real molecule's time budget.
prepareCompound(rdkit, {
  index: 0,
  line: 0,
  candidateId: "warm-up",
  name: null,
  smiles: "CC(=O)Oc1ccccc1C(=O)[O-].[Na+]",
  metadata: {},
});
port.on("message", (request: PrepareRequest) => {
  let message: WorkerMessage;
  try {
    message = { kind: "prepared", id: request.id, compound: toPortable(prepareRow(request.row)) };
  } catch (error) {
    port.postMessage({
      kind: "fault",
      id: request.id,
      message: `${(error as Error).name}: ${(error as Error).message}`,
    } satisfies WorkerMessage);
    process.exit(70);
  }
  port.postMessage(message);
});
port.postMessage({ kind: "ready", rdkitVersion: rdkit.version() } satisfies WorkerMessage);

// An SD record arrives as a molblock: RDKit's molblock reader gives the SMILES (stereo from the
// wedges and parities included) that the usual preparation then works on.
function prepareRow(row: PortfolioRow): ReturnType<typeof prepareCompound> {
  if (row.molblock === undefined) return prepareCompound(rdkit, row);
  const { molblock, ...rest } = row;
  const mol = rdkit.get_mol(molblock);
  if (mol === null) return { row: rest, ok: false, error: "molblock does not parse or sanitize (RDKit)" };
  let smiles: string;
  try {
    smiles = mol.is_valid() ? mol.get_smiles() : "";
  } finally {
    mol.delete();
  }
  if (smiles === "") return { row: rest, ok: false, error: "molblock has no atoms RDKit can read" };
  return prepareCompound(rdkit, { ...rest, smiles });
}
