import type { InputKind, MethodCard, RiskChannel } from "./analysis-module.ts";
import type { CompoundRow } from "./compound-row.ts";
import type { ParsedChemistry } from "./prepare-compound.ts";
import { ScienceError } from "./science-error.ts";
import type { NmaPocket } from "./structure/dynamics-nma.ts";
import type { ParsedStructure } from "./structure/structure-atom.ts";

/**
 * A staged receptor structure as a structure module sees it: the runner stages and checks it
 * (sources.json `pdbs`, spec §2.1); a module needs only where it is, its pocket and how the pocket
 * was named.
 */
export interface ModuleStructure {
  /** Position in `pdbs`: the structure's key in results/<module>.json and in its pose folder. */
  readonly index: number;
  readonly path: string;
  readonly format: "pdb" | "mmcif";
  readonly pocket: NmaPocket | null;
  /** The staged entry's reference ligand (`RES:CHAIN:NUM` in the file, or an SD file beside it), if any. */
  readonly entry: { readonly ligand: string | null };
}

/**
 * A compound as a structure module sees it: its portfolio row, and its parent's SMILES when RDKit
 * parsed it. Plain data (no RDKit handle): the runner's portable compound is one, so compounds come
 * straight from the validated rows on disk.
 */
export type StructureCompound =
  | {
      readonly ok: true;
      readonly row: CompoundRow;
      readonly chem: Pick<ParsedChemistry, "parent_smiles">;
    }
  | { readonly ok: false; readonly row: CompoundRow; readonly error: string };

/** What a structure module is given for one staged structure. */
export interface StructureContext {
  readonly staged: ModuleStructure;
  /** The structure file as parsed (first model). */
  readonly parsed: ParsedStructure;
  /** The run mode: a module may do more in `deep` (spec §2.1), and must say so in its result. */
  readonly mode: string;
  /** The run folder: a module writes files people read under `results/` only. */
  readonly runDir: string;
  /** Scratch space of this module and structure, removed before the run is hashed. */
  readonly workDir: string;
  /**
   * Compounds docked per structure by this pod (the runner setting `dockingMaxCompounds`): a sharded
   * run's pods each dock their own slice of the portfolio, so it is a budget per shard.
   */
  readonly dockingMaxCompounds: number;
}

/**
 * How a module assesses compounds against a structure's set-up: one at a time in portfolio order
 * (a module that reads what earlier modules wrote for the structure), or `pooled` — chunks of up to
 * `chunk` compounds in portfolio order, as many chunks at once as the run has workers, split by
 * compound across a sharded run's pods (docking: one `vina --batch` per chunk, the receptor's maps
 * computed once; issue 39 items 2, 3).
 */
export type CompoundAssessment<S, C> =
  | {
      readonly pooled: false;
      assess(context: StructureContext, setUp: S, compound: StructureCompound): Promise<C>;
    }
  | {
      readonly pooled: true;
      readonly chunk: number;
      /** One record per compound, in the order given. */
      assess(context: StructureContext, setUp: S, compounds: readonly StructureCompound[]): Promise<C[]>;
    };

/** What a structure module file declares; {@link defineStructureModule} makes it runnable. */
export interface StructureModuleDefinition<S, C> {
  readonly id: string;
  readonly version: string;
  readonly method: MethodCard | (() => MethodCard);
  readonly riskChannel: RiskChannel;
  readonly requiredInputs: readonly InputKind[];
  /** True when it runs external programs (vina, obabel, xtb, …): their versions then go into the repro pack. */
  readonly callsTools?: boolean;
  /**
   * Once per staged structure: the set-up its compounds are assessed against, written as the
   * structure's `result` in results/<id>.json. A structure it cannot judge is a `not_assessed`
   * set-up with the reason, never an exception (an exception fails the whole module).
   */
  assessStructure(context: StructureContext): Promise<S>;
  /** Absent: the module works per structure only. */
  readonly perCompound?: CompoundAssessment<S, C>;
}

/** One structure's run of a module: its set-up, and its compounds' records gathered in portfolio order. */
export interface StructureRun<S, C> {
  /** `assessStructure`'s set-up. */
  readonly result: S;
  /** Assesses compounds (a chunk in portfolio order; one at a time unless pooled), one record each in order. */
  assess(compounds: readonly StructureCompound[]): Promise<C[]>;
  /**
   * Puts a chunk's records at their portfolio positions (`first`: the position of the chunk's first
   * compound among those given to this run); chunks of a pool may come back in any order.
   */
  merge(first: number, records: readonly C[]): void;
  /** Every merged record in portfolio order; STRUCTURE_MODULE_MISUSED when a position was never merged. */
  finish(): C[];
}

/** A structure module as the runner's structure stage schedules it. */
export interface StructureModule<S = unknown, C = unknown> {
  readonly id: string;
  readonly version: string;
  readonly method: MethodCard;
  readonly riskChannel: RiskChannel;
  readonly requiredInputs: readonly InputKind[];
  readonly callsTools: boolean;
  /** How the stage gives it compounds: null when it works per structure only. */
  readonly compounds: { readonly pooled: boolean; readonly chunk: number } | null;
  assessStructure(context: StructureContext): Promise<StructureRun<S, C>>;
}

/**
 * A structure module (issue 25; issue 39 item 1) declared once, beside {@link defineModule}'s
 * ligand modules: the structure stage runs `assessStructure` once per staged structure and then, for
 * a module with `perCompound`, gives the run the portfolio's parsed compounds (a pooled module's
 * chunks possibly in parallel), merges the records into portfolio order and writes
 * `results/<id>.json` with the method card. The run holds the set-up, so the stage never sees its
 * type and the module list needs no casts.
 */
export function defineStructureModule<S, C>(
  definition: StructureModuleDefinition<S, C>,
): StructureModule<S, C> {
  const { id, method, perCompound } = definition;
  const misused = (problem: string) => new ScienceError("STRUCTURE_MODULE_MISUSED", `${id}: ${problem}`);
  return {
    id,
    version: definition.version,
    get method() {
      return typeof method === "function" ? method() : method;
    },
    riskChannel: definition.riskChannel,
    requiredInputs: definition.requiredInputs,
    callsTools: definition.callsTools ?? false,
    compounds:
      perCompound === undefined
        ? null
        : { pooled: perCompound.pooled, chunk: perCompound.pooled ? Math.max(1, perCompound.chunk) : 1 },
    async assessStructure(context) {
      const result = await definition.assessStructure(context);
      const records: (C | undefined)[] = [];
      const merged: boolean[] = [];
      return {
        result,
        async assess(compounds) {
          if (perCompound === undefined) throw misused("given compounds, but it works per structure only");
          if (perCompound.pooled) return perCompound.assess(context, result, compounds);
          const done: C[] = [];
          // In order, one at a time: such a module may read what it or earlier modules wrote.
          for (const compound of compounds) done.push(await perCompound.assess(context, result, compound));
          return done;
        },
        merge(first, chunk) {
          for (const [offset, record] of chunk.entries()) {
            records[first + offset] = record;
            merged[first + offset] = true;
          }
        },
        finish() {
          for (let at = 0; at < records.length; at++)
            if (merged[at] !== true) throw misused(`compound position ${at} was never merged`);
          return records as C[];
        },
      };
    },
  };
}
