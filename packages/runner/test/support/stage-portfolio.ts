import { rm, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import { stageDemo } from "./run-cli.ts";

/** The demo project with its portfolio replaced by `csv` (no primary candidate); removed after the test. */
export async function stageWithPortfolio(csv: string, t: { after: (fn: () => Promise<void>) => void }) {
  const staged = await stageDemo();
  t.after(() => rm(dirname(staged.inputRoot), { recursive: true, force: true }));
  await writeFile(join(staged.projectDir, "01_sources", "portfolio_selected.csv"), csv);
  await writeFile(
    join(staged.projectDir, "01_sources", "sources.json"),
    JSON.stringify({ portfolio_selected_csv: "portfolio_selected.csv" }),
  );
  return staged;
}
