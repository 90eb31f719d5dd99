import { readdir, stat } from "node:fs/promises";
import { basename, dirname, extname, join, relative, resolve } from "node:path";
import { svcCommand } from "../config/svc-command.ts";

const PORTFOLIO_EXTENSIONS = new Set([".csv", ".tsv", ".txt", ".smi", ".sdf", ".sd"]);

const isFile = (path: string) =>
  stat(path).then(
    (s) => s.isFile(),
    () => false,
  );

/**
 * Why `dir` is not a project folder and what to type instead (issue 28 item 6), or null when it is
 * one (it holds `01_sources/sources.json`). Looks where a user's path usually goes wrong: the path does
 * not exist (from which folder it was read), it is the `01_sources/` folder itself or the
 * `sources.json` file, it holds project folders, or it holds a portfolio file not yet made a project.
 */
export async function explainProjectPath(dir: string): Promise<string | null> {
  const path = resolve(dir);
  if (await isFile(join(path, "01_sources", "sources.json"))) return null;
  const svc = svcCommand();
  // Relative to where the user is when it is below it; absolute otherwise (no ../../../tmp/...).
  const shown = (p: string) => {
    const near = relative(process.cwd(), p);
    return near === "" ? "." : near.startsWith("..") ? p : near;
  };
  const info = await stat(path).catch(() => null);
  if (info === null)
    return `${dir} does not exist (read from ${process.cwd()}); give the folder that holds 01_sources/, e.g. ${svc} project check examples/demo from the repository`;
  if (info.isFile()) {
    if (basename(path) === "sources.json" && basename(dirname(path)) === "01_sources")
      return `${dir} is the project's sources.json; give the project folder: ${shown(dirname(dirname(path)))}`;
    if (PORTFOLIO_EXTENSIONS.has(extname(path).toLowerCase()))
      return `${dir} is a file, not a project folder; make a project of it first: ${svc} project init ${shown(path)}`;
    return `${dir} is a file, not a project folder (one that holds 01_sources/sources.json)`;
  }
  if (basename(path) === "01_sources" && (await isFile(join(path, "sources.json"))))
    return `${dir} is the project's 01_sources/ folder; give the folder above it: ${shown(dirname(path))}`;
  const entries = await readdir(path, { withFileTypes: true }).catch(() => []);
  const projects: string[] = [];
  for (const entry of entries)
    if (entry.isDirectory() && (await isFile(join(path, entry.name, "01_sources", "sources.json"))))
      projects.push(shown(join(path, entry.name)));
  if (projects.length > 0)
    return `${dir} holds project folders, it is not one; give one of: ${projects.slice(0, 5).join(", ")}${projects.length > 5 ? ", ..." : ""}`;
  const portfolios = entries
    .filter((entry) => entry.isFile() && PORTFOLIO_EXTENSIONS.has(extname(entry.name).toLowerCase()))
    .map((entry) => shown(join(path, entry.name)));
  if (portfolios.length > 0)
    return `${dir} has no 01_sources/sources.json; make a project from its portfolio: ${svc} project init ${portfolios[0]}`;
  return `${dir} has no 01_sources/sources.json; create one with ${svc} project init <portfolio.csv|.tsv|.txt|.smi|.sdf> --name <project>`;
}
