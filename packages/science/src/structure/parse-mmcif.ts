import { AlternateLocations, elementFromAtomName } from "./atom-record-policy.ts";
import { type ParsedStructure, type StructureAtom, StructureParseError } from "./structure-atom.ts";

/**
 * Reads the `_atom_site` loop of an mmCIF file (PDBx/mmCIF dictionary, category `atom_site`) line
 * by line, so a caller may feed a stream. The author's chain, residue number and atom name
 * (`auth_*`) are used when present, as they are what a PDB file of the same entry carries and what
 * people name a ligand by; only the first model (`pdbx_PDB_model_num`) is kept, and of alternate
 * locations (`label_alt_id`) the one {@link AlternateLocations} keeps, as the PDB reader does.
 */
export class MmcifReader {
  private readonly atoms: StructureAtom[] = [];
  private readonly altLocs = new AlternateLocations();
  private rows = 0;
  private line = 0;
  private state: "outside" | "loop-header" | "atom-header" | "atom-rows" = "outside";
  private columns: string[] = [];
  private pending: string[] = [];
  private pendingLine = 0;
  private model: string | null = null;
  private textField = false;

  /** Takes the next line of the file (without its line break). */
  push(text: string): void {
    this.line++;
    // A semicolon text field (CIF 1.1 §2.2.7.1) holds no atom data: skip it whole.
    if (this.textField) {
      if (text.startsWith(";")) this.textField = false;
      return;
    }
    if (text.startsWith(";")) {
      this.textField = true;
      return;
    }
    const trimmed = text.trim();
    if (trimmed === "" || trimmed.startsWith("#")) return;
    if (this.state === "atom-rows") {
      if (/^(_|loop_|data_|save_|global_)/.test(trimmed)) {
        this.endRows();
        this.state = "outside";
      } else {
        this.takeRow(trimmed);
        return;
      }
    }
    if (trimmed === "loop_") {
      this.state = "loop-header";
      return;
    }
    if (this.state === "loop-header" || this.state === "atom-header") {
      if (trimmed.startsWith("_atom_site.")) {
        this.state = "atom-header";
        this.columns.push(trimmed.slice("_atom_site.".length).split(/\s/)[0] ?? "");
        return;
      }
      if (this.state === "atom-header" && !trimmed.startsWith("_")) {
        this.state = "atom-rows";
        this.takeRow(trimmed);
        return;
      }
      this.state = "outside";
    }
  }

  finish(): ParsedStructure {
    if (this.state === "atom-rows") this.endRows();
    if (this.columns.length === 0) throw new StructureParseError(0, "no _atom_site loop");
    if (this.atoms.length === 0) throw new StructureParseError(0, "the _atom_site loop holds no atom");
    return { format: "mmcif", atoms: this.atoms };
  }

  private takeRow(text: string): void {
    if (this.pending.length === 0) this.pendingLine = this.line;
    this.pending.push(...tokenize(text, this.line));
    while (this.pending.length >= this.columns.length) {
      const row = this.pending.splice(0, this.columns.length);
      this.takeAtom(row, this.pendingLine);
      this.pendingLine = this.line;
    }
  }

  private endRows(): void {
    if (this.pending.length > 0) {
      throw new StructureParseError(
        this.pendingLine,
        `_atom_site row has ${this.pending.length} values, the loop has ${this.columns.length} columns`,
      );
    }
  }

  private takeAtom(row: string[], line: number): void {
    const value = (...names: string[]): string => {
      for (const name of names) {
        const at = this.columns.indexOf(name);
        const raw = at === -1 ? undefined : row[at];
        if (raw !== undefined && raw !== "?" && raw !== ".") return raw;
      }
      return "";
    };
    const model = value("pdbx_PDB_model_num");
    if (this.model === null) this.model = model;
    else if (model !== this.model) return;
    const number = (field: string, raw: string, fallback?: number): number => {
      if (raw === "" && fallback !== undefined) return fallback;
      const parsed = Number(raw);
      if (raw === "" || !Number.isFinite(parsed)) {
        throw new StructureParseError(line, `_atom_site.${field} is not a number: "${raw}"`);
      }
      return parsed;
    };
    this.rows++;
    const seq = value("auth_seq_id", "label_seq_id");
    const name = value("auth_atom_id", "label_atom_id");
    const serial = Number(value("id"));
    const atom: StructureAtom = {
      serial: Number.isInteger(serial) && value("id") !== "" ? serial : this.rows,
      hetero: value("group_PDB") === "HETATM",
      name,
      altLoc: value("label_alt_id"),
      resName: value("auth_comp_id", "label_comp_id"),
      chain: value("auth_asym_id", "label_asym_id"),
      // A residue without a sequence number (water, ligand in label_* only) gets 0.
      resSeq: number("auth_seq_id", seq, 0),
      iCode: value("pdbx_PDB_ins_code"),
      position: [
        number("Cartn_x", value("Cartn_x")),
        number("Cartn_y", value("Cartn_y")),
        number("Cartn_z", value("Cartn_z")),
      ],
      occupancy: number("occupancy", value("occupancy"), 1),
      bFactor: number("B_iso_or_equiv", value("B_iso_or_equiv"), 0),
      element: value("type_symbol").toUpperCase() || elementFromAtomName(name),
    };
    if (this.altLocs.keeps(atom)) this.atoms.push(atom);
  }
}

/** Parses a whole mmCIF text (see {@link MmcifReader}). */
export function parseMmcif(text: string): ParsedStructure {
  const reader = new MmcifReader();
  for (const line of text.split(/\r?\n/)) reader.push(line);
  return reader.finish();
}

/** CIF 1.1 §2.2.7: whitespace-separated values; a quoted value ends at its quote followed by whitespace. */
function tokenize(text: string, line: number): string[] {
  const tokens: string[] = [];
  let at = 0;
  while (at < text.length) {
    while (at < text.length && /\s/.test(text[at] ?? "")) at++;
    if (at >= text.length) break;
    const quote = text[at];
    if (quote === "'" || quote === '"') {
      let end = at + 1;
      while (
        end < text.length &&
        !(text[end] === quote && (end + 1 === text.length || /\s/.test(text[end + 1] ?? "")))
      )
        end++;
      if (end >= text.length) throw new StructureParseError(line, "unterminated quoted value");
      tokens.push(text.slice(at + 1, end));
      at = end + 1;
    } else {
      let end = at;
      while (end < text.length && !/\s/.test(text[end] ?? "")) end++;
      tokens.push(text.slice(at, end));
      at = end;
    }
  }
  return tokens;
}
