/** A docking box as staged: centre and edge lengths in Å. */
export interface StructureBox {
  readonly center: readonly [number, number, number];
  readonly size: readonly [number, number, number];
}

/**
 * One `pdbs` entry of sources.json (issue 25 item 1): a receptor structure file (PDB or mmCIF) inside
 * 01_sources/, and optionally how its pocket is named — a reference ligand (`RES:CHAIN:NUM` in the
 * file, or an SD file beside it) or an explicit box — and the target it belongs to (a `targets.csv`
 * target id or name). A plain string is a file with none of these.
 */
export interface StructureEntry {
  readonly file: string;
  readonly ligand: string | null;
  readonly box: StructureBox | null;
  readonly target: string | null;
}

const ENTRY_KEYS = new Set(["file", "ligand", "box", "target"]);

/** Checks one `pdbs` entry's shape, adding each problem (naming the field) to `problems`. */
export function parseStructureEntry(
  value: unknown,
  field: string,
  problems: string[],
): StructureEntry | null {
  if (typeof value === "string") {
    if (value === "") problems.push(`field ${field}: must be a non-empty file name`);
    return value === "" ? null : { file: value, ligand: null, box: null, target: null };
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    problems.push(`field ${field}: must be a file name or an object { file, ligand, box, target }`);
    return null;
  }
  const obj = value as Record<string, unknown>;
  const before = problems.length;
  for (const key of Object.keys(obj))
    if (!ENTRY_KEYS.has(key)) problems.push(`field ${field}.${key}: unknown key`);
  const text = (key: string, required: boolean): string | null => {
    const item = obj[key];
    if (item === undefined || item === null) {
      if (required) problems.push(`field ${field}.${key}: required (a file name inside 01_sources/)`);
      return null;
    }
    if (typeof item !== "string" || item.trim() === "") {
      problems.push(`field ${field}.${key}: must be a non-empty string`);
      return null;
    }
    return item;
  };
  const file = text("file", true);
  const ligand = text("ligand", false);
  const target = text("target", false);
  const box = obj.box === undefined || obj.box === null ? null : parseBox(obj.box, `${field}.box`, problems);
  if (ligand !== null && box !== null) {
    problems.push(`field ${field}: give the pocket by ligand or by box, not both`);
  }
  if (problems.length > before || file === null) return null;
  return { file, ligand, box, target };
}

function parseBox(value: unknown, field: string, problems: string[]): StructureBox | null {
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    problems.push(`field ${field}: must be an object { center: [x, y, z], size: [x, y, z] } in Å`);
    return null;
  }
  const obj = value as Record<string, unknown>;
  for (const key of Object.keys(obj))
    if (key !== "center" && key !== "size") problems.push(`field ${field}.${key}: unknown key`);
  const triple = (key: "center" | "size"): [number, number, number] | null => {
    const item = obj[key];
    if (
      !Array.isArray(item) ||
      item.length !== 3 ||
      item.some((n) => typeof n !== "number" || !Number.isFinite(n))
    ) {
      problems.push(`field ${field}.${key}: must be three numbers [x, y, z] in Å`);
      return null;
    }
    return [item[0], item[1], item[2]] as [number, number, number];
  };
  const center = triple("center");
  const size = triple("size");
  return center === null || size === null ? null : { center, size };
}
