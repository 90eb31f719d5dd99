import { structureToolVersions } from "../../src/structure/tool-versions.ts";

/**
 * The named versions from `structureToolVersions`, flattened: `vina`, `obabel`, `xtb`, `mopac`,
 * `python.<module>` (e.g. `python.openmm`) and `debian.<package>` (e.g. `debian.xtb`); an unknown
 * name or a missing tool is null.
 */
export async function flatToolVersions(names: readonly string[]): Promise<Record<string, string | null>> {
  const versions = await structureToolVersions();
  const flat: Record<string, string | null> = {
    vina: versions.vina,
    obabel: versions.obabel,
    autogrid: versions.autogrid,
    xtb: versions.xtb ?? null,
    mopac: versions.mopac ?? null,
  };
  for (const [key, value] of Object.entries(versions.python ?? {})) flat[`python.${key}`] = value;
  for (const [key, value] of Object.entries(versions.debianPackages)) flat[`debian.${key}`] = value;
  return Object.fromEntries(names.map((name) => [name, flat[name] ?? null]));
}
