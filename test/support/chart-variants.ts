import assert from "node:assert/strict";
import { before, it } from "node:test";
import { assertWellFormed, type Container, podTemplateOf } from "./chart-assertions.ts";
import { findObject, type KubeObject, lintChart, type RenderOptions, renderChart } from "./render.ts";

/**
 * A chart test's values variants, each rendered once before the enclosing suite's first test
 * (together: renders are independent, and running them at once keeps the suite fast). Called in a
 * describe body, so node:test attaches the hook to that suite; the map is filled once it has run.
 */
export function renderVariants<V extends string>(
  variants: Readonly<Record<V, RenderOptions>>,
): Record<V, KubeObject[]> {
  const rendered = {} as Record<V, KubeObject[]>;
  before(async () => {
    const entries = await Promise.all(
      Object.entries<RenderOptions>(variants).map(
        async ([name, options]) => [name, await renderChart(options)] as const,
      ),
    );
    for (const [name, objects] of entries) rendered[name as V] = objects;
  });
  return rendered;
}

/** `helm lint --strict` passes with every variant. */
async function assertLintsClean(variants: Readonly<Record<string, RenderOptions>>): Promise<void> {
  const names = Object.keys(variants);
  const results = await Promise.all(Object.values(variants).map((options) => lintChart(options)));
  results.forEach((result, index) => {
    assert.equal(result.code, 0, `lint of variant ${names[index]} failed:\n${result.stdout}`);
  });
}

/** Every rendered object of every variant is schema-valid, without unknown fields, with standard labels. */
async function assertAllWellFormed(rendered: Readonly<Record<string, KubeObject[]>>): Promise<void> {
  for (const objects of Object.values(rendered)) await assertWellFormed(objects);
}

/** The first container of the Deployment `name`. */
export function deploymentContainer(objects: KubeObject[], name: string): Container {
  const found = podTemplateOf(findObject(objects, "Deployment", name)).spec.containers[0];
  assert.ok(found);
  return found;
}

/**
 * The checks every chart's suite opens with, over all its values variants: helm lint --strict, then
 * schema-valid renders. Renders each variant once ({@link renderVariants}); called in a describe body.
 */
export function checkChartVariants<V extends string>(
  variants: Readonly<Record<V, RenderOptions>>,
): Record<V, KubeObject[]> {
  const rendered = renderVariants(variants);
  it("passes helm lint --strict with every values variant", async () => {
    await assertLintsClean(variants);
  });
  it("renders only objects valid against the Kubernetes schema, without unknown fields, with standard labels", async () => {
    await assertAllWellFormed(rendered);
  });
  return rendered;
}
