import assert from "node:assert/strict";
import { readFileSync, writeFileSync } from "node:fs";
import { describe, it } from "node:test";
import { fileURLToPath } from "node:url";
import { createApp, listRegisteredRoutes } from "../app.ts";
import { loadConfig } from "../config.ts";
import { buildOpenApiDocument } from "./openapi-document.ts";

const CHECKED_IN = fileURLToPath(new URL("../../openapi.json", import.meta.url));

function render(): string {
  return `${JSON.stringify(buildOpenApiDocument("1.0.0"), null, 2)}\n`;
}

describe("openapi.json", () => {
  it("is checked in and equals what the service serves (UPDATE_OPENAPI=1 rewrites it)", () => {
    const document = render();
    if (process.env.UPDATE_OPENAPI === "1") writeFileSync(CHECKED_IN, document);
    assert.equal(readFileSync(CHECKED_IN, "utf8"), document, "run UPDATE_OPENAPI=1 node --test this file");
  });

  it("documents exactly the routes the app registers", async () => {
    const config = loadConfig(
      { SVC_API_TOKEN: "openapi-test-token-0123456789", SVC_OUTPUT_ROOT: "/nonexistent-output-root" },
      { fileExists: () => false, readTextFile: () => undefined, homeDir: "/nonexistent-home" },
    );
    const app = createApp({ config, kube: null });
    await app.ready();
    const served = await app.inject({ method: "GET", url: "/openapi.json" });
    assert.equal(served.body, JSON.stringify(buildOpenApiDocument("1.0.0")));
    const registered = listRegisteredRoutes(app)
      .map((route) => `${route.method} ${route.url.replace(/:([A-Za-z]+)/g, "{$1}")}`)
      .sort();
    await app.close();
    const paths = (JSON.parse(render()) as { paths: Record<string, Record<string, unknown>> }).paths;
    const documented = Object.entries(paths)
      .flatMap(([path, operations]) =>
        Object.keys(operations).map((method) => `${method.toUpperCase()} ${path}`),
      )
      .sort();
    assert.deepEqual(documented, registered);
  });
});
