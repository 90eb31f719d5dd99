import { runTool } from "./run-tool.ts";

/** Debian's python3: the one with python3-rdkit, python3-openbabel and python3-pdbfixer. */
export const STRUCTURE_PYTHON = "/usr/bin/python3";

/** The versions of every program the structure-based modules call, for `repro_pack/environment/`. */
export interface StructureToolVersions {
  /** `vina --version`, e.g. "AutoDock Vina v1.2.3". */
  readonly vina: string | null;
  /** `obabel -V`, e.g. "Open Babel 3.1.1 -- Jan  4 2023 -- 09:58:24". */
  readonly obabel: string | null;
  /** First line of `autogrid4 --version`, e.g. "AutoGrid 4.2.6" (the deep profile's AD4 maps). */
  readonly autogrid: string | null;
  /** `xtb --version`'s version line, e.g. "xtb version 6.5.1 (unknown)" (GFN2-xTB, issue 40). */
  readonly xtb?: string | null;
  /** `mopac -V`, e.g. "MOPAC version 22.0.6 commit unknown" (the PM7 check, issue 40). */
  readonly mopac?: string | null;
  /** Python modules as they report themselves (PDBFixer 1.8.1's module still says "1.7"). */
  readonly python: Readonly<Record<string, string>> | null;
  /** Debian package versions (`dpkg-query`), the versions to cite. */
  readonly debianPackages: Readonly<Record<string, string>>;
}

const DEBIAN_PACKAGES = [
  "autodock-vina",
  "autogrid",
  "openbabel",
  "python3-openbabel",
  "python3-pdbfixer",
  "python3-simtk",
  "python3-rdkit",
  // Ligand physics (issue 40).
  "xtb",
  "mopac",
  "python3-parmed",
  "libopenmm-plugins",
  // cryptic_pockets' cavities (issue 40 item 5): concavity prints no version of its own.
  "concavity",
];

const PYTHON_PROBE = [
  "import json, rdkit, openmm",
  "try:\n  import parmed\n  parmed_version = parmed.__version__\nexcept ImportError:\n  parmed_version = None",
  "platforms = [openmm.Platform.getPlatform(i).getName() for i in range(openmm.Platform.getNumPlatforms())]",
  "import pdbfixer.pdbfixer as p",
  "from openbabel import openbabel as ob",
  "print(json.dumps({'rdkit': rdkit.__version__, 'openmm': openmm.__version__, 'openmm_platforms': ','.join(platforms), 'pdbfixer': p.__version__, 'openbabel': ob.OBReleaseVersion(), 'parmed': parmed_version}))",
].join("\n");

let cached: Promise<StructureToolVersions> | undefined;

/** Probes the tools once per process; a missing tool is null, never an exception. */
export function structureToolVersions(): Promise<StructureToolVersions> {
  cached ??= probe();
  return cached;
}

async function probe(): Promise<StructureToolVersions> {
  const [vina, obabel, autogrid, python, dpkg, xtb, mopac] = await Promise.all([
    runTool("vina", ["--version"]),
    runTool("obabel", ["-V"]),
    runTool("autogrid4", ["--version"]),
    runTool(STRUCTURE_PYTHON, ["-c", PYTHON_PROBE]),
    // dpkg-query's own format fields, not a template string.
    runTool("dpkg-query", ["-W", `-f=${"$"}{Package} ${"$"}{Version}\n`, ...DEBIAN_PACKAGES]),
    runTool("xtb", ["--version"]),
    runTool("mopac", ["-V"]),
  ]);
  const debianPackages: Record<string, string> = {};
  for (const line of dpkg.stdout.split("\n")) {
    const [name, version] = line.trim().split(" ");
    if (name && version) debianPackages[name] = version;
  }
  return {
    vina: vina.status === 0 ? vina.stdout.trim() : null,
    obabel: obabel.status === 0 ? obabel.stdout.trim() : null,
    autogrid: autogrid.status === 0 ? (autogrid.stdout.trim().split("\n")[0]?.trim() ?? null) : null,
    xtb: xtb.status === 0 ? (/xtb version [^\n]*/.exec(xtb.stdout)?.[0]?.trim() ?? null) : null,
    mopac: mopac.status === 0 ? (mopac.stdout.trim().split("\n")[0]?.trim() ?? null) : null,
    python: python.status === 0 ? (JSON.parse(python.stdout) as Record<string, string>) : null,
    debianPackages,
  };
}
