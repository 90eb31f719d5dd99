import { parentPort } from "node:worker_threads";
import {
  type AnalysisModule,
  type CompoundFinding,
  IMPLEMENTED_MODULES,
  loadRDKit,
  prepareCompound,
  type UpstreamFindings,
} from "@svc/science";
import type { PortfolioRow } from "../inputs/portfolio.ts";
import { readCompoundView } from "../outputs/report/compound-view.ts";
import { createDepicter, reportDepiction } from "../outputs/report/highlight-depiction.ts";
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
      /** Draw the report's depiction here (every planned module is split, so its inputs are all here). */
      readonly depict: boolean;
    };

/** One module's assessment of one compound, or the message of the error it threw. */
export type Assessment =
  | { readonly ok: true; readonly value: unknown }
  | { readonly ok: false; readonly error: string };

/** What the worker made of one compound for the analysis stage. */
export interface CompoundAnalysis {
  /** module id → its `assess` result, in the order asked. */
  readonly assessments: Readonly<Record<string, Assessment>>;
  /** The report's depiction ({@link reportDepiction}); undefined when not asked for. */
  readonly depiction?: string | null;
}

/** Worker → main thread. */
export type WorkerMessage =
  | { readonly kind: "ready"; readonly rdkitVersion: string }
  | { readonly kind: "prepared"; readonly id: number; readonly compound: PortableCompound }
  | { readonly kind: "analysed"; readonly id: number; readonly analysis: CompoundAnalysis }
  | { readonly kind: "fault"; readonly id: number; readonly message: string };

// One RDKit WebAssembly instance per worker thread. A wasm trap ("memory access out of bounds")
// can leave RDKit's heap corrupt, so after any fault this worker reports it and exits; the pool
// starts a fresh one (issue 10 item 2).
const port = parentPort;
if (port === null) throw new Error("compound-worker.ts runs only as a worker thread");
const rdkit = await loadRDKit();
const depicter = createDepicter(rdkit);
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
analyse(toPortable(warm), [...modulesById.keys()], true);

port.on("message", (request: WorkerRequest) => {
  let message: WorkerMessage;
  try {
    message =
      request.kind === "prepare"
        ? { kind: "prepared", id: request.id, compound: toPortable(prepareRow(request.row)) }
        : {
            kind: "analysed",
            id: request.id,
            analysis: analyse(request.compound, request.modules, request.depict),
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

/**
 * Every asked module's `assess` on one compound with this worker's RDKit, all modules on this
 * compound before the next (the science package's last-parent caches rely on it). A module that
 * throws an ordinary error fails alone, as on the main thread; a wasm trap (RuntimeError) leaves
 * RDKit unusable, so it is rethrown: the compound becomes unassessed and the worker is replaced.
 */
function analyse(
  portable: PortableCompound,
  moduleIds: readonly string[],
  depict: boolean,
): CompoundAnalysis {
  const compound = withRDKit(portable, rdkit);
  const assessments: Record<string, Assessment> = {};
  const findings = new Map<string, CompoundFinding>();
  for (const id of moduleIds) {
    const module = modulesById.get(id);
    if (module?.assess === undefined) {
      assessments[id] = { ok: false, error: `module ${id} cannot be assessed in a worker` };
      continue;
    }
    let value: unknown;
    try {
      value = module.assess(compound);
      assessments[id] = { ok: true, value };
    } catch (error) {
      // WebAssembly.RuntimeError (a trap) is named so; ordinary module errors are not.
      if ((error as Error).name === "RuntimeError") throw error;
      assessments[id] = { ok: false, error: (error as Error).message };
      continue;
    }
    // The compound's finding without run state, for the depiction (a fresh analyzer: no state
    // kept), with the findings made so far as upstream for modules that read others. A module the
    // depiction cannot read is left out of the picture; its assessment above stands.
    if (depict) {
      try {
        const finding = module.createAnalyzer().merge?.(value as never, findings as UpstreamFindings);
        if (finding !== undefined) findings.set(id, finding);
      } catch {
        // left out of the depiction only
      }
    }
  }
  if (!depict) return { assessments };
  return {
    assessments,
    depiction: reportDepiction(readCompoundView(portable, findings, new Map()), depicter),
  };
}
