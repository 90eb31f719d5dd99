/**
 * A quick look at a table's structure column before a project is written (issue 37 item 7): a
 * file of junk under a `smiles` header was accepted by init and refused by the runner only after
 * RDKit had read every row (5.6 minutes for 50 MB). Here only the SMILES syntax (Weininger 1988;
 * OpenSMILES 2016) is checked on the first rows, in milliseconds; RDKit still judges every row
 * with `svc project check` and before the charge.
 */

/** Rows looked at: the first this many data rows. */
export const SCREEN_ROWS = 1_000;
/**
 * The share of looked-at rows with no SMILES syntax at which init refuses the file. The runner
 * refuses a portfolio when more than half its rows do not parse (`--max-invalid-fraction`, 0.5):
 * 90 % with not even the syntax of a SMILES leaves no doubt, and a real portfolio never comes close.
 */
export const SCREEN_REFUSE_SHARE = 0.9;

// One SMILES token: a bracket atom, an organic-subset or aromatic atom, `*`, a bond, a branch,
// a ring closure (a digit or %nn), or the dot between components.
const TOKEN = /\[[^\]\s]{1,40}\]|Cl|Br|[BCNOPSFI]|[bcnops]|\*|[-=#$:/\\.~]|[()]|%\d\d|\d/y;

/**
 * Whether `text` has the syntax of a SMILES: its first word (a SMILES ends at white space; what
 * follows, a name or a CXSMILES extension, is not looked at) is a run of SMILES tokens with
 * balanced branches and at least one atom. Chemistry (valence, rings) is RDKit's to judge.
 */
export function hasSmilesSyntax(text: string): boolean {
  const word = text.trim().split(/\s/, 1)[0] ?? "";
  if (word === "") return false;
  let depth = 0;
  let atoms = 0;
  TOKEN.lastIndex = 0;
  while (TOKEN.lastIndex < word.length) {
    const at = TOKEN.lastIndex;
    const match = TOKEN.exec(word);
    if (match === null || match.index !== at) return false;
    const token = match[0];
    if (token === "(") depth++;
    else if (token === ")" && --depth < 0) return false;
    else if (/^(?:\[|[A-Za-z*])/.test(token)) atoms++;
  }
  return depth === 0 && atoms > 0;
}

/** What the screen found: rows looked at, rows without SMILES syntax and the first of those. */
export interface SmilesScreen {
  readonly looked: number;
  readonly failed: number;
  readonly examples: readonly { readonly line: number; readonly text: string }[];
}

/** Screens the `cells` (line number and the structure column's text) of the first data rows. */
export function screenSmiles(cells: Iterable<{ line: number; text: string }>): SmilesScreen {
  let looked = 0;
  let failed = 0;
  const examples: { line: number; text: string }[] = [];
  for (const { line, text } of cells) {
    if (looked === SCREEN_ROWS) break;
    looked++;
    if (hasSmilesSyntax(text)) continue;
    failed++;
    // Shown quoted and cut: a refusal never pours a file onto the terminal.
    if (examples.length < 3) examples.push({ line, text: text.length > 40 ? `${text.slice(0, 40)}…` : text });
  }
  return { looked, failed, examples };
}
