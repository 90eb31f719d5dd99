import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type { InteractionType } from "./interaction-profile.ts";

/** One interaction reduced to what "identical" compares: type, residue and ligand atom(s) (test support). */
export interface InteractionKey {
  readonly type: InteractionType;
  readonly key: string;
}

export const PLIP_COMMAND = "/usr/bin/plipcmd";
const NATIVE_PYTHON = "/usr/bin/python3";

export interface PreparedPose {
  readonly dir: string;
  readonly ligandFirstSerial: number;
}

/** Protonates the receptor and each ligand of an SDF, writing one merged PDB per ligand (native script). */
export function prepareComplexes(receptor: string, ligands: string, outDir: string): PreparedPose[] {
  const script = fileURLToPath(new URL("../../../test/native/prepare-plip-complex.py", import.meta.url));
  const out = execFileSync(NATIVE_PYTHON, [script, receptor, ligands, outDir], {
    encoding: "utf8",
    stdio: ["ignore", "pipe", "pipe"],
  });
  return JSON.parse(out) as PreparedPose[];
}

/** Runs Debian's PLIP on a merged complex (hydrogens as given) and returns its XML report. */
export function runPlip(dir: string): string {
  execFileSync(
    PLIP_COMMAND,
    ["-f", join(dir, "complex.pdb"), "-x", "--nohydro", "-q", "-o", join(dir, "plip")],
    {
      stdio: ["ignore", "ignore", "pipe"],
    },
  );
  return readFileSync(join(dir, "plip", "report.xml"), "utf8");
}

const SECTIONS: readonly [string, InteractionType][] = [
  ["hydrophobic_interaction", "hydrophobic"],
  ["hydrogen_bond", "hydrogen_bond"],
  ["salt_bridge", "salt_bridge"],
  ["pi_stack", "pi_stacking"],
  ["pi_cation_interaction", "pi_cation"],
  ["halogen_bond", "halogen_bond"],
  ["metal_complex", "metal_complex"],
];

/** The interactions of PLIP's XML report as keys; ligand atoms converted from PDB serials to ligand indices. */
export function plipKeys(xml: string, ligandFirstSerial: number): InteractionKey[] {
  const keys: InteractionKey[] = [];
  const lig = (serial: string) => Number.parseInt(serial, 10) - ligandFirstSerial;
  for (const [element, type] of SECTIONS) {
    const pattern = new RegExp(`<${element} id="\\d+">([\\s\\S]*?)</${element}>`, "g");
    for (const match of xml.matchAll(pattern)) {
      const body = match[1] ?? "";
      const field = (name: string) => new RegExp(`<${name}>([^<]*)</${name}>`).exec(body)?.[1] ?? "";
      const list = (name: string) =>
        [...(new RegExp(`<${name}>([\\s\\S]*?)</${name}>`).exec(body)?.[1] ?? "").matchAll(/>(\d+)</g)]
          .map((m) => lig(m[1] ?? ""))
          .sort((a, b) => a - b);
      const residue = `${field("reschain")}:${field("resnr")}:${field("restype")}`;
      let detail = "";
      if (type === "hydrophobic") detail = `${lig(field("ligcarbonidx"))}`;
      if (type === "hydrogen_bond") {
        const proteinIsDonor = field("protisdon") === "True";
        detail = `${lig(field(proteinIsDonor ? "acceptoridx" : "donoridx"))}|${proteinIsDonor}`;
      }
      if (type === "salt_bridge")
        detail = `${list("lig_idx_list").join(",")}|${field("protispos") === "True"}`;
      if (type === "pi_stacking") {
        detail = `${list("lig_idx_list").join(",")}|${field("type") === "P" ? "parallel" : "t_shaped"}`;
      }
      if (type === "pi_cation")
        detail = `${list("lig_idx_list").join(",")}|${field("protcharged") === "True"}`;
      if (type === "halogen_bond") detail = `${lig(field("don_idx"))}`;
      if (type === "metal_complex") detail = `${field("metal_idx")}|${field("target_idx")}`;
      keys.push({ type, key: `${type}|${residue}|${detail}` });
    }
  }
  return keys;
}
