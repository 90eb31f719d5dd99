import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { chmod, mkdir, symlink, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import { gunzipSync } from "node:zlib";
import { createTempDir, type TempDir } from "@svc/testing";
import { type ServiceHarness, startServiceHarness } from "./service-harness.ts";

interface ErrorBody {
  error: { code: string; message: string; request_id: string };
}

const RUN = "run_20260101T000000Z";
const LINKED_RUN = "run_with_links";

async function seedRun(outputRoot: string, secretDir: string): Promise<void> {
  const run = join(outputRoot, RUN);
  for (const dir of [
    "results",
    "thresholds",
    "seal",
    "repro_pack/container",
    "repro_pack/environment",
    "plans",
    "aaa",
  ])
    await mkdir(join(run, dir), { recursive: true });
  await writeFile(join(run, "results/summary.json"), '{"ok":true}\n');
  await writeFile(join(run, "results/combined_unified_computational_outputs.json"), "{}\n");
  await writeFile(join(run, "results/report.html"), "<html><script>alert(1)</script></html>");
  await writeFile(join(run, "thresholds/category_scores.json"), "{}");
  await writeFile(join(run, "seal/seal.svg"), "<svg/>");
  await writeFile(join(run, "run_manifest.json"), "{}");
  await writeFile(join(run, "aaa/first.txt"), "a");
  await writeFile(join(run, "repro_pack/manifest.json"), '{"pack":1}');
  await writeFile(join(run, "repro_pack/container/run.sh"), "#!/bin/sh\necho run\n");
  await chmod(join(run, "repro_pack/container/run.sh"), 0o755);
  await writeFile(join(run, "repro_pack/environment/node.json"), '{"node":"24"}');
  await writeFile(join(run, "big.bin"), Buffer.alloc(100_000, 7));
  // A run holding links (the runner never writes one): one inside the run, two leading out of it.
  // Core's one policy refuses all three, in listings and downloads alike.
  const linked = join(outputRoot, LINKED_RUN);
  await mkdir(join(linked, "results"), { recursive: true });
  await writeFile(join(linked, "results/summary.json"), '{"ok":true}\n');
  await writeFile(join(secretDir, "secret.txt"), "TOP SECRET");
  await symlink(join(secretDir, "secret.txt"), join(linked, "results/escape.txt"));
  await symlink(secretDir, join(linked, "escape-dir"));
  await symlink(join(linked, "results/summary.json"), join(linked, "summary-link.json"));
  // A run directory that is itself a link out of the output root.
  await symlink(secretDir, join(outputRoot, "run_linked_out"));
  await mkdir(join(outputRoot, "run_without_pack/results"), { recursive: true });
}

describe("output endpoints", () => {
  let harness: ServiceHarness;
  let secret: TempDir;
  before(async () => {
    harness = await startServiceHarness();
    secret = await createTempDir("svc-secret-"); // outside the output root
    await seedRun(harness.outputRoot, secret.path);
  });
  after(async () => {
    await harness.close();
    await secret.remove();
  });

  test("runs/check defaults to the two required result files and reports size and time", async () => {
    const response = await harness.call(`/api/runs/check?runId=${RUN}`);
    assert.equal(response.status, 200);
    const body = (await response.json()) as {
      allPresent: boolean;
      files: { path: string; exists: boolean; size: number }[];
    };
    assert.equal(body.allPresent, true);
    assert.deepEqual(
      body.files.map((file) => [file.path, file.exists]),
      [
        ["results/combined_unified_computational_outputs.json", true],
        ["results/summary.json", true],
      ],
    );
    assert.equal(body.files[1]?.size, 12);
  });

  test("runs/check with paths reports a missing file and allPresent false; unknown run is runExists false", async () => {
    let body = (await (
      await harness.call(`/api/runs/check?runId=${RUN}&paths=results/summary.json,results/metrics.json`)
    ).json()) as {
      allPresent: boolean;
      files: { exists: boolean }[];
    };
    assert.equal(body.allPresent, false);
    assert.deepEqual(
      body.files.map((file) => file.exists),
      [true, false],
    );
    body = (await (await harness.call("/api/runs/check?runId=run_nope")).json()) as typeof body & {
      runExists: boolean;
    };
    assert.equal((body as unknown as { runExists: boolean }).runExists, false);
    assert.equal(body.allPresent, false);
    const traversal = await harness.call(`/api/runs/check?runId=${RUN}&paths=../../etc/passwd`);
    assert.equal(traversal.status, 400);
  });

  test("list without prefix puts results/, thresholds/, seal/, repro_pack/ first, depth first", async () => {
    const response = await harness.call(`/api/outputs/list?runId=${RUN}`);
    assert.equal(response.status, 200);
    const body = (await response.json()) as {
      entries: { path: string; type: string; size: number; modified: string }[];
      wellKnown: Record<string, boolean>;
    };
    const topLevel = body.entries
      .filter((entry) => !entry.path.slice(0, -1).includes("/"))
      .map((entry) => entry.path);
    assert.deepEqual(topLevel.slice(0, 4), ["results/", "thresholds/", "seal/", "repro_pack/"]);
    assert.deepEqual(topLevel.slice(4), ["aaa/", "big.bin", "plans/", "run_manifest.json"]);
    assert.deepEqual(body.wellKnown, {
      "results/": true,
      "thresholds/": true,
      "seal/": true,
      "repro_pack/": true,
    });
    const paths = body.entries.map((entry) => entry.path);
    assert.ok(paths.includes("results/summary.json"));
    assert.deepEqual(paths.slice(0, 3), [
      "results/",
      "results/combined_unified_computational_outputs.json",
      "results/report.html",
    ]);
    const summary = body.entries.find((entry) => entry.path === "results/summary.json");
    assert.equal(summary?.type, "file");
    assert.equal(summary?.size, 12);
    assert.ok(!Number.isNaN(Date.parse(summary?.modified ?? "")));
  });

  test("list with a prefix lists that directory or filters by the prefix", async () => {
    let body = (await (await harness.call(`/api/outputs/list?runId=${RUN}&prefix=repro_pack/`)).json()) as {
      entries: { path: string }[];
    };
    assert.deepEqual(
      body.entries.map((entry) => entry.path),
      [
        "repro_pack/container/",
        "repro_pack/container/run.sh",
        "repro_pack/environment/",
        "repro_pack/environment/node.json",
        "repro_pack/manifest.json",
      ],
    );
    body = (await (
      await harness.call(`/api/outputs/list?runId=${RUN}&prefix=results/sum`)
    ).json()) as typeof body;
    assert.deepEqual(
      body.entries.map((entry) => entry.path),
      ["results/summary.json"],
    );
    const refused = await harness.call(`/api/outputs/list?runId=${RUN}&prefix=../`);
    assert.equal(refused.status, 400);
  });

  test("list refuses a run holding a symbolic link, naming it (core's one walker policy), with or without a prefix", async () => {
    for (const [query, named] of [
      ["", /escape-dir: symbolic link/],
      ["&prefix=results/", /results\/escape\.txt: symbolic link/],
      ["&prefix=escape-dir/", /escape-dir is a symbolic link/],
      // a filtering prefix walks its parent (here the whole run): the first link found is named
      ["&prefix=summary", /^(escape-dir|summary-link\.json|results\/escape\.txt): symbolic link/],
    ] as const) {
      const response = await harness.call(`/api/outputs/list?runId=${LINKED_RUN}${query}`);
      const text = await response.text();
      assert.equal(response.status, 400, query);
      const { error } = JSON.parse(text) as ErrorBody;
      assert.equal(error.code, "PATH_REFUSED", query);
      assert.match(error.message, named, query);
      assert.ok(!text.includes("TOP SECRET"));
    }
  });

  test("download streams a file with type, length, attachment disposition and ETag", async () => {
    const response = await harness.call(`/api/outputs/download?runId=${RUN}&path=results/summary.json`);
    assert.equal(response.status, 200);
    assert.equal(response.headers.get("content-type"), "application/json");
    assert.equal(response.headers.get("content-length"), "12");
    assert.match(response.headers.get("content-disposition") ?? "", /^attachment; filename="summary.json"/);
    assert.match(response.headers.get("etag") ?? "", /^"[0-9a-f-]+"$/);
    assert.equal(response.headers.get("accept-ranges"), "bytes");
    assert.equal(await response.text(), '{"ok":true}\n');
    assert.match(response.headers.get("x-request-id") ?? "", /.+/);
    const html = await harness.call(`/api/outputs/download?runId=${RUN}&path=results/report.html`);
    assert.equal(html.headers.get("x-content-type-options"), "nosniff");
    assert.match(html.headers.get("content-disposition") ?? "", /^attachment/);
    await html.arrayBuffer();
  });

  test("download honours Range (206), suffix ranges, If-None-Match (304) and answers 416 outside the file", async () => {
    const path = `/api/outputs/download?runId=${RUN}&path=big.bin`;
    let response = await harness.call(path, { headers: { range: "bytes=10-19" } });
    assert.equal(response.status, 206);
    assert.equal(response.headers.get("content-range"), "bytes 10-19/100000");
    assert.equal(response.headers.get("content-length"), "10");
    assert.equal((await response.arrayBuffer()).byteLength, 10);
    response = await harness.call(path, { headers: { range: "bytes=-5" } });
    assert.equal(response.status, 206);
    assert.equal(response.headers.get("content-range"), "bytes 99995-99999/100000");
    await response.arrayBuffer();
    response = await harness.call(path, { headers: { range: "bytes=100000-" } });
    assert.equal(response.status, 416);
    assert.equal(response.headers.get("content-range"), "bytes */100000");
    assert.equal(((await response.json()) as ErrorBody).error.code, "RANGE_NOT_SATISFIABLE");
    const full = await harness.call(path);
    const etag = full.headers.get("etag") ?? "";
    assert.equal((await full.arrayBuffer()).byteLength, 100_000);
    response = await harness.call(path, { headers: { "if-none-match": etag } });
    assert.equal(response.status, 304);
    response = await harness.call(path, { headers: { range: "bytes=0-0", "if-range": '"stale"' } });
    assert.equal(response.status, 200, "a stale If-Range gets the whole file");
    await response.arrayBuffer();
  });

  test("download refuses traversal, absolute, encoded separators, NUL, backslash and links out of the run", async () => {
    const cases: [string, number, string][] = [
      ["../../../etc/passwd", 400, "PATH_REFUSED"],
      ["results/../../x", 400, "PATH_REFUSED"],
      ["/etc/passwd", 400, "PATH_REFUSED"],
      ["results%252Fsummary.json", 400, "PATH_REFUSED"],
      ["..%252F..%252Fetc%252Fpasswd", 400, "PATH_REFUSED"],
      ["%252e%252e/x", 400, "PATH_REFUSED"],
      ["results/summary.json%00.txt", 400, "PATH_REFUSED"],
      ["results%5Csummary.json", 400, "PATH_REFUSED"],
      ["results//summary.json", 400, "PATH_REFUSED"],
      ["results", 400, "INVALID_INPUT"],
      ["results/none.json", 404, "OUTPUT_NOT_FOUND"],
    ];
    for (const [path, status, code] of cases) {
      const response = await harness.call(`/api/outputs/download?runId=${RUN}&path=${path}`);
      const text = await response.text();
      assert.equal(response.status, status, path);
      assert.equal((JSON.parse(text) as ErrorBody).error.code, code, path);
      assert.ok(!text.includes("TOP SECRET"), path);
    }
    // Links are refused wherever they lead, even inside the run: run folders hold none.
    for (const path of ["results/escape.txt", "escape-dir/secret.txt", "summary-link.json"]) {
      const response = await harness.call(`/api/outputs/download?runId=${LINKED_RUN}&path=${path}`);
      const text = await response.text();
      assert.equal(response.status, 400, path);
      assert.equal((JSON.parse(text) as ErrorBody).error.code, "PATH_REFUSED", path);
      assert.match((JSON.parse(text) as ErrorBody).error.message, /is a symbolic link/, path);
      assert.ok(!text.includes("TOP SECRET"), path);
    }
    const plain = await harness.call(`/api/outputs/download?runId=${LINKED_RUN}&path=results/summary.json`);
    assert.equal(plain.status, 200, "a regular file beside the links is served");
    await plain.arrayBuffer();
  });

  test("runId is validated and a run directory linked out of the output root is refused", async () => {
    for (const [runId, status] of [
      ["..", 400],
      ["a/b", 400],
      ["run%2F..", 400],
      ["run_linked_out", 400],
      ["run_missing", 404],
    ] as const) {
      const response = await harness.call(`/api/outputs/list?runId=${runId}`);
      assert.equal(response.status, status, runId);
      await response.arrayBuffer();
    }
  });

  test("repro-pack.tgz refuses a pack holding a symbolic link (core's one walker policy) instead of leaving it out", async () => {
    const linked = "run_linked_pack";
    await mkdir(join(harness.outputRoot, linked, "repro_pack"), { recursive: true });
    await writeFile(join(harness.outputRoot, linked, "repro_pack/manifest.json"), "{}");
    await symlink(
      join(harness.outputRoot, linked, "repro_pack/manifest.json"),
      join(harness.outputRoot, linked, "repro_pack/alias.json"),
    );
    const response = await harness.call(`/api/outputs/repro-pack.tgz?runId=${linked}`);
    assert.equal(response.status, 400);
    const { error } = (await response.json()) as { error: { code: string; message: string } };
    assert.equal(error.code, "PATH_REFUSED");
    assert.match(error.message, /repro_pack\/alias\.json: symbolic link/);
  });

  test("repro-pack.tgz streams a deterministic gzip tar: same bytes twice, sorted entries, fixed mode and mtime", async () => {
    const fetchPack = async () => {
      const response = await harness.call(`/api/outputs/repro-pack.tgz?runId=${RUN}`);
      assert.equal(response.status, 200);
      assert.equal(response.headers.get("content-type"), "application/gzip");
      assert.match(
        response.headers.get("content-disposition") ?? "",
        /^attachment; filename=".*repro_pack\.tgz"/,
      );
      return Buffer.from(await response.arrayBuffer());
    };
    const first = await fetchPack();
    await new Promise((resolve) => setTimeout(resolve, 20));
    // Touching a file's mtime must not change the archive.
    await writeFile(join(harness.outputRoot, RUN, "repro_pack/manifest.json"), '{"pack":1}');
    const second = await fetchPack();
    const hash = (bytes: Buffer) => createHash("sha256").update(bytes).digest("hex");
    assert.equal(hash(first), hash(second));
    const tar = gunzipSync(first);
    const headers: { name: string; mode: number; mtime: number; uid: number }[] = [];
    for (let offset = 0; offset + 512 <= tar.length; ) {
      const block = tar.subarray(offset, offset + 512);
      if (block.every((byte) => byte === 0)) break;
      const field = (start: number, length: number) =>
        block
          .subarray(start, start + length)
          .toString("utf8")
          .replace(/\0.*$/s, "")
          .trim();
      const name = field(0, 100);
      const size = Number.parseInt(field(124, 12) || "0", 8);
      headers.push({
        name,
        mode: Number.parseInt(field(100, 8), 8),
        uid: Number.parseInt(field(108, 8) || "0", 8),
        mtime: Number.parseInt(field(136, 12), 8),
      });
      offset += 512 + Math.ceil(size / 512) * 512;
    }
    assert.deepEqual(
      headers.map((header) => header.name),
      [
        "repro_pack/",
        "repro_pack/container/",
        "repro_pack/container/run.sh",
        "repro_pack/environment/",
        "repro_pack/environment/node.json",
        "repro_pack/manifest.json",
      ],
    );
    assert.deepEqual(
      headers.map((header) => header.mode.toString(8)),
      ["755", "755", "755", "755", "644", "644"],
    );
    const fixed = Date.parse("2000-01-01T00:00:00Z") / 1000;
    for (const header of headers) {
      assert.equal(header.mtime, fixed, header.name);
      assert.equal(header.uid, 0, header.name);
    }
  });

  test("repro-pack.tgz is 404 REPRO_PACK_NOT_FOUND before repro_pack/ exists", async () => {
    const response = await harness.call("/api/outputs/repro-pack.tgz?runId=run_without_pack");
    assert.equal(response.status, 404);
    assert.equal(((await response.json()) as ErrorBody).error.code, "REPRO_PACK_NOT_FOUND");
  });
});
