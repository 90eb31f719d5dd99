/** Where the runner writes the released verify.sh into a run folder. */
export const VERIFY_SCRIPT_PATH = "repro_pack/container/verify.sh";
