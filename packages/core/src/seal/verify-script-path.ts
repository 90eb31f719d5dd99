import { RUN_FILES } from "../run-folder/run-files.ts";

/** Where the runner writes the released verify.sh into a run folder. */
export const VERIFY_SCRIPT_PATH = RUN_FILES.verifyScript;
