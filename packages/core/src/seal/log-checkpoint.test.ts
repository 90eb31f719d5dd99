import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { generateSigningKey, toTrustedKey } from "../keys.ts";
import {
  formatCheckpoint,
  logOriginOf,
  openCheckpoint,
  parseCheckpoint,
  signCheckpoint,
} from "./log-checkpoint.ts";
import { hashLeaf } from "./merkle-hash.ts";
import { noteKeyHash, noteVerifierKey, parseNote, rawEd25519PublicKey } from "./signed-note.ts";

const key = generateSigningKey();
const other = generateSigningKey();
const checkpoint = { origin: "seals.example.com/seal-log", size: 5, rootHash: hashLeaf(Buffer.from("root")) };

describe("C2SP checkpoints as signed notes", () => {
  it("writes the origin, decimal size and base64 root, each on its own line", () => {
    assert.equal(
      formatCheckpoint(checkpoint),
      `seals.example.com/seal-log\n5\n${checkpoint.rootHash.toString("base64")}\n`,
    );
    assert.deepEqual(parseCheckpoint(formatCheckpoint(checkpoint)), checkpoint);
    assert.equal(parseCheckpoint("o\n05\nAAAA\n"), null, "a size with a leading zero is malformed");
  });

  it("signs with a key id of SHA-256(name ‖ 0x0A ‖ 0x01 ‖ key)[:4] under an em-dash signature line", () => {
    const note = signCheckpoint(checkpoint, key);
    const parsed = parseNote(note);
    assert.equal(parsed?.text, formatCheckpoint(checkpoint));
    assert.equal(parsed?.signatures.length, 1);
    assert.match(note, /\n\n\u2014 seals\.example\.com\/seal-log [A-Za-z0-9+/]+=*\n$/);
    assert.equal(parsed?.signatures[0]?.keyHash, noteKeyHash(checkpoint.origin, key.publicKey));
    const verifierKey = noteVerifierKey(checkpoint.origin, key.publicKey);
    // name+hash+base64: base64 may itself hold "+", so only the first two are separators
    const [name, hash, ...rest] = verifierKey.split("+");
    const encoded = rest.join("+");
    assert.equal(name, checkpoint.origin);
    assert.equal(Number.parseInt(hash ?? "", 16), noteKeyHash(checkpoint.origin, key.publicKey));
    assert.ok(
      Buffer.from(encoded ?? "", "base64").equals(
        Buffer.concat([Buffer.of(1), rawEd25519PublicKey(key.publicKey)]),
      ),
    );
  });

  it("opens only with a trusted key under the checkpoint's origin, and refuses an altered text", () => {
    const note = signCheckpoint(checkpoint, key);
    const opened = openCheckpoint(note, [toTrustedKey(key.publicKey)]);
    assert.ok("checkpoint" in opened && opened.checkpoint.size === 5);
    assert.deepEqual(openCheckpoint(note, [toTrustedKey(other.publicKey)]), { refused: "untrusted" });
    assert.deepEqual(openCheckpoint(note.replace("\n5\n", "\n6\n"), [toTrustedKey(key.publicKey)]), {
      refused: "untrusted",
    });
    const renamed = signCheckpoint({ ...checkpoint, origin: "evil.example/seal-log" }, key).replace(
      "evil.example/seal-log\n",
      "seals.example.com/seal-log\n",
    );
    assert.deepEqual(openCheckpoint(renamed, [toTrustedKey(key.publicKey)]), { refused: "untrusted" });
    assert.deepEqual(openCheckpoint("not a note", [toTrustedKey(key.publicKey)]), { refused: "malformed" });
  });

  it("names the log after the issuer without a scheme", () => {
    assert.equal(logOriginOf("https://seals.example.com/"), "seals.example.com/seal-log");
    assert.equal(logOriginOf("Acme Seals+Co"), "Acme-Seals-Co/seal-log");
  });
});
