import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { makeTempDir } from "@svc/testing";

/**
 * The smallest staged project a run or `svc-runner validate` accepts: project `demo`, one parsable
 * row, its sources.json; in a temporary folder removed after the test. Returns the input root and
 * an output root beside it (not created).
 */
export async function minimalProject(t: { after: (fn: () => Promise<void>) => void }, prefix: string) {
  const root = await makeTempDir(prefix, t);
  const sources = join(root, "input", "demo", "01_sources");
  await mkdir(sources, { recursive: true });
  await writeFile(join(sources, "portfolio.csv"), "candidate_id,smiles\nc1,CCO\n");
  await writeFile(join(sources, "sources.json"), JSON.stringify({ portfolio_selected_csv: "portfolio.csv" }));
  return { root, inputRoot: join(root, "input"), outputRoot: join(root, "output") };
}
