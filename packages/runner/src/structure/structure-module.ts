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
  /** Compounds docked per structure (the runner setting `dockingMaxCompounds`). */
  readonly dockingMaxCompounds: number;
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
}
