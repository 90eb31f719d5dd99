import {
  type CompoundFinding,
  findingBase,
  type MethodCard,
  type UpstreamFindings,
} from "../analysis-module.ts";
import { defineModule, type ParsedCompound } from "../define-module.ts";
import { SUMMARY_LIST_LIMIT } from "../first-entries.ts";
import { classDomainReason } from "../parent/class-domain.ts";
import { READINESS_SIGNALS, readinessScore, readSignals, type SignalReading } from "./readiness-signals.ts";

export interface ReadinessFinding extends CompoundFinding {
  readonly status: "assessed" | "not_assessed";
  readonly reason: string | null;
  /** Weighted mean desirability over the signals present, 0 to 1, higher = readier; null when none is present. */
  readonly readiness_score: number | null;
  /** Share of the total signal weight that was present (1 = every signal read). */
  readonly coverage: number | null;
  /** Every signal: value, desirability, weight and source, or missing with why. */
  readonly signals: readonly SignalReading[] | null;
  readonly missing_signals: readonly string[] | null;
  /** The score in one sentence: the weakest signals and what is missing. */
  readonly rationale: string | null;
}

export interface RankEntry {
  readonly rank: number;
  readonly candidate_id: string;
  readonly readiness_score: number | null;
  readonly coverage: number | null;
}

export interface ReadinessSummary {
  readonly assessed: number;
  readonly not_assessed: number;
  readonly rank_rule: string;
  readonly signals: readonly {
    readonly id: string;
    readonly label: string;
    readonly source: string;
    readonly weight: number;
    readonly transform: string;
  }[];
  /** Compounds per signal that had it missing. */
  readonly missing_counts: Readonly<Record<string, number>>;
  /** How many compounds were ranked (every row of the portfolio). */
  readonly ranked: number;
  /** The first `list_limit` compounds in rank order; each finding carries its own score. */
  readonly ranking: readonly RankEntry[];
  readonly list_limit: number;
  readonly method: MethodCard;
}

const ID = "wetlab_priority_and_readiness_determiner";

const RANK_RULE =
  "Higher readiness_score first; equal scores (and compounds with no score, last) in portfolio order. " +
  "A compound outside the organic classes (molecular_logic.compound_class not organic or organic_salt) " +
  "gets no score, so it ranks after every scored compound. " +
  "readiness_score is the weighted mean of the desirabilities of the signals present; a missing signal " +
  "is left out of the mean (never read as 0 or 1) and lowers coverage instead.";

const METHOD: MethodCard = {
  what:
    "A transparent ordering of the portfolio for the wet lab: each compound's readiness_score is the weighted " +
    "mean of desirabilities (0 to 1) of eight signals read from the other modules' findings — QED, BOILED-Egg " +
    "GI absorption, Abbott bioavailability score, log S, PAINS and NIBR EXCLUDE alerts, manufacturability " +
    "flags and the SA score — each shown with its value, desirability, weight and source module. A signal " +
    "whose module did not run is reported missing and left out; coverage says how much weight was present.",
  citations: [
    "Wager, Hou, Verhoest & Villalobos, ACS Chem. Neurosci. 2010, 1, 435 (equal-weight MPO over desirabilities)",
    "Bickerton et al., Nat. Chem. 2012, 4, 90 (QED)",
    "Daina & Zoete, ChemMedChem 2016, 11, 1117 (BOILED-Egg)",
    "Martin, J. Med. Chem. 2005, 48, 3164 (Abbott bioavailability score)",
    "Daina, Michielin & Zoete, Sci. Rep. 2017, 7, 42717 (solubility class boundaries)",
    "Baell & Holloway, J. Med. Chem. 2010, 53, 2719 (PAINS)",
    "Schuffenhauer et al., J. Med. Chem. 2020, 63, 14425 (NIBR filters)",
    "Ertl & Schuffenhauer, J. Cheminform. 2009, 1, 8 (SA score)",
  ],
  data: [],
  validation:
    "No reference ranking exists to compare with, so the tests prove the properties a ranking must have: " +
    "deterministic (same findings, same ranking, in any run), monotone (improving any one signal of a compound " +
    "never lowers its rank, checked over every signal), and a missing signal never changes a score the way a " +
    "good or bad value would. Test: readiness/wetlab-readiness.test.ts.",
  limits:
    "A triage ordering, not a prediction of success: equal weights are a convention, not fitted to outcomes; " +
    "each signal inherits its module's limits (QED and the rules are property heuristics; alerts are " +
    "substructures). Activity, selectivity and target biology are not among the signals (no assay or target " +
    "data in this category). Compounds with different coverage are compared on different signal sets.",
};

const EMPTY = {
  readiness_score: null,
  coverage: null,
  signals: null,
  missing_signals: null,
  rationale: null,
} as const;

const LABELS = new Map(READINESS_SIGNALS.map((s) => [s.id, s.label]));

function rationale(score: number | null, readings: readonly SignalReading[], coverage: number): string {
  const present = readings.filter((r) => r.status === "present");
  const missing = readings.filter((r) => r.status === "missing").map((r) => LABELS.get(r.id) ?? r.id);
  const weakest = [...present]
    .sort((a, b) => a.desirability - b.desirability || a.id.localeCompare(b.id))
    .filter((r) => r.desirability < 1)
    .slice(0, 3)
    .map((r) => `${LABELS.get(r.id) ?? r.id} ${r.value} (${r.desirability})`);
  const parts = [
    score === null
      ? "no signal present"
      : `readiness ${score} over ${present.length} of ${readings.length} signals (coverage ${coverage})`,
  ];
  if (weakest.length > 0) parts.push(`weakest: ${weakest.join(", ")}`);
  if (missing.length > 0) parts.push(`missing: ${missing.join(", ")}`);
  return `${parts.join("; ")}.`;
}

/** One compound as the ranking sees it. */
interface Rankable {
  readonly index: number;
  readonly candidate_id: string;
  readonly readiness_score: number | null;
  readonly coverage: number | null;
}

/** The rank rule: higher readiness_score first; ties and unscored compounds in portfolio order. */
function byRank(a: Rankable, b: Rankable): number {
  const sa = a.readiness_score ?? Number.NEGATIVE_INFINITY;
  const sb = b.readiness_score ?? Number.NEGATIVE_INFINITY;
  return sb - sa || a.index - b.index;
}

/** Orders compounds by readiness_score (higher first), ties and unscored compounds in portfolio order. */
export function rankCompounds(entries: readonly Rankable[]): RankEntry[] {
  return [...entries].sort(byRank).map((entry, at) => ({
    rank: at + 1,
    candidate_id: entry.candidate_id,
    readiness_score: entry.readiness_score,
    coverage: entry.coverage,
  }));
}

/**
 * The `limit` best-ranked compounds, kept as they arrive: at most 2 × limit entries are held, so
 * memory does not grow with the portfolio (issue 10 item 4). The rule is a total order (portfolio
 * index breaks every tie), so trimming to the best `limit` never drops one of the final top `limit`.
 */
export class TopRanked {
  #entries: Rankable[] = [];
  #count = 0;

  readonly limit: number;

  constructor(limit: number = SUMMARY_LIST_LIMIT) {
    this.limit = limit;
  }

  add(entry: Rankable): void {
    this.#count++;
    this.#entries.push(entry);
    if (this.#entries.length >= 2 * this.limit)
      this.#entries = this.#entries.sort(byRank).slice(0, this.limit);
  }

  /** How many compounds were ranked in all. */
  get count(): number {
    return this.#count;
  }

  /** The first `limit` ranks, as rankCompounds over every compound added would give them. */
  ranking(): RankEntry[] {
    return rankCompounds(this.#entries).slice(0, this.limit);
  }
}

/** The wet-lab readiness ordering over the findings of the modules listed before it. */
export const wetlabReadiness = defineModule<ReadinessFinding, ReadinessIdentity, ReadinessSummary>({
  id: ID,
  version: "1.0.0",
  description:
    "Transparent readiness ordering: every signal, weight and source module shown; missing stays missing",
  method: METHOD,
  requiredInputs: ["portfolio"],
  riskChannel: "cross_cutting",
  reads: [...new Set(READINESS_SIGNALS.map((signal) => signal.module))],
  // Split so the runner needs no RDKit on its main thread for it: the worker only passes the
  // compound's identity on; the score is made in `merge`, where the other findings are.
  notAssessed: (base) => ({ ...base, ...EMPTY }),
  assess: assessReadiness,
  createRun() {
    const ranked = new TopRanked();
    const missingCounts: Record<string, number> = {};
    /** Everything happens here: the signals are the other modules' findings, read in portfolio order. */
    const merge = (identity: ReadinessIdentity, upstream: UpstreamFindings | undefined): ReadinessFinding => {
      needUpstream(upstream);
      const { index, candidate_id } = identity;
      const readings = readSignals(upstream);
      const computed = readinessScore(readings);
      const { coverage } = computed;
      // A compound outside the organic classes is not scored: the signals that remain (alerts, SA
      // score) were never meant to make an inorganic or organometallic input look ready.
      const score = identity.out_of_class === null ? computed.score : null;
      const missing = readings.filter((r) => r.status === "missing").map((r) => r.id);
      for (const id of missing) missingCounts[id] = (missingCounts[id] ?? 0) + 1;
      ranked.add({ index, candidate_id, readiness_score: score, coverage });
      return {
        candidate_id,
        evidence_id: identity.evidence_id,
        status: "assessed",
        reason: identity.out_of_class,
        readiness_score: score,
        coverage,
        signals: readings,
        missing_signals: missing,
        rationale:
          identity.out_of_class === null
            ? rationale(score, readings, coverage)
            : `Not scored: ${identity.out_of_class}.`,
      };
    };
    return {
      merge,
      notAssessed(finding, upstream, index) {
        needUpstream(upstream);
        ranked.add({ index, candidate_id: finding.candidate_id, readiness_score: null, coverage: null });
        return finding;
      },
      finish(counts): ReadinessSummary {
        return {
          ...counts,
          rank_rule: RANK_RULE,
          signals: READINESS_SIGNALS.map((s) => ({
            id: s.id,
            label: s.label,
            source: `${s.module}.${s.key}`,
            weight: s.weight,
            transform: s.transform,
          })),
          missing_counts: missingCounts,
          ranked: ranked.count,
          ranking: ranked.ranking(),
          list_limit: ranked.limit,
          method: METHOD,
        };
      },
    };
  },
});

function needUpstream(upstream: UpstreamFindings | undefined): asserts upstream is UpstreamFindings {
  if (upstream === undefined)
    throw new Error(`${ID} needs the other modules' findings for the compound (upstream)`);
}

/** What `merge` needs of a compound: its ids. */
interface ReadinessIdentity {
  readonly index: number;
  readonly candidate_id: string;
  readonly evidence_id: string;
  /** Why the compound is outside the organic classes every model was trained on, or null (issue 24 item 2). */
  readonly out_of_class: string | null;
}

function assessReadiness(compound: ParsedCompound): ReadinessIdentity {
  const base = findingBase(ID, compound);
  return {
    index: compound.row.index,
    ...base,
    out_of_class: classDomainReason(compound),
  };
}
