import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { CoreError } from "../core-error.ts";
import { makeSealFixture } from "./seal-fixture.ts";
import { describeUnsafeSealText, findUnsafeSealText, type SEAL_TEXT_RULES } from "./seal-text.ts";

const genuine = {
  run_id: "run_20261121T101500Z",
  project_id: "demo-project",
  category_id: "SMALL_MOLECULE__LIGAND_ONLY__NO_STRUCTURE__NO_ASSAYS",
  image: { reference: `registry.example:5000/svc/runner:1.0.0@sha256:${"a".repeat(64)}` },
  principal: "system:serviceaccount:audit:runner",
};

describe("seal text safe sets (issue 9 item 2)", () => {
  it("accepts what the product signs today: run ids, e-mails, service accounts, OCI references", () => {
    assert.deepEqual(findUnsafeSealText(genuine), []);
    assert.deepEqual(findUnsafeSealText({ ...genuine, principal: "runner@p.iam.gserviceaccount.com" }), []);
  });

  it("refuses bidi controls, homoglyphs, markup, spaces and controls, naming the field and the character", () => {
    const cases: [keyof typeof SEAL_TEXT_RULES, string, string][] = [
      ["category_id", "ligand\u202eonly", "U+202E"],
      ["category_id", "d\u0435ep", "U+0435"], // Cyrillic small ie, looks like "e"
      ["image.reference", "runner:1<script>", "U+003C"],
      ["image.reference", "a&b", "U+0026"],
      ["principal", 'eve"@x', "U+0022"],
      ["principal", "eve's", "U+0027"],
      ["project_id", "my project", "U+0020"],
      ["run_id", "run\u0000", "U+0000"],
      ["category_id", "c\u200b", "U+200B"],
    ];
    for (const [field, value, shown] of cases) {
      const problem = describeUnsafeSealText(field, value);
      assert.ok(
        problem?.startsWith(`field ${field}: ${shown} `),
        `${field} ${JSON.stringify(value)}: ${problem}`,
      );
    }
    assert.match(describeUnsafeSealText("run_id", "") ?? "", /field run_id: its length or first character/);
    assert.match(describeUnsafeSealText("run_id", "r".repeat(129)) ?? "", /field run_id/);
  });

  it("makes the signer refuse an unsafe field before signing", () => {
    assert.throws(
      () => makeSealFixture({ category_id: "standard\u202edeep" }),
      (error: unknown) =>
        error instanceof CoreError &&
        error.code === "SEAL_TEXT_UNSAFE" &&
        /category_id: U\+202E/.test(error.message),
    );
    assert.throws(
      () => makeSealFixture({ image: { reference: "<svg onload=x>", digest: null } }),
      /image\.reference/,
    );
  });
});
