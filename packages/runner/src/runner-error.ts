import { defineExitRegistry, exitErrorClass, RUN_FILES } from "@svc/core";

/** Exit codes of `svc-runner` (docs/contracts/runner-env.md): one per outcome class. */
export const EXIT = {
  success: 0,
  internal: 1,
  badInput: 2,
  refused: 3,
  preseal: 10,
  /** sysexits.h EX_TEMPFAIL: stopped by a signal; rerunning with the same run id resumes. */
  interrupted: 75,
} as const;

export type ExitCode = (typeof EXIT)[keyof typeof EXIT];

/**
 * The runner's one exit table (core's defineExitRegistry, the same shape as the CLI's): each error
 * code under the exit status it ends the run with, with the one line telling the operator what to
 * do. The README's error table is kept in step by a test.
 */
export const RUNNER_ERRORS = defineExitRegistry({
  [EXIT.badInput]: {
    CONFIG_INVALID: "fix the flags or SVC_* variables named above",
    PROJECT_NOT_FOUND: "stage the project under <input-root>/<project_id>/01_sources or fix --project-id",
    SOURCES_INVALID: "fix 01_sources/sources.json as described above",
    PROFILE_INVALID:
      "set sources.json profile to oral_peripheral, oral_cns or non_oral (svc project init --profile); nothing was charged",
    INPUT_FILE_MISSING: "stage the referenced file in 01_sources/",
    INPUT_PATH_OUTSIDE: "reference only files inside 01_sources/ (relative paths, no '..', no symlinks out)",
    CSV_INVALID: "fix the CSV file at the line and field named above",
    PORTFOLIO_INVALID:
      "fix or remove the failing rows named above (svc-runner validate lists every row), or raise --max-invalid-fraction; nothing was charged",
    ASSAYS_INVALID:
      "fix the assay table at the line and field named above (README, assays_csv); nothing was charged",
    ASSAY_CANDIDATE_UNKNOWN:
      "give assay rows only candidate ids of the portfolio, or add those compounds; nothing was charged",
    TARGETS_INVALID:
      "fix the target table at the line and field named above (README, targets_csv); nothing was charged",
    STRUCTURE_INVALID:
      "fix the structure entry or file named above (README, pdbs): a PDB/mmCIF file with a protein chain, a ligand present in it, a box of at most 40 Å a side over the protein; nothing was charged",
    SDF_INVALID: "fix the SD file at the line named above",
    DUPLICATE_CANDIDATE_ID: "give every portfolio row a unique candidate id",
    PRIMARY_CANDIDATE_NOT_FOUND: "set primary_candidate_id to a candidate id present in the portfolio",
    CATEGORY_UNKNOWN: "use --category-preset auto or one of the category ids of the policy",
    RUN_ALREADY_FINISHED: "choose a new --run-id; a finished run is never overwritten",
    RUN_DIR_INVALID: `point --run-dir at a run output folder holding ${RUN_FILES.preseal}`,
    OUTPUTS_CHANGED: "the outputs no longer match the pre-seal; restore them or start a new run",
  },
  [EXIT.refused]: {
    ENTITLEMENT_UNAUTHORIZED:
      "check the identity token: auth mode, audience and issuer must match the entitlement service",
    ENTITLEMENT_FORBIDDEN: "ask the operator to allow this principal",
    ENTITLEMENT_EXHAUSTED: "no runs left for this mode; ask for more runs",
    RUN_ID_CONFLICT: "this run id was already used; choose a new --run-id",
    TOKEN_UNAVAILABLE: "provide an identity token for the auth mode (see README, token sources)",
  },
  [EXIT.internal]: {
    ENTITLEMENT_UNREACHABLE: "check --entitlement-url and the network, then run again with the same run id",
    ENTITLEMENT_REJECTED: "the entitlement service refused a lifecycle step; report the message above",
    ENTITLEMENT_CONTRACT_VIOLATION:
      "the entitlement service answered outside its contract (docs/contracts/entitlement-http.md); check that --entitlement-url points at a matching service version",
    SHARDS_INCOMPLETE:
      "check the other pods of the Job (kubectl get pods), then run again with the same run id",
    INTERNAL: "report this failure with the log above",
  },
  [EXIT.interrupted]: {
    INTERRUPTED:
      "run again with the same --run-id: a consumed run is replayed, not charged again, and the outputs are rebuilt",
  },
});

export type RunnerErrorCode = keyof typeof RUNNER_ERRORS;

/** The runner's single error class; its exit status and action are its code's, read from the table in main.ts. */
export class RunnerError extends exitErrorClass(RUNNER_ERRORS) {}
