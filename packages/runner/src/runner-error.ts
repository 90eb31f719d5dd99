import { CodedError, RUN_FILES } from "@svc/core";

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
 * The one registry of runner error codes: exit code and the one line telling the operator what
 * to do. The README's error table is kept in step by a test.
 */
export const RUNNER_ERRORS = {
  CONFIG_INVALID: { exit: EXIT.badInput, action: "fix the flags or SVC_* variables named above" },
  PROJECT_NOT_FOUND: {
    exit: EXIT.badInput,
    action: "stage the project under <input-root>/<project_id>/01_sources or fix --project-id",
  },
  SOURCES_INVALID: { exit: EXIT.badInput, action: "fix 01_sources/sources.json as described above" },
  PROFILE_INVALID: {
    exit: EXIT.badInput,
    action:
      "set sources.json profile to oral_peripheral, oral_cns or non_oral (svc project init --profile); nothing was charged",
  },
  INPUT_FILE_MISSING: { exit: EXIT.badInput, action: "stage the referenced file in 01_sources/" },
  INPUT_PATH_OUTSIDE: {
    exit: EXIT.badInput,
    action: "reference only files inside 01_sources/ (relative paths, no '..', no symlinks out)",
  },
  CSV_INVALID: { exit: EXIT.badInput, action: "fix the CSV file at the line and field named above" },
  PORTFOLIO_INVALID: {
    exit: EXIT.badInput,
    action:
      "fix or remove the failing rows named above (svc-runner validate lists every row), or raise --max-invalid-fraction; nothing was charged",
  },
  ASSAYS_INVALID: {
    exit: EXIT.badInput,
    action: "fix the assay table at the line and field named above (README, assays_csv); nothing was charged",
  },
  ASSAY_CANDIDATE_UNKNOWN: {
    exit: EXIT.badInput,
    action:
      "give assay rows only candidate ids of the portfolio, or add those compounds; nothing was charged",
  },
  TARGETS_INVALID: {
    exit: EXIT.badInput,
    action:
      "fix the target table at the line and field named above (README, targets_csv); nothing was charged",
  },
  STRUCTURE_INVALID: {
    exit: EXIT.badInput,
    action:
      "fix the structure entry or file named above (README, pdbs): a PDB/mmCIF file with a protein chain, a ligand present in it, a box of at most 40 Å a side over the protein; nothing was charged",
  },
  SDF_INVALID: { exit: EXIT.badInput, action: "fix the SD file at the line named above" },
  DUPLICATE_CANDIDATE_ID: { exit: EXIT.badInput, action: "give every portfolio row a unique candidate id" },
  PRIMARY_CANDIDATE_NOT_FOUND: {
    exit: EXIT.badInput,
    action: "set primary_candidate_id to a candidate id present in the portfolio",
  },
  CATEGORY_UNKNOWN: {
    exit: EXIT.badInput,
    action: "use --category-preset auto or one of the category ids of the policy",
  },
  RUN_ALREADY_FINISHED: {
    exit: EXIT.badInput,
    action: "choose a new --run-id; a finished run is never overwritten",
  },
  RUN_DIR_INVALID: {
    exit: EXIT.badInput,
    action: `point --run-dir at a run output folder holding ${RUN_FILES.preseal}`,
  },
  OUTPUTS_CHANGED: {
    exit: EXIT.badInput,
    action: "the outputs no longer match the pre-seal; restore them or start a new run",
  },
  ENTITLEMENT_UNAUTHORIZED: {
    exit: EXIT.refused,
    action: "check the identity token: auth mode, audience and issuer must match the entitlement service",
  },
  ENTITLEMENT_FORBIDDEN: { exit: EXIT.refused, action: "ask the operator to allow this principal" },
  ENTITLEMENT_EXHAUSTED: { exit: EXIT.refused, action: "no runs left for this mode; ask for more runs" },
  RUN_ID_CONFLICT: { exit: EXIT.refused, action: "this run id was already used; choose a new --run-id" },
  ENTITLEMENT_UNREACHABLE: {
    exit: EXIT.internal,
    action: "check --entitlement-url and the network, then run again with the same run id",
  },
  ENTITLEMENT_REJECTED: {
    exit: EXIT.internal,
    action: "the entitlement service refused a lifecycle step; report the message above",
  },
  ENTITLEMENT_CONTRACT_VIOLATION: {
    exit: EXIT.internal,
    action:
      "the entitlement service answered outside its contract (docs/contracts/entitlement-http.md); check that --entitlement-url points at a matching service version",
  },
  TOKEN_UNAVAILABLE: {
    exit: EXIT.refused,
    action: "provide an identity token for the auth mode (see README, token sources)",
  },
  SHARDS_INCOMPLETE: {
    exit: EXIT.internal,
    action: "check the other pods of the Job (kubectl get pods), then run again with the same run id",
  },
  INTERRUPTED: {
    exit: EXIT.interrupted,
    action:
      "run again with the same --run-id: a consumed run is replayed, not charged again, and the outputs are rebuilt",
  },
  INTERNAL: { exit: EXIT.internal, action: "report this failure with the log above" },
} as const satisfies Record<string, { exit: ExitCode; action: string }>;

export type RunnerErrorCode = keyof typeof RUNNER_ERRORS;

/** The runner's single error class; translated to an exit code only in main.ts. */
export class RunnerError extends CodedError<RunnerErrorCode> {
  get exitCode(): ExitCode {
    return RUNNER_ERRORS[this.code].exit;
  }

  get action(): string {
    return RUNNER_ERRORS[this.code].action;
  }
}
