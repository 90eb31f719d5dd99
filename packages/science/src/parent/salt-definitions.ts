import { readDataFile } from "../data/read-data-file.ts";

/** One fragment definition: a fragment wholly matched by `smarts` is a salt or solvent. */
export interface SaltDefinition {
  readonly smarts: string;
  readonly name: string;
  /** Where the definition comes from (the data file and the source it cites). */
  readonly source: string;
}

/** The source recorded for definitions read from RDKit's own Salts.txt. */
export const RDKIT_SALTS =
  "RDKit Data/Salts.txt (G. Landrum, definitions from T. Zoller, 2006; BSD-3-Clause)";

/**
 * Parses the Salts.txt format: `//` comments, blank lines, then one SMARTS per line optionally
 * followed by whitespace and a name. A `// source: …` comment names the source of what follows.
 */
export function parseSaltDefinitions(text: string, defaultSource: string): SaltDefinition[] {
  const definitions: SaltDefinition[] = [];
  let source = defaultSource;
  for (const raw of text.split("\n")) {
    const line = raw.trim();
    if (line.startsWith("// source:")) source = line.slice("// source:".length).trim();
    if (line === "" || line.startsWith("//")) continue;
    const [smarts = "", ...rest] = line.split(/\s+/);
    const name = rest.join(" ").trim();
    definitions.push({ smarts, name: name === "" ? smarts : name, source });
  }
  return definitions;
}

let cached: readonly SaltDefinition[] | null = null;

/**
 * RDKit's public salt list (`data/rdkit-salts.txt`, unchanged) followed by the counterions and
 * solvents written here (`data/counterions-and-solvents.txt`, each group citing its source).
 */
export function saltDefinitions(): readonly SaltDefinition[] {
  cached ??= [
    ...parseSaltDefinitions(readDataFile("rdkit-salts.txt"), RDKIT_SALTS),
    ...parseSaltDefinitions(readDataFile("counterions-and-solvents.txt"), "counterions-and-solvents.txt"),
  ];
  return cached;
}
