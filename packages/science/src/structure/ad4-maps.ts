import { createHash } from "node:crypto";
import { mkdir, readFile, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import type { PocketBox } from "./pocket-box.ts";
import { describeToolFailure, runTool, type ToolInvocation } from "./run-tool.ts";

/** AutoGrid's default grid spacing (Å), the one AutoDock 4 and Vina 1.2's AD4 examples use. */
export const AD4_GRID_SPACING = 0.375;
/**
 * Ligand atom types a map is computed for: the AutoDock 4 types Open Babel writes for drug-like
 * ligands. A ligand with another type gets no AD4 score (Vina names the missing map).
 */
export const AD4_LIGAND_TYPES = ["A", "C", "N", "NA", "OA", "S", "SA", "HD", "F", "Cl", "Br", "I", "P"];
const AUTOGRID_TIMEOUT_MS = 10 * 60_000;

export type Ad4Maps =
  | { readonly status: "ready"; readonly prefix: string; readonly invocation: ToolInvocation }
  | { readonly status: "unavailable"; readonly reason: string; readonly invocation: ToolInvocation | null };

/** The AutoDock types in a receptor PDBQT (columns 78–79), sorted. */
export function receptorAtomTypes(pdbqt: string): string[] {
  const types = new Set<string>();
  for (const line of pdbqt.split(/\r?\n/))
    if (line.startsWith("ATOM  ") || line.startsWith("HETATM")) {
      const type = line.slice(77).trim();
      if (type) types.add(type);
    }
  return [...types].sort();
}

/** True when every partial charge (columns 71–76) is zero: AD4's electrostatics would be empty. */
export function hasNoPartialCharges(pdbqt: string): boolean {
  for (const line of pdbqt.split(/\r?\n/))
    if ((line.startsWith("ATOM  ") || line.startsWith("HETATM")) && Number(line.slice(70, 76)) !== 0)
      return false;
  return true;
}

/**
 * AutoGrid 4's grid parameter file for the docking box (AutoDock 4.2 user guide, "Grid parameter
 * file"): one affinity map per ligand type, the electrostatic and desolvation maps, the
 * distance-dependent dielectric of AD4 (Mehler & Solmajer 1991, −0.1465). The point count per axis is
 * the box edge over the spacing rounded up to an even number (AutoGrid needs it even).
 */
export function ad4GridParameterFile(receptorTypes: readonly string[], box: PocketBox): string {
  const points = box.size.map((edge) => 2 * Math.ceil(edge / AD4_GRID_SPACING / 2));
  return [
    `npts ${points.join(" ")}`,
    "gridfld receptor.maps.fld",
    `spacing ${AD4_GRID_SPACING}`,
    `receptor_types ${receptorTypes.join(" ")}`,
    `ligand_types ${AD4_LIGAND_TYPES.join(" ")}`,
    "receptor receptor.pdbqt",
    `gridcenter ${box.center.map((value) => value.toFixed(3)).join(" ")}`,
    "smooth 0.5",
    ...AD4_LIGAND_TYPES.map((type) => `map receptor.${type}.map`),
    "elecmap receptor.e.map",
    "dsolvmap receptor.d.map",
    "dielectric -0.1465",
    "",
  ].join("\n");
}

const jobs = new Map<string, Promise<Ad4Maps>>();

/**
 * AutoGrid 4 maps of one receptor over one box, for `vina --scoring ad4 --maps <prefix>` (Vina 1.2
 * reads AD4 energies from maps only). Computed once per receptor file and box under `cacheDir` and
 * shared by every compound of the process; never throws: a missing `autogrid4` (Debian `autogrid`), a
 * failing run or a receptor without partial charges gives the reason instead.
 */
export function prepareAd4Maps(
  receptorPdbqt: string,
  box: PocketBox,
  cacheDir: string,
  autogridPath = "autogrid4",
): Promise<Ad4Maps> {
  const key = createHash("sha256")
    .update(JSON.stringify([receptorPdbqt, box.center, box.size]))
    .digest("hex")
    .slice(0, 16);
  const dir = join(cacheDir, `ad4-maps-${key}`);
  let job = jobs.get(dir);
  if (!job) {
    job = computeMaps(receptorPdbqt, box, dir, autogridPath);
    jobs.set(dir, job);
  }
  return job;
}

async function computeMaps(
  receptorPdbqt: string,
  box: PocketBox,
  dir: string,
  autogrid: string,
): Promise<Ad4Maps> {
  const text = await readFile(receptorPdbqt, "utf8");
  if (hasNoPartialCharges(text))
    return {
      status: "unavailable",
      reason:
        "the receptor has no partial charges (Open Babel's Gasteiger charges failed), so AD4 would lack electrostatics",
      invocation: null,
    };
  await rm(dir, { recursive: true, force: true });
  await mkdir(dir, { recursive: true });
  await writeFile(join(dir, "receptor.pdbqt"), text);
  await writeFile(join(dir, "receptor.gpf"), ad4GridParameterFile(receptorAtomTypes(text), box));
  const args = ["-p", "receptor.gpf", "-l", "receptor.glg"];
  const invocation: ToolInvocation = { tool: "autogrid4", argv: [autogrid, ...args] };
  // AutoGrid writes its maps next to the names in the parameter file: run it inside the folder.
  const run = await runTool(autogrid, args, { cwd: dir, timeoutMs: AUTOGRID_TIMEOUT_MS });
  const failure = describeToolFailure("autogrid4", run, AUTOGRID_TIMEOUT_MS);
  if (failure) {
    const log = await readFile(join(dir, "receptor.glg"), "utf8").catch(() => "");
    const error = log
      .split("\n")
      .find((line) => /ERROR/i.test(line))
      ?.trim();
    return { status: "unavailable", reason: error ? `${failure}: ${error}` : failure, invocation };
  }
  return { status: "ready", prefix: join(dir, "receptor"), invocation };
}
