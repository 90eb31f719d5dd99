import { type CompoundFinding, findingBase, type MethodCard } from "../analysis-module.ts";
import { defineModule, type ParsedCompound } from "../define-module.ts";
import { withParentMol } from "../parent/with-parent-mol.ts";
import { type ManufacturabilityProfile, manufacturabilityProfile } from "./manufacturability-profile.ts";

type Nullable<T> = { readonly [K in keyof T]: T[K] | null };

export interface ManufacturabilityFinding extends CompoundFinding, Nullable<ManufacturabilityProfile> {
  readonly status: "assessed" | "not_assessed";
  readonly reason: string | null;
}

export interface ManufacturabilitySummary {
  readonly assessed: number;
  readonly not_assessed: number;
  readonly with_unspecified_stereo: number;
  readonly with_macrocycle: number;
  readonly with_metal: number;
  readonly with_reactive_motif: number;
  readonly method: MethodCard;
}

const ID = "manufacturability_audit";

const METHOD: MethodCard = {
  what:
    "Complexity and risk flags of the parent for a process chemist: atom stereocentres and how many are " +
    "unspecified, ring systems (rings sharing an atom merged), macrocyclic ring systems (a ring of 12 or more " +
    "atoms), spiro and bridgehead atoms, metals, and NIBR filters marked covalent (reactive motifs), each " +
    "flag written as a sentence. Counts, not a cost or yield prediction.",
  citations: [
    "RDKit 2026.09 descriptors (NumAtomStereoCenters, NumUnspecifiedAtomStereoCenters, NumSpiroAtoms, NumBridgeheadAtoms)",
    "Marsault & Peterson, J. Med. Chem. 2011, 54, 1961 (macrocycles: rings of 12 or more atoms)",
    "Schuffenhauer et al., J. Med. Chem. 2020, 63, 14425 (NIBR filters, COVALENT column)",
    "IUPAC periodic-table classes (metals; metalloids B, Si, Ge, As, Sb, Te excluded)",
  ],
  data: ["nibr-substructure-filters.csv"],
  validation:
    "Every count equal to native RDKit 2022.09 (descriptors, SSSR ring systems, MinAtomRingSize, metals) on " +
    "4,987/4,989 NCI first_5K molecules; the two differences (NCI-3384, NCI-3405) are stereocentre counts where " +
    "the RDKit versions perceive stereo differently. Test: manufacturability/manufacturability-profile.validation.test.ts.",
  limits:
    "No route, step count or cost (the SA score is synthesis_audit's). Stereo " +
    "bonds (E/Z) are not counted. Reactive motifs are the NIBR covalent set only.",
};

const EMPTY = {
  stereocentres: null,
  unspecified_stereocentres: null,
  ring_systems: null,
  macrocycles: null,
  spiro_atoms: null,
  bridgehead_atoms: null,
  metals: null,
  flags: null,
} as const;

/** Stereo, ring-topology, metal and reactive-motif flags of each parsed compound's parent. */
export const manufacturabilityAudit = defineModule<
  ManufacturabilityFinding,
  ManufacturabilityFinding,
  ManufacturabilitySummary
>({
  id: ID,
  version: "1.0.0",
  description: "Stereocentres, ring systems, macrocycles, spiro/bridgehead atoms, metals and reactive motifs",
  method: METHOD,
  requiredInputs: ["portfolio"],
  riskChannel: "manufacturability",
  notAssessed: (base) => ({ ...base, ...EMPTY }),
  assess: assessManufacturability,
  createRun() {
    const with_ = { unspecified: 0, macrocycle: 0, metal: 0, reactive: 0 };
    return {
      merge(finding) {
        if ((finding.unspecified_stereocentres ?? 0) > 0) with_.unspecified++;
        if ((finding.macrocycles ?? 0) > 0) with_.macrocycle++;
        if ((finding.metals ?? []).length > 0) with_.metal++;
        if ((finding.flags ?? []).some((flag) => flag.startsWith("reactive motif"))) with_.reactive++;
        return finding;
      },
      finish(counts): ManufacturabilitySummary {
        return {
          ...counts,
          with_unspecified_stereo: with_.unspecified,
          with_macrocycle: with_.macrocycle,
          with_metal: with_.metal,
          with_reactive_motif: with_.reactive,
          method: METHOD,
        };
      },
    };
  },
});

/** The per-compound part (no run state), for a worker thread. */
function assessManufacturability(compound: ParsedCompound): ManufacturabilityFinding {
  const base = findingBase(ID, compound);
  const profile = withParentMol(compound, (mol, rdkit) => manufacturabilityProfile(rdkit, mol));
  return { ...base, status: "assessed", reason: null, ...profile };
}
