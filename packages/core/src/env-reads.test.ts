import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { recordEnvReads } from "./env-reads.ts";

describe("recordEnvReads", () => {
  it("records every name a reader asks for, also when it throws, sorted", () => {
    const names = recordEnvReads((env) => {
      const port = env.PORT ?? "8080";
      if (!env.REQUIRED) throw new Error(`REQUIRED missing (port ${port})`);
      return env.LATER;
    });
    assert.deepEqual(names, ["PORT", "REQUIRED"]);
  });

  it("answers seeded names so a reader that stops early reads the rest", () => {
    const names = recordEnvReads(
      (env) => {
        if (!env.REQUIRED) throw new Error("missing");
        return [env.LATER, "OPTIONAL" in env];
      },
      { REQUIRED: "x" },
    );
    assert.deepEqual(names, ["LATER", "OPTIONAL", "REQUIRED"]);
  });

  it("unites the names read under several seeds (a variable read in one mode only)", () => {
    const reader = (env: NodeJS.ProcessEnv) => (env.MODE === "deep" ? env.DEEP_ONLY : env.STANDARD_ONLY);
    assert.deepEqual(recordEnvReads(reader, { MODE: "standard" }, { MODE: "deep" }), [
      "DEEP_ONLY",
      "MODE",
      "STANDARD_ONLY",
    ]);
  });
});
