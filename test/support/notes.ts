import { cp, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { findObject, type RenderOptions, renderChart } from "./render.ts";
import { repoRoot } from "./repo-root.ts";

/**
 * The text of a chart's NOTES.txt for the given values. `helm template` never prints NOTES and
 * `helm install --dry-run` needs a cluster, so a copy of the chart renders the same template text
 * as a named template into a ConfigMap.
 */
export async function renderNotes(options: RenderOptions): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), "svc-notes-"));
  try {
    const copy = join(dir, "chart");
    await cp(join(repoRoot, options.chart), copy, { recursive: true });
    const notes = await readFile(join(copy, "templates", "NOTES.txt"), "utf8");
    await rm(join(copy, "templates", "NOTES.txt"));
    await writeFile(
      join(copy, "templates", "_notes-preview.tpl"),
      `{{- define "notes-preview" -}}\n${notes}{{- end -}}\n`,
    );
    await writeFile(
      join(copy, "templates", "notes-preview.yaml"),
      'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: notes-preview\ndata:\n  notes: {{ include "notes-preview" . | quote }}\n',
    );
    const objects = await renderChart({ ...options, chart: copy });
    return (findObject(objects, "ConfigMap", "notes-preview").data as { notes: string }).notes;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
