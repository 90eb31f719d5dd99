import { fileURLToPath } from "node:url";

/** Absolute path of the repository root (this file lives in test/support/). */
export const repoRoot: string = fileURLToPath(new URL("../../", import.meta.url));
