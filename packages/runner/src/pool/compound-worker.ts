import { readFileSync } from "node:fs";
import { parentPort, workerData } from "node:worker_threads";
import { type AnalysisModule, IMPLEMENTED_MODULES, loadRDKit, prepareCompound } from "@svc/science/modules";
import { releaseParentMol } from "@svc/science/parent";
import type { PortfolioRow } from "../inputs/portfolio.ts";
import { type PortableCompound, toPortable, withRDKit } from "./portable-compound.ts";

/** Main thread → worker: prepare one row, or run the split modules' `assess` on one compound. */
export type WorkerRequest =
  | { readonly kind: "prepare"; readonly id: number; readonly row: PortfolioRow }
  | {
      readonly kind: "analyse";
      readonly id: number;
      readonly compound: PortableCompound;
      /** Ids of split modules (analysis-module.ts) to assess, in plan order. */
      readonly modules: readonly string[];
    };

/** One module's assessment of one compound, or the message of the error it threw. */
export type Assessment =
  | { readonly ok: true; readonly value: unknown }
  | { readonly ok: false; readonly error: string };

/** What the worker made of one compound for the analysis stage. */
export interface CompoundAnalysis {
  /** module id → its `assess` result, in the order asked. */
  readonly assessments: Readonly<Record<string, Assessment>>;
}

/** What a worker warms up before it reports ready (the pool's purpose). */
export type WarmUp = "prepare" | "analyse";

/** The pool → worker start-up data. */
export interface WorkerData {
  readonly warmUp: WarmUp;
}

/** Worker → main thread. */
export type WorkerMessage =
  | {
      readonly kind: "ready";
      readonly rdkitVersion: string;
      /** This thread's kernel id (the first field of /proc/thread-self/stat), for its CPU budget; null off Linux. */
      readonly tid: number | null;
    }
  | { readonly kind: "prepared"; readonly id: number; readonly compound: PortableCompound }
  | { readonly kind: "analysed"; readonly id: number; readonly analysis: CompoundAnalysis }
  | { readonly kind: "fault"; readonly id: number; readonly message: string };

// One RDKit WebAssembly instance per worker thread. A wasm trap ("memory access out of bounds")
// can leave RDKit's heap corrupt, so after any fault this worker reports it and exits; the pool
// starts a fresh one (issue 10 item 2).
const port = parentPort;
if (port === null) throw new Error("compound-worker.ts runs only as a worker thread");
const rdkit = await loadRDKit();
const modulesById = new Map<string, AnalysisModule>(IMPLEMENTED_MODULES.map((module) => [module.id, module]));

// Warm-up before reporting ready: the first InChI, depiction, descriptor and substructure calls
// compile and initialise code paths that can take seconds on a loaded machine, and must not be
// charged to the first real molecule's time budget.
const warm = prepareCompound(rdkit, {
  index: 0,
  line: 0,
  candidateId: "warm-up",
  name: null,
  smiles: "CC(=O)Oc1ccccc1C(=O)[O-].[Na+]",
  metadata: {},
});
// A validation pool only prepares: compiling the modules' catalogs there would be wasted CPU.
if ((workerData as WorkerData | null)?.warmUp !== "prepare")
  analyse(toPortable(warm), [...modulesById.keys()]);

port.on("message", (request: WorkerRequest) => {
  let message: WorkerMessage;
  try {
    message =
      request.kind === "prepare"
        ? { kind: "prepared", id: request.id, compound: toPortable(prepareRow(request.row)) }
        : {
            kind: "analysed",
            id: request.id,
            analysis: analyse(request.compound, request.modules),
          };
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
port.postMessage({
  kind: "ready",
  rdkitVersion: rdkit.version(),
  tid: ownThreadId(),
} satisfies WorkerMessage);

/** The calling thread's kernel thread id, from /proc/thread-self (proc(5)); null where there is none. */
function ownThreadId(): number | null {
  try {
    const tid = Number.parseInt(readFileSync("/proc/thread-self/stat", "utf8"), 10);
    return Number.isInteger(tid) && tid > 0 ? tid : null;
  } catch {
    return null;
  }
}

/** Written by `svc project init` (packages/cli, init-project.ts) beside an empty SMILES. */
const UNPARSEABLE_REASON_COLUMN = "unparseable_reason";

// An SD record arrives as a molblock: RDKit's molblock reader gives the SMILES (stereo from the
// wedges and parities included) that the usual preparation then works on.
function prepareRow(row: PortfolioRow): ReturnType<typeof prepareCompound> {
  if (row.molblock === undefined) {
    const prepared = prepareCompound(rdkit, row);
    // `svc project init` carries an SD record RDKit refused as an empty SMILES with RDKit's reason
    // in this column (issue 27 item 3): the unparseable row says why, not only "empty SMILES".
    const carried = row.metadata[UNPARSEABLE_REASON_COLUMN];
    if (!prepared.ok && row.smiles === "" && carried)
      return { ...prepared, error: `svc project init could not convert this record: ${carried}` };
    return prepared;
  }
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

/**
 * Every asked module's `assess` on one compound with this worker's RDKit, all modules on this
 * compound before the next (the science package's last-parent caches rely on it). A module that
 * throws an ordinary error fails alone, as on the main thread; a wasm trap (RuntimeError) leaves
 * RDKit unusable, so it is rethrown: the compound becomes unassessed and the worker is replaced.
 */
function analyse(portable: PortableCompound, moduleIds: readonly string[]): CompoundAnalysis {
  const compound = withRDKit(portable, rdkit);
  const assessments: Record<string, Assessment> = {};
  for (const id of moduleIds) assessments[id] = assess(id, compound);
  // The modules shared one parent Mol for this compound; it goes before the next compound. (After
  // a wasm trap this is not reached: the worker exits and its heap goes with it.)
  releaseParentMol();
  return { assessments };
}

/** One module's `assess`; an ordinary error fails this module alone, a wasm trap is rethrown. */
function assess(id: string, compound: ReturnType<typeof withRDKit>): Assessment {
  const module = modulesById.get(id);
  if (module === undefined) return { ok: false, error: `module ${id} is not implemented` };
  try {
    return { ok: true, value: module.assess(compound) };
  } catch (error) {
    // WebAssembly.RuntimeError (a trap) is named so; ordinary module errors are not.
    if ((error as Error).name === "RuntimeError") throw error;
    return { ok: false, error: (error as Error).message };
  }
}
