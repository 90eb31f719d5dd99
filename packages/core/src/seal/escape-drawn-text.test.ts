import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { escapeDrawnText } from "./escape-drawn-text.ts";

describe("escapeDrawnText", () => {
  it("turns markup characters into character references", () => {
    assert.equal(escapeDrawnText(`<a href="x">&'`), "&#60;a href=&#34;x&#34;&#62;&#38;&#39;");
  });

  it("draws a right-to-left override visibly instead of letting it reorder the label", () => {
    assert.equal(escapeDrawnText("mode \u202Epeed"), "mode ⟨U+202E⟩peed");
  });

  it("draws zero-width, control and non-characters visibly", () => {
    assert.equal(escapeDrawnText("a\u200Bb\u0007c\uFFFE"), "a⟨U+200B⟩b⟨U+0007⟩c⟨U+FFFE⟩");
  });

  it("keeps ordinary letters, including non-Latin ones, as they are", () => {
    assert.equal(escapeDrawnText("run Ωmega-1 проект"), "run Ωmega-1 проект");
  });
});
