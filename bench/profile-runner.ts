// Where svc-runner's CPU goes on a real audit (issue 42 item 2): one entitled audit of NCI
// first_5K.smi rows under `node --cpu-prof` (the main thread and every pool worker write a
// profile), then the self time summed over all threads by function and by source file, top first.
// Not a benchmark (no anchor, no goal) and not run by `npm run bench`:
//   node bench/profile-runner.ts [rows=1000] [top=40]     (profiles kept under the printed folder)
import { mkdtempSync, readdirSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startTestEntitlement } from "../packages/runner/test/support/entitlement-harness.ts";
import { auditNci, nciRows } from "./runner-audit.ts";

const rows = Number(process.argv[2] ?? "1000");
const top = Number(process.argv[3] ?? "40");

interface ProfileNode {
  readonly id: number;
  readonly callFrame: { functionName: string; url: string; lineNumber: number };
}
interface Profile {
  readonly nodes: ProfileNode[];
  readonly samples: number[];
  readonly timeDeltas: number[];
}

const root = mkdtempSync(join(tmpdir(), "svc-profile-runner-"));
const profiles = join(root, "profiles");
const service = await startTestEntitlement();
try {
  await service.grant("profile@example.com", 2);
  const token = await service.tokenFor("profile@example.com", 3600);
  const run = await auditNci(
    { root, service, token, rows, nodeFlags: ["--cpu-prof", `--cpu-prof-dir=${profiles}`] },
    nciRows(),
  );
  console.log(`${rows} NCI rows, ${run.workers} workers: ${run.cpu} s CPU, ${run.seconds.toFixed(1)} s wall`);
} finally {
  await service.close();
}

const byFunction = new Map<string, number>();
const byFile = new Map<string, number>();
let total = 0;
const files = readdirSync(profiles).filter((name) => name.endsWith(".cpuprofile"));
for (const name of files) {
  const profile = JSON.parse(readFileSync(join(profiles, name), "utf8")) as Profile;
  const nodes = new Map(profile.nodes.map((node) => [node.id, node.callFrame]));
  profile.samples.forEach((id, at) => {
    const frame = nodes.get(id);
    const us = profile.timeDeltas[at] ?? 0;
    if (frame === undefined) return;
    const file = frame.url.replace(/^.*\/(packages|node_modules)\//, "$1/") || "(native)";
    const key = `${frame.functionName || "(anonymous)"}  ${file}:${frame.lineNumber + 1}`;
    byFunction.set(key, (byFunction.get(key) ?? 0) + us);
    byFile.set(file, (byFile.get(file) ?? 0) + us);
    total += us;
  });
}
const print = (title: string, table: Map<string, number>) => {
  console.log(`\n${title} (self time over ${files.length} threads' samples, ms per compound)`);
  for (const [key, us] of [...table].sort((a, b) => b[1] - a[1]).slice(0, top))
    console.log(
      `${(us / 1000 / rows).toFixed(2).padStart(7)}  ${((100 * us) / total).toFixed(1).padStart(5)}%  ${key}`,
    );
};
print("by function", byFunction);
print("by file", byFile);
console.log(`\nprofiles: ${profiles}`);
