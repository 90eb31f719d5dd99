import type { InputKind, MethodCard, ParsedStructure, RiskChannel } from "@svc/science";
import type { StagedStructure } from "../inputs/structure-inputs.ts";
import type { PortableCompound } from "../pool/portable-compound.ts";

/** What a structure module is given for one staged structure. */
export interface StructureContext {
  readonly staged: StagedStructure;
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
  /** The run's workers (one per core by default): a module running a multi-threaded program sizes it by this. */
  readonly workers?: number;
}

/**
 * A module of the policy that works on the staged receptor structures (issue 25): run by the
 * structure stage once per structure (`assessStructure`) and, when it has `assessCompound`, once per
 * structure and parsed compound in portfolio order (docking plugs in there). Its results go to
 * `results/<id>.json` with its method card; an exception marks the module `failed` in the plan, a
 * structure or compound it cannot judge is reported `not_assessed` in its result with the reason.
 */
export interface StructureModule<S = unknown, C = unknown> {
  readonly id: string;
  readonly version: string;
  readonly method: MethodCard;
  readonly riskChannel: RiskChannel;
  readonly requiredInputs: readonly InputKind[];
  /** True when it runs external programs (vina, obabel, …): their versions then go into the repro pack. */
  readonly callsTools?: boolean;
  assessStructure(context: StructureContext): Promise<S>;
  assessCompound?(context: StructureContext, structureResult: S, compound: PortableCompound): Promise<C>;
  /**
   * Several compounds at once, in portfolio order, one result each in the same order (a docking
   * module docks them in one `vina --batch`, the receptor's maps computed once). The structure stage
   * calls it instead of `assessCompound` when present, with up to `compoundChunk` compounds, and runs
   * as many calls at once as the run has workers; the calls are made in portfolio order.
   */
  assessCompounds?(
    context: StructureContext,
    structureResult: S,
    compounds: readonly PortableCompound[],
  ): Promise<C[]>;
  /** Compounds per `assessCompounds` call (default 1). */
  readonly compoundChunk?: number;
}
