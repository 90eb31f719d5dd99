import { readDataFile } from "../data/read-data-file.ts";
import { parseBbbp, parseLipophilicity } from "./lipophilicity-set.ts";
import { scaffoldSplit } from "./scaffold-splits.ts";

/**
 * The constant predictor of log D7.4 on the scaffold-split test rows: the training rows' mean
 * (issue 24 item 6: the baseline a model must beat first, stronger here than WLOGP read as log D).
 */
export interface LogdConstantBaseline {
  readonly training_mean: number;
  readonly test_rows: number;
  readonly rmse: number;
}

/** The constant predictor of BBB penetration: the training rows' majority label, scored on the test rows. */
export interface BbbConstantBaseline {
  readonly majority: "penetrant" | "non_penetrant";
  readonly train_penetrant_share: number;
  readonly test_penetrant_share: number;
  /** Share of test rows the majority call gets right; its MCC is 0 and its ROC-AUC 0.5 by construction. */
  readonly accuracy: number;
}

const round = (value: number) => Number(value.toFixed(6));

let logd: LogdConstantBaseline | null = null;
let bbb: BbbConstantBaseline | null = null;

/** Computed once from `lipo.csv` and its scaffold split (no model involved). */
export function logdConstantBaseline(): LogdConstantBaseline {
  if (logd !== null) return logd;
  const rows = parseLipophilicity(readDataFile("lipo.csv"));
  const parts = scaffoldSplit("lipo.csv");
  const train = rows.filter((_, i) => parts[i] === "train").map((r) => r.logd);
  const test = rows.filter((_, i) => parts[i] === "test").map((r) => r.logd);
  const mean = train.reduce((s, v) => s + v, 0) / train.length;
  const rmse = Math.sqrt(test.reduce((s, v) => s + (v - mean) ** 2, 0) / test.length);
  logd = { training_mean: round(mean), test_rows: test.length, rmse: round(rmse) };
  return logd;
}

/** Computed once from `bbbp.csv` and its scaffold split (no model involved). */
export function bbbConstantBaseline(): BbbConstantBaseline {
  if (bbb !== null) return bbb;
  const rows = parseBbbp(readDataFile("bbbp.csv"));
  const parts = scaffoldSplit("bbbp.csv");
  const share = (part: "train" | "test") => {
    const labels = rows.filter((_, i) => parts[i] === part).map((r) => r.penetrant);
    return labels.filter(Boolean).length / labels.length;
  };
  const train = share("train");
  const test = share("test");
  const majority = train >= 0.5 ? "penetrant" : "non_penetrant";
  bbb = {
    majority,
    train_penetrant_share: round(train),
    test_penetrant_share: round(test),
    accuracy: round(majority === "penetrant" ? test : 1 - test),
  };
  return bbb;
}
