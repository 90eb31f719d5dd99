import { posix } from "node:path";

/** One instruction of a Dockerfile, continuation lines joined. */
export interface Instruction {
  keyword: string;
  /** The text after the keyword. */
  args: string;
  line: number;
}

export interface Stage {
  image: string;
  name?: string;
  instructions: Instruction[];
}

/** Splits a Dockerfile into build stages (Dockerfile reference: FROM starts a stage). */
export function parseDockerfile(text: string): Stage[] {
  const stages: Stage[] = [];
  const lines = text.split("\n");
  for (let i = 0; i < lines.length; i++) {
    const start = i;
    let logical = lines[i] ?? "";
    if (/^\s*(#|$)/.test(logical)) continue;
    while (logical.endsWith("\\") && i + 1 < lines.length) {
      i++;
      const next = lines[i] ?? "";
      if (/^\s*#/.test(next)) continue;
      logical = `${logical.slice(0, -1)} ${next.trim()}`;
    }
    const match = /^\s*(\w+)\s+(.*)$/.exec(logical);
    if (!match) continue;
    const keyword = (match[1] ?? "").toUpperCase();
    const args = (match[2] ?? "").trim();
    if (keyword === "FROM") {
      const [image = "", as, name] = args.split(/\s+/).filter((part) => !part.startsWith("--"));
      stages.push({ image, name: as?.toUpperCase() === "AS" ? name : undefined, instructions: [] });
      continue;
    }
    const stage = stages.at(-1);
    if (!stage) throw new Error(`line ${start + 1}: ${keyword} before FROM`);
    stage.instructions.push({ keyword, args, line: start + 1 });
  }
  return stages;
}

/** Arguments of an exec-form (JSON array) or shell-form instruction. */
export function execForm(args: string): string[] | undefined {
  if (!args.startsWith("[")) return undefined;
  const parsed: unknown = JSON.parse(args);
  return Array.isArray(parsed) ? parsed.map(String) : undefined;
}

export interface CopyInstruction {
  from?: string;
  sources: string[];
  destination: string;
  line: number;
}

/** COPY/ADD with their --from flag, sources and destination. */
export function copiesOf(stage: Stage): CopyInstruction[] {
  return stage.instructions
    .filter((i) => i.keyword === "COPY" || i.keyword === "ADD")
    .map((instruction) => {
      const words = execForm(instruction.args) ?? instruction.args.split(/\s+/);
      const flags = words.filter((w) => w.startsWith("--"));
      const paths = words.filter((w) => !w.startsWith("--"));
      const from = flags.find((f) => f.startsWith("--from="))?.slice("--from=".length);
      return { from, sources: paths.slice(0, -1), destination: paths.at(-1) ?? "", line: instruction.line };
    });
}

/** The working directory in effect at the end of a stage. */
export function workdirOf(stage: Stage): string {
  let dir = "/";
  for (const instruction of stage.instructions) {
    if (instruction.keyword === "WORKDIR") dir = posix.resolve(dir, instruction.args);
  }
  return dir;
}

/**
 * The repository path an absolute image path was copied from by a COPY of the build context
 * (not --from) in this stage, or undefined when no such COPY covers it. The last COPY wins.
 */
export function repoPathOf(stage: Stage, imagePath: string): string | undefined {
  let dir = "/";
  let found: string | undefined;
  for (const instruction of stage.instructions) {
    if (instruction.keyword === "WORKDIR") dir = posix.resolve(dir, instruction.args);
    if (instruction.keyword !== "COPY" && instruction.keyword !== "ADD") continue;
    const [copy] = copiesOf({ ...stage, instructions: [instruction] });
    if (!copy || copy.from || copy.sources.length !== 1) continue;
    const destination = posix.resolve(dir, copy.destination);
    const source = copy.sources[0] ?? "";
    if (imagePath === destination) found = source;
    else if (imagePath.startsWith(`${destination}/`))
      found = posix.join(source, imagePath.slice(destination.length + 1));
  }
  return found;
}
