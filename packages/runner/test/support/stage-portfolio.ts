import { rm, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import { stageDemo } from "./run-cli.ts";

/**
 * The demo project with its portfolio replaced by `csv` (no primary candidate) and, for each
 * sources.json key in `sources`, a file of 01_sources named by it; removed after the test.
 */
export async function stageWithPortfolio(
  csv: string,
  t: { after: (fn: () => Promise<void>) => void },
  sources: Readonly<Record<string, readonly [file: string, text: string]>> = {},
) {
  const staged = await stageDemo();
  t.after(() => rm(dirname(staged.inputRoot), { recursive: true, force: true }));
  await writeFile(join(staged.projectDir, "01_sources", "portfolio_selected.csv"), csv);
  const names: Record<string, string> = { portfolio_selected_csv: "portfolio_selected.csv" };
  for (const [key, [file, text]] of Object.entries(sources)) {
    await writeFile(join(staged.projectDir, "01_sources", file), text);
    names[key] = file;
  }
  await writeFile(join(staged.projectDir, "01_sources", "sources.json"), JSON.stringify(names));
  return staged;
}
