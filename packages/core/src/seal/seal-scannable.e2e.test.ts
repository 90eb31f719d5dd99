import assert from "node:assert/strict";
import { execFileSync, spawnSync } from "node:child_process";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { makeSealFixture } from "./seal-fixture.ts";
import { barcodeContent } from "./seal-payload.ts";

// Issue 2 §4: the barcode channel is a standard QR code an ordinary scanner reads. Here the seal
// is rasterised by an independent SVG renderer (librsvg) and read by an independent decoder
// (ZBar), as a phone would see a printed seal. CI installs both (Debian librsvg2-bin, zbar-tools);
// elsewhere the test is skipped when they are missing.
const tools = ["rsvg-convert", "zbarimg"];
const missing = tools.filter((tool) => spawnSync("sh", ["-c", `command -v ${tool}`]).status !== 0);

let dir: string;
before(async () => {
  dir = await mkdtemp(join(tmpdir(), "svc-seal-scan-"));
});
after(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe("the seal's QR code read by an ordinary scanner", () => {
  if (missing.length > 0 && process.env.CI === "true") {
    it("has its tools installed in CI", () => assert.fail(`missing: ${missing.join(", ")}`));
    return;
  }
  for (const [name, overrides] of [
    ["offline content", {}],
    ["verification link", { verify_url: "https://verify.example/seal" }],
  ] as const) {
    it(`decodes the ${name} from a 480 px rendering`, {
      skip: missing.length > 0 && `missing ${missing}`,
    }, async () => {
      const { bundle } = makeSealFixture(overrides);
      const svg = join(dir, `${name.replace(/ /g, "-")}.svg`);
      const png = svg.replace(/\.svg$/, ".png");
      await writeFile(svg, bundle.sealSvg);
      execFileSync("rsvg-convert", ["-w", "480", "-o", png, svg], { stdio: "pipe" });
      const decoded = execFileSync("zbarimg", ["--quiet", "--raw", png], {
        encoding: "utf8",
        stdio: ["ignore", "pipe", "pipe"],
      }).trim();
      assert.equal(decoded, barcodeContent(bundle.payload));
    });
  }
});
