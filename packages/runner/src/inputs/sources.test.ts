import assert from "node:assert/strict";
import { test } from "node:test";
import { TARGET_PRODUCT_PROFILES } from "@svc/science/decision";
import { RunnerError } from "../runner-error.ts";
import { parseSources } from "./sources.ts";

const base = { portfolio_selected_csv: "portfolio_selected.csv" };

test("sources.json profile: each of the three target product profiles is read, and none given is oral_peripheral (issue 36 item 2)", () => {
  assert.equal(parseSources(JSON.stringify(base)).profile, "oral_peripheral");
  for (const profile of TARGET_PRODUCT_PROFILES)
    assert.equal(parseSources(JSON.stringify({ ...base, profile })).profile, profile);
});

test("a profile that is not one of the three is PROFILE_INVALID naming the field and the choices; with other problems it joins SOURCES_INVALID's list", () => {
  for (const profile of ["oral_kinase", "", 3, ["oral_cns"], "ORAL_CNS"]) {
    assert.throws(
      () => parseSources(JSON.stringify({ ...base, profile })),
      (error: unknown) =>
        error instanceof RunnerError &&
        error.code === "PROFILE_INVALID" &&
        /field profile: must be one of oral_peripheral, oral_cns, non_oral/.test(error.message),
      JSON.stringify(profile),
    );
  }
  assert.throws(
    () => parseSources(JSON.stringify({ profile: "x", typo_key: 1 })),
    (error: unknown) =>
      error instanceof RunnerError &&
      error.code === "SOURCES_INVALID" &&
      /typo_key: unknown key/.test(error.message) &&
      /field profile/.test(error.message),
  );
});
