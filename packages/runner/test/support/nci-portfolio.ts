import { readFileSync } from "node:fs";
import { mkdir, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { stageDemo } from "./run-cli.ts";

/** Debian rdkit-data's first 5,000 NCI molecules, one `smiles id` a line. */
export const NCI = "/usr/share/RDKit/Data/NCI/first_5K.smi";

/**
 * The demo project with its sources replaced by the first `count` NCI molecules as nci.smi, with
 * `insert.lines` spliced in before line `insert.at`; removed after the test.
 */
export async function stageNci(
  t: { after: (fn: () => Promise<void>) => void },
  count: number,
  insert: { readonly at: number; readonly lines: readonly string[] } = { at: 0, lines: [] },
) {
  const staged = await stageDemo();
  t.after(() => rm(join(staged.inputRoot, ".."), { recursive: true, force: true }));
  const sources = join(staged.projectDir, "01_sources");
  await rm(sources, { recursive: true });
  await mkdir(sources);
  const lines = readFileSync(NCI, "utf8").split("\n").slice(0, count);
  lines.splice(insert.at, 0, ...insert.lines);
  await writeFile(join(sources, "nci.smi"), `${lines.join("\n")}\n`);
  await writeFile(join(sources, "sources.json"), JSON.stringify({ portfolio_selected_csv: "nci.smi" }));
  return staged;
}

/** Replaces `projectDir`'s portfolio by the first `count` NCI molecules (all when absent) as `NCI-<id>` rows. */
export async function writeNciPortfolio(projectDir: string, count?: number): Promise<void> {
  const lines = readFileSync(NCI, "utf8").trim().split("\n").slice(0, count);
  const rows = [
    "candidate_id,smiles",
    ...lines.map((line) => {
      const [smiles, id] = line.split(/\s+/);
      return `NCI-${id},${smiles}`;
    }),
  ];
  await writeFile(join(projectDir, "01_sources", "portfolio_selected.csv"), `${rows.join("\n")}\n`);
  await writeFile(
    join(projectDir, "01_sources", "sources.json"),
    JSON.stringify({ portfolio_selected_csv: "portfolio_selected.csv" }),
  );
}
