import {
  ALERT_FAMILIES,
  type AlertFamily,
  type CompoundView,
  findingOf,
  RULE_NAMES,
  type RuleName,
} from "./compound-view.ts";
import { StreamingHistogram } from "./histogram-plot.ts";

/** Portfolio-wide counts, filled one compound at a time: constant memory at any portfolio size. */
export class PortfolioStats {
  compounds = 0;
  parsed = 0;
  duplicates = 0;
  saltsStripped = 0;
  withUnspecifiedStereo = 0;
  readonly rules = Object.fromEntries(
    RULE_NAMES.map((rule) => [rule, { evaluated: 0, passed: 0 }]),
  ) as Record<RuleName, { evaluated: number; passed: number }>;
  readonly alerts = Object.fromEntries(
    ALERT_FAMILIES.map((family) => [family, { evaluated: 0, flagged: 0 }]),
  ) as Record<AlertFamily, { evaluated: number; flagged: number }>;
  // Fixed ranges wide enough for drug-like chemistry; values outside land in the edge bins.
  readonly histograms = {
    mw: new StreamingHistogram("MW (g/mol)", 0, 1000, 25),
    wlogp: new StreamingHistogram("WLOGP", -4, 10, 28),
    tpsa: new StreamingHistogram("TPSA (Å²)", 0, 250, 25),
    qed: new StreamingHistogram("QED", 0, 1, 20),
    sa_score: new StreamingHistogram("SA score", 1, 10, 18),
  };

  add(view: CompoundView): void {
    this.compounds++;
    if (!view.parsed) return;
    this.parsed++;
    if (view.duplicate_of !== null) this.duplicates++;
    if (view.salt_stripped) this.saltsStripped++;
    const unspecified = findingOf(view, "molecular_logic")?.unspecified_stereo_centers;
    if (typeof unspecified === "number" && unspecified > 0) this.withUnspecifiedStereo++;
    for (const rule of RULE_NAMES) {
      const outcome = view.rules[rule];
      if (!("pass" in outcome)) continue;
      this.rules[rule].evaluated++;
      if (outcome.pass) this.rules[rule].passed++;
    }
    for (const family of ALERT_FAMILIES) {
      const hits = view.alerts[family];
      if (hits === null) continue;
      this.alerts[family].evaluated++;
      if (hits.length > 0) this.alerts[family].flagged++;
    }
    for (const key of Object.keys(this.histograms) as (keyof PortfolioStats["histograms"])[])
      this.histograms[key].add(view.props[key].value);
  }
}
