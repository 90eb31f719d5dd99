import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";

// The card's 3D pose viewer (issue 25 item 10): 3Dmol.js (Rego & Koes, Bioinformatics 2015, 31,
// 1322; npm `3dmol`, BSD-3-Clause) inlined once per report, plus the small script below that opens
// a viewer when asked. Both are allowed by their SHA-256 in the page's CSP (CSP Level 3 §8.3
// hash-source), like the table script; the pose and the pocket come from JSON data blocks in the
// page, so nothing is fetched. 3Dmol's only eval is for a `data-callback` attribute of its
// `viewer_3Dmol` auto-loader, which the report never uses (and the CSP would refuse it).

const require = createRequire(import.meta.url);

/**
 * Live viewers at once: each holds a WebGL context and browsers drop the oldest past about 16, so
 * the fifth opened closes the first.
 */
export const MAX_LIVE_VIEWERS = 4;

/** Opens a card's viewer on its button: the pocket's residues as lines, lining ones as sticks, the pose, the box. */
export const POSE_VIEWER_SCRIPT = `(() => {
  const live = [];
  const data = (id) => {
    const el = id ? document.getElementById(id) : null;
    return el ? JSON.parse(el.textContent) : null;
  };
  const close = (entry) => {
    const canvas = entry.stage.querySelector("canvas");
    const gl = canvas && (canvas.getContext("webgl2") || canvas.getContext("webgl"));
    const lose = gl && gl.getExtension("WEBGL_lose_context");
    if (lose) lose.loseContext();
    entry.stage.remove();
    entry.holder.classList.remove("live");
  };
  const open = (holder) => {
    if (holder.classList.contains("live")) return;
    const note = holder.querySelector(".pose-note");
    const $3D = window.$3Dmol;
    const pose = data(holder.dataset.pose);
    const pocket = data(holder.dataset.pocket);
    if (!$3D || !pose || !pocket) return;
    while (live.length >= ${MAX_LIVE_VIEWERS}) close(live.shift());
    const stage = document.createElement("div");
    stage.className = "pose-stage";
    holder.appendChild(stage);
    let viewer = null;
    try {
      viewer = $3D.createViewer(stage, { backgroundColor: "white", preserveDrawingBuffer: true });
    } catch (error) {
      viewer = null;
    }
    if (!viewer) {
      stage.remove();
      if (note) note.textContent = "3D view unavailable: this browser gives the page no WebGL.";
      return;
    }
    const protein = viewer.addModel(pocket.pdb, "pdb");
    protein.setStyle({}, { line: { color: "#9a9a9a" } });
    for (const [chain, resi] of pose.contacts) {
      const selection = chain ? { chain, resi } : { resi };
      protein.setStyle(selection, { stick: { radius: 0.12 } });
    }
    const ligand = viewer.addModel(pose.sdf, "sdf");
    ligand.setStyle({}, { stick: { radius: 0.25, colorscheme: "greenCarbon" } });
    if (pocket.box) {
      const [x, y, z] = pocket.box.center;
      const [w, h, d] = pocket.box.size;
      viewer.addBox({ center: { x, y, z }, dimensions: { w, h, d }, wireframe: true, color: "#1f4e9e" });
    }
    viewer.zoomTo({ model: ligand });
    viewer.zoom(0.7);
    viewer.render();
    holder.classList.add("live");
    live.push({ holder, stage });
  };
  document.addEventListener("click", (event) => {
    const button = event.target.closest && event.target.closest("button.pose-open");
    if (button) open(button.closest(".pose-viewer"));
  });
})();`;

/** An inline script and its CSP hash-source (base64 SHA-256 of the exact text between the script tags). */
export interface InlineScript {
  readonly text: string;
  readonly hash: string;
}

let scripts: readonly InlineScript[] | null = null;

/**
 * 3Dmol's minified build (with its licence line: BSD-3-Clause asks that the notice be kept) and the
 * viewer script, read once when a report first has a pose to show.
 */
export function poseViewerScripts(): readonly InlineScript[] {
  if (scripts === null) {
    const version = (require("3dmol/package.json") as { version: string }).version;
    const library = `/*! 3Dmol.js ${version} (npm 3dmol), BSD-3-Clause, Copyright (c) David Koes and contributors; https://github.com/3dmol/3Dmol.js/blob/master/LICENSE */\n${readFileSync(
      require.resolve("3dmol/build/3Dmol-min.js"),
      "utf8",
    )}`;
    scripts = [library, POSE_VIEWER_SCRIPT].map((text) => ({ text, hash: hashSource(text) }));
  }
  return scripts;
}

function hashSource(text: string): string {
  return `'sha256-${createHash("sha256").update(text, "utf8").digest("base64")}'`;
}
