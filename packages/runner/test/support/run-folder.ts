import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { type TrustedKey, verifySealFolder } from "@svc/core";

/** The verdict on a run folder's seal/ (seal.svg, seal.json, seal.sig) against `keys`. */
export async function verifyRunSeal(runDir: string, keys: readonly TrustedKey[]) {
  const seal = join(runDir, "seal");
  return verifySealFolder(
    {
      sealSvg: await readFile(join(seal, "seal.svg"), "utf8"),
      sealJson: await readFile(join(seal, "seal.json"), "utf8"),
      sealSig: await readFile(join(seal, "seal.sig"), "utf8"),
    },
    keys,
  );
}

export async function readJson(path: string) {
  return JSON.parse(await readFile(path, "utf8"));
}
