import type { CompoundFinding } from "../analysis-module.ts";
import { round } from "../numeric/round.ts";

/** What one signal reads, and how a value becomes a desirability in [0, 1] (1 = readier). */
export interface ReadinessSignal {
  readonly id: string;
  readonly label: string;
  /** The module whose per-compound finding carries the value. */
  readonly module: string;
  /** The key in that finding (dotted for nested keys). */
  readonly key: string;
  readonly weight: number;
  /** The desirability function in words, with the source of its numbers. */
  readonly transform: string;
  /** The value read from the finding, or null when absent; never a default. */
  read(finding: Readonly<Record<string, unknown>>): number | string | null;
  desirability(value: number | string): number;
}

function num(value: unknown): number | null {
  return typeof value === "number" && Number.isFinite(value) ? value : null;
}

/** Piecewise-linear desirability between two published thresholds (the MPO form of Wager et al. 2010). */
function ramp(value: number, zeroAt: number, oneAt: number): number {
  const t = (value - zeroAt) / (oneAt - zeroAt);
  return Math.min(1, Math.max(0, t));
}

/**
 * The signals, each with weight 1: the multiparameter-optimisation convention of equal weights
 * over desirabilities in [0, 1] (Wager, Hou, Verhoest & Villalobos, ACS Chem. Neurosci. 2010, 1,
 * 435, CNS MPO), so no property counts more than another without evidence that it should.
 */
export const READINESS_SIGNALS: readonly ReadinessSignal[] = [
  {
    id: "qed",
    label: "QED",
    module: "admet_predictions",
    key: "qed",
    weight: 1,
    transform: "QED itself, already a desirability in [0, 1] (Bickerton et al., Nat. Chem. 2012, 4, 90)",
    read: (f) => num(f.qed),
    desirability: (v) => Math.min(1, Math.max(0, Number(v))),
  },
  {
    id: "gi_absorption",
    label: "GI absorption (BOILED-Egg)",
    module: "admet_predictions",
    key: "boiled_egg.gi_absorption",
    weight: 1,
    transform:
      "1 when BOILED-Egg calls passive GI absorption high, else 0 (Daina & Zoete, ChemMedChem 2016, 11, 1117)",
    read: (f) => {
      const egg = f.boiled_egg as { gi_absorption?: unknown } | null | undefined;
      return typeof egg?.gi_absorption === "string" ? egg.gi_absorption : null;
    },
    desirability: (v) => (v === "high" ? 1 : 0),
  },
  {
    id: "bioavailability_score",
    label: "Abbott bioavailability score",
    module: "admet_predictions",
    key: "bioavailability_score",
    weight: 1,
    transform:
      "the score itself: the fraction of compounds of its class with F > 10% in rat (Martin, J. Med. Chem. 2005, 48, 3164)",
    read: (f) => num(f.bioavailability_score),
    desirability: (v) => Number(v),
  },
  {
    id: "solubility",
    label: "log S (solubility_assessment model)",
    module: "solubility_assessment",
    key: "log_s",
    weight: 1,
    transform:
      "0 at log S ≤ −6 (SwissADME's poorly/moderately boundary), 1 at log S ≥ −4 (its moderately/soluble " +
      "boundary), linear between (Daina, Michielin & Zoete, Sci. Rep. 2017, 7, 42717)",
    read: (f) => num(f.log_s),
    desirability: (v) => ramp(Number(v), -6, -4),
  },
  {
    id: "pains",
    label: "PAINS alerts",
    module: "toxicity_profile",
    key: "pains",
    weight: 1,
    transform: "1 with no PAINS match, 0 with any (Baell & Holloway, J. Med. Chem. 2010, 53, 2719)",
    read: (f) => (Array.isArray(f.pains) ? f.pains.length : null),
    desirability: (v) => (Number(v) === 0 ? 1 : 0),
  },
  {
    id: "nibr_exclude",
    label: "NIBR EXCLUDE filters",
    module: "toxicity_profile",
    key: "nibr[severity=EXCLUDE]",
    weight: 1,
    transform:
      "1 with no NIBR filter of severity EXCLUDE, 0 with any (Schuffenhauer et al., J. Med. Chem. 2020, 63, 14425)",
    read: (f) =>
      Array.isArray(f.nibr)
        ? f.nibr.filter((hit) => (hit as { severity?: unknown }).severity === "EXCLUDE").length
        : null,
    desirability: (v) => (Number(v) === 0 ? 1 : 0),
  },
  {
    id: "manufacturability_flags",
    label: "Manufacturability flags",
    module: "manufacturability_audit",
    key: "flags",
    weight: 1,
    transform:
      "1 with no flag (unspecified stereocentre, macrocycle, metal, reactive motif), 0 with any (manufacturability_audit: " +
      "Marsault & Peterson, J. Med. Chem. 2011, 54, 1961; Schuffenhauer et al. 2020)",
    read: (f) => (Array.isArray(f.flags) ? f.flags.length : null),
    desirability: (v) => (Number(v) === 0 ? 1 : 0),
  },
  {
    id: "sa_score",
    label: "Synthetic accessibility (SA score)",
    module: "synthesis_audit",
    key: "sa_score",
    weight: 1,
    transform:
      "(10 − SA) / 9: the SA scale's 1 (easy) to 10 (very hard) mapped onto 1 to 0 (Ertl & Schuffenhauer, J. Cheminform. 2009, 1, 8)",
    read: (f) => num(f.sa_score),
    desirability: (v) => ramp(Number(v), 10, 1),
  },
];

/**
 * One signal of one compound: present with its value and desirability, or missing with why. The
 * label and the desirability function of each id are in the module summary (`signals`), once.
 */
export type SignalReading =
  | {
      readonly id: string;
      readonly source: string;
      readonly status: "present";
      readonly value: number | string;
      readonly desirability: number;
      readonly weight: number;
    }
  | {
      readonly id: string;
      readonly source: string;
      readonly status: "missing";
      readonly reason: string;
      readonly weight: number;
    };

/** Reads every signal from the compound's upstream findings; an absent one is `missing`, with why. */
export function readSignals(upstream: ReadonlyMap<string, CompoundFinding>): SignalReading[] {
  return READINESS_SIGNALS.map((signal) => {
    const common = { id: signal.id, source: `${signal.module}.${signal.key}`, weight: signal.weight };
    const finding = upstream.get(signal.module) as Readonly<Record<string, unknown>> | undefined;
    if (finding === undefined)
      return { ...common, status: "missing", reason: `${signal.module} produced no finding (not run)` };
    // A value from a finding outside its model's domain is missing evidence, never a good value
    // (issue 24 item 1), even where a module kept one beside `in_domain: false`.
    if (finding.in_domain === false) {
      const why = typeof finding.reason === "string" ? finding.reason : "out_of_domain";
      return { ...common, status: "missing", reason: `${signal.module} is out of its domain: ${why}` };
    }
    const value = signal.read(finding);
    if (value === null) {
      const why = typeof finding.reason === "string" ? `: ${finding.reason}` : "";
      return { ...common, status: "missing", reason: `${signal.module} gave no ${signal.key}${why}` };
    }
    return { ...common, status: "present", value, desirability: round(signal.desirability(value), 4) };
  });
}

/**
 * The weighted mean desirability over the signals present, and the share of the total weight they
 * carry. Missing signals are left out of both sums: never counted as 0 (high risk) or 1 (low risk).
 */
export function readinessScore(readings: readonly SignalReading[]): {
  readonly score: number | null;
  readonly coverage: number;
} {
  let weighted = 0;
  let present = 0;
  let total = 0;
  for (const reading of readings) {
    total += reading.weight;
    if (reading.status !== "present") continue;
    weighted += reading.weight * reading.desirability;
    present += reading.weight;
  }
  return {
    score: present === 0 ? null : round(weighted / present, 4),
    coverage: total === 0 ? 0 : round(present / total, 4),
  };
}
