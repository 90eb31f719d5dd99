import { dirname, join, relative } from "node:path";
import {
  type CompletedSummary,
  type ModulePlanEntry,
  RUN_FILES,
  runPath,
  SEAL_FILES,
  SEALED_FILES,
} from "@svc/core";
import { svcCommand } from "../config/svc-command.ts";

/** What a local run produced, for the closing report. */
export interface LocalRunFacts {
  title: string;
  runId: string;
  runDir: string;
  summary: Pick<
    CompletedSummary,
    "category_id" | "claim_strength" | "claim_reasons" | "profile" | "compounds"
  >;
  /** Every required module of the category's plan, with its outcome (issue 11: say which remain and why). */
  required: readonly Pick<ModulePlanEntry, "module_id" | "outcome" | "detail">[];
  offline: { state: string; reason: string };
  online: { state: string; issued_here?: boolean | undefined };
  /** The entitlement service that issued the seal, whose keys were pinned. */
  issuer: string;
  /** `svc seal verify <run-dir> --issuer` with the pinned keys: its state and the issuer key ids. */
  pinned: { state: string; keyIds: readonly string[] };
  trustFile: string;
  issuerPemFile: string;
}

/** The closing lines of `npm run demo` and `svc local run` (paths relative to the current folder). */
export function formatLocalRunReport(facts: LocalRunFacts): string {
  const rel = (path: string) => relative(process.cwd(), path) || ".";
  const { summary } = facts;
  const sealDir = join(facts.runDir, runPath("sealDir"));
  const sealFiles = [...SEALED_FILES, SEAL_FILES.publicKey, SEAL_FILES.instructions];
  const missing = facts.required.filter((m) => m.outcome !== "executed");
  // The released verify.sh written beside the pinned keys, never the folder's own copy (issue 23
  // item 3); `&&`, not `bash <(…)`: if svc cannot print it, the check fails instead of running nothing.
  const verifyScript = rel(join(dirname(facts.trustFile), "verify.sh"));
  return `
${facts.title} run ${facts.runId} finished.
  summary   ${rel(join(facts.runDir, RUN_FILES.summary))}
  report    ${rel(join(facts.runDir, RUN_FILES.reportHtml))}
  seal      ${rel(sealDir)}/ (${sealFiles.join(", ")})
  category  ${summary.category_id}; ${summary.compounds.total} compounds, ${summary.compounds.parsed} parsed; claim strength ${summary.claim_strength}${
    summary.claim_reasons.length > 0 ? ` (${summary.claim_reasons.join("; ")})` : ""
  }; profile ${summary.profile}
  coverage  ${
    missing.length === 0
      ? `all ${facts.required.length} required modules ran`
      : `${facts.required.length - missing.length} of ${facts.required.length} required modules ran; ${missing.length} did not:\n${missing.map((m) => `    - ${m.module_id}: ${m.detail ?? m.outcome}`).join("\n")}`
  }
  seal offline: ${facts.offline.state}${facts.offline.state === "VERIFIED" ? "" : ` (${facts.offline.reason})`}
  seal online:  ${facts.online.state}${facts.online.issued_here ? " (issued by this service)" : ""}
  svc seal verify --issuer: ${facts.pinned.state} (outputs recomputed, revocation asked, issuer key ${facts.pinned.keyIds.join(", ")})
  pinned keys:  ${rel(facts.trustFile)} (the keys of each run's embedded issuer, which has stopped)
  repro check:  ${svcCommand()} repro verify-script > ${verifyScript} && bash ${verifyScript} --key ${rel(facts.issuerPemFile)} ${rel(facts.runDir)}
  verify later: SVC_TRUSTED_KEYS=${rel(facts.trustFile)} ${svcCommand()} seal verify ${rel(facts.runDir)}
`;
}
