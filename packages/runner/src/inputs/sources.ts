import {
  DEFAULT_PROFILE,
  isTargetProductProfile,
  TARGET_PRODUCT_PROFILES,
  type TargetProductProfile,
} from "@svc/science/decision";
import { RunnerError } from "../runner-error.ts";
import { parseStructureEntry, type StructureEntry } from "./structure-entry.ts";

/** The parsed `01_sources/sources.json` (domain notes, "Input contract of the audit job"). */
export interface Sources {
  readonly portfolio_selected_csv: string;
  readonly primary_candidate_id: string | null;
  readonly assays_csv: string | null;
  readonly compounds_csv: string | null;
  readonly targets_csv: string | null;
  /** Receptor structures (PDB or mmCIF), each with its optional pocket and target (structure-entry.ts). */
  readonly pdbs: readonly StructureEntry[];
  /** Trajectory files (MD) staged with the project: routing evidence for MD-enabled analysis. */
  readonly trajectories: readonly string[];
  /** The customer states MD analysis is intended (routing; spec §1 item 6: not the run mode). */
  readonly md_intent: boolean;
  /** The customer asks for the physics audit (routing; eligibility also needs a structure). */
  readonly physics_audit_requested: boolean;
  /**
   * The target product profile the compounds are ordered against (issue 36 item 2); `oral_peripheral`
   * when sources.json names none.
   */
  readonly profile: TargetProductProfile;
  /** Context carried forward verbatim into the summary. */
  readonly context: Readonly<Record<string, unknown>>;
}

const FILE_KEYS = ["assays_csv", "compounds_csv", "targets_csv"] as const;
const LIST_KEYS = ["pdbs", "trajectories"] as const;

const BOOL_KEYS = ["md_intent", "physics_audit_requested"] as const;
const CONTEXT_KEYS = ["indication", "context_of_use", "evidence_positive", "evidence_negative"] as const;

/**
 * Validates sources.json text. Every problem is reported together, each naming the field.
 * Unknown keys are refused so a typo (`portfolio_csv`) is not silently ignored.
 */
export function parseSources(text: string): Sources {
  const file = "01_sources/sources.json";
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (error) {
    throw new RunnerError("SOURCES_INVALID", `${file}: malformed JSON (${(error as Error).message})`, {
      cause: error,
    });
  }
  if (typeof raw !== "object" || raw === null || Array.isArray(raw)) {
    throw new RunnerError("SOURCES_INVALID", `${file}: must be a JSON object`);
  }
  const obj = raw as Record<string, unknown>;
  const problems: string[] = [];
  const known = new Set<string>([
    "portfolio_selected_csv",
    "primary_candidate_id",
    ...FILE_KEYS,
    ...LIST_KEYS,
    ...BOOL_KEYS,
    ...CONTEXT_KEYS,
    "profile",
  ]);
  for (const key of Object.keys(obj)) if (!known.has(key)) problems.push(`field ${key}: unknown key`);
  const str = (key: string, required: boolean): string | null => {
    const value = obj[key];
    if (value === undefined || value === null) {
      if (required) problems.push(`field ${key}: required (a file name inside 01_sources/)`);
      return null;
    }
    if (typeof value !== "string" || value.trim() === "") {
      problems.push(`field ${key}: must be a non-empty string`);
      return null;
    }
    return value;
  };
  const list = (key: string): string[] => {
    const value = obj[key];
    if (value === undefined || value === null) return [];
    if (!Array.isArray(value) || value.some((item) => typeof item !== "string" || item === "")) {
      problems.push(`field ${key}: must be a list of file names`);
      return [];
    }
    return value as string[];
  };
  const bool = (key: string): boolean => {
    const value = obj[key];
    if (value === undefined || value === null) return false;
    if (typeof value !== "boolean") {
      problems.push(`field ${key}: must be true or false`);
      return false;
    }
    return value;
  };
  const profile = obj.profile ?? DEFAULT_PROFILE;
  const profileProblem = isTargetProductProfile(profile)
    ? null
    : `field profile: must be one of ${TARGET_PRODUCT_PROFILES.join(", ")} (got ${JSON.stringify(profile)})`;
  const sources: Sources = {
    portfolio_selected_csv: str("portfolio_selected_csv", true) ?? "",
    primary_candidate_id: str("primary_candidate_id", false),
    assays_csv: str("assays_csv", false),
    compounds_csv: str("compounds_csv", false),
    targets_csv: str("targets_csv", false),
    pdbs: structures(obj.pdbs, problems),
    trajectories: list("trajectories"),
    md_intent: bool("md_intent"),
    physics_audit_requested: bool("physics_audit_requested"),
    profile: isTargetProductProfile(profile) ? profile : DEFAULT_PROFILE,
    context: Object.fromEntries(
      CONTEXT_KEYS.filter((key) => obj[key] !== undefined).map((key) => [key, obj[key]]),
    ),
  };
  // A bad profile alone has its own code, so a caller (svc project check, a CI script) can tell it apart.
  if (problems.length === 0 && profileProblem !== null)
    throw new RunnerError("PROFILE_INVALID", `${file}: ${profileProblem}`);
  if (profileProblem !== null) problems.push(profileProblem);
  if (problems.length > 0) throw new RunnerError("SOURCES_INVALID", `${file}: ${problems.join("; ")}`);
  return sources;
}

/** `pdbs`: a list of file names or `{ file, ligand?, box?, target? }` objects, mixed freely. */
function structures(value: unknown, problems: string[]): StructureEntry[] {
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value)) {
    problems.push("field pdbs: must be a list of file names or { file, ligand, box, target } objects");
    return [];
  }
  const entries: StructureEntry[] = [];
  value.forEach((item, at) => {
    const entry = parseStructureEntry(item, `pdbs[${at}]`, problems);
    if (entry !== null) entries.push(entry);
  });
  return entries;
}
