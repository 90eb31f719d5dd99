// report.csv carries every per-compound value the run computed (issue 27 item 3): each module's
// finding flattened to one column per leaf, named `<module>.<key>.<sub-key>`. Objects are walked;
// a list is one cell (entries joined with "; ", an entry that is an object as `key=value` pairs),
// so a module added later (cyp_assessment, gcn_toxicity, …) gets its columns with no change here.

/** Finding keys that are the row's identity, already in the fixed columns. */
const IDENTITY_KEYS = new Set(["candidate_id"]);

/** Units of the leaves whose name says the quantity (shown in the CSV header as `[unit]`). */
const UNITS: Readonly<Record<string, string>> = {
  mw: "g/mol",
  tpsa: "Å²",
  tpsa_sp: "Å²",
  log_s: "log(mol/L)",
  esol_published_crippen: "log(mol/L)",
  esol_refit_rdkit: "log(mol/L)",
  ridge_rdkit2d: "log(mol/L)",
  mlp64_morgan2_rdkit2d: "log(mol/L)",
  log_kp_cm_s: "log(cm/s)",
};

/** The unit of a column path, from its last segment; null when it has none or is unknown. */
export function unitOf(path: string): string | null {
  return UNITS[path.slice(path.lastIndexOf(".") + 1)] ?? null;
}

/** The CSV header of a finding column: its path, and its unit in brackets when known. */
export function findingHeader(path: string): string {
  const unit = unitOf(path);
  return unit === null ? path : `${path} [${unit}]`;
}

/** Every leaf of one finding as [path, cell text or number]. */
export function flattenFinding(moduleId: string, finding: unknown): [string, string | number | null][] {
  const out: [string, string | number | null][] = [];
  const walk = (value: unknown, path: string, top: boolean) => {
    if (value !== null && typeof value === "object" && !Array.isArray(value)) {
      for (const [key, inner] of Object.entries(value as Record<string, unknown>)) {
        if (top && IDENTITY_KEYS.has(key)) continue;
        walk(inner, `${path}.${key}`, false);
      }
      return;
    }
    out.push([path, cellOf(value)]);
  };
  walk(finding, moduleId, true);
  return out;
}

function cellOf(value: unknown): string | number | null {
  if (value === null || value === undefined) return null;
  if (typeof value === "number") return Number.isFinite(value) ? value : String(value);
  if (typeof value === "boolean") return value ? "true" : "false";
  if (typeof value === "string") return value;
  if (Array.isArray(value)) return value.map(entryText).join("; ");
  return entryText(value);
}

function entryText(entry: unknown): string {
  if (entry === null || entry === undefined) return "";
  if (Array.isArray(entry)) return entry.map(entryText).join(" ");
  if (typeof entry === "object")
    return Object.entries(entry as Record<string, unknown>)
      .map(([key, inner]) => `${key}=${entryText(inner)}`)
      .join(" ");
  return String(entry);
}
