// The part of Node's Buffer that core's seal verifier uses, for the verification page's bundle
// (esbuild injects it as the global `Buffer`). Built on Uint8Array and the TC39 base64/hex
// methods Chromium ships, so the page carries no polyfill of someone else's Buffer.

type Encoding = "utf8" | "utf-8" | "hex" | "base64" | "base64url";

interface Base64Uint8ArrayConstructor {
  fromBase64(text: string, options: { alphabet: "base64" | "base64url" }): Uint8Array;
  fromHex(text: string): Uint8Array;
}
interface Base64Uint8Array {
  toBase64(options: { alphabet: "base64" | "base64url"; omitPadding: boolean }): string;
  toHex(): string;
}

/** A Uint8Array that reads and writes the encodings core's seal code asks for. */
export class Buffer extends Uint8Array {
  static override from(value: unknown, encoding?: unknown): Buffer {
    if (typeof value === "string") return Buffer.wrap(decodeText(value, (encoding ?? "utf8") as Encoding));
    return Buffer.wrap(Uint8Array.from(value as ArrayLike<number>));
  }

  static alloc(size: number): Buffer {
    return new Buffer(size);
  }

  static byteLength(text: string, _encoding?: "utf8"): number {
    return new TextEncoder().encode(text).length;
  }

  static concat(parts: readonly Uint8Array[]): Buffer {
    const joined = new Buffer(parts.reduce((sum, part) => sum + part.length, 0));
    let at = 0;
    for (const part of parts) {
      joined.set(part, at);
      at += part.length;
    }
    return joined;
  }

  static isBuffer(value: unknown): value is Buffer {
    return value instanceof Buffer;
  }

  private static wrap(bytes: Uint8Array): Buffer {
    return new Buffer(bytes.buffer as ArrayBuffer, bytes.byteOffset, bytes.length);
  }

  override toString(encoding: Encoding = "utf8"): string {
    const self = this as unknown as Base64Uint8Array;
    if (encoding === "hex") return self.toHex();
    if (encoding === "base64") return self.toBase64({ alphabet: "base64", omitPadding: false });
    if (encoding === "base64url") return self.toBase64({ alphabet: "base64url", omitPadding: true });
    return new TextDecoder().decode(this);
  }

  /** A signed note's key hash (C2SP signed-note: the first four bytes, big-endian). */
  readUInt32BE(offset = 0): number {
    return new DataView(this.buffer, this.byteOffset, this.length).getUint32(offset, false);
  }

  equals(other: Uint8Array): boolean {
    return this.length === other.length && this.every((byte, index) => byte === other[index]);
  }
}

function decodeText(text: string, encoding: Encoding): Uint8Array {
  const bytes = Uint8Array as unknown as Base64Uint8ArrayConstructor;
  if (encoding === "hex") return bytes.fromHex(text);
  // Node's decoder accepts padded and unpadded input in both alphabets; strict parsing here would
  // refuse what core's Node path accepts, so padding is normalised first.
  if (encoding === "base64" || encoding === "base64url") {
    const alphabet = encoding === "base64url" ? "base64url" : "base64";
    let bare = text.replace(/=+$/, "");
    // a lone last character carries no whole byte: Node drops it, and so does this
    if (bare.length % 4 === 1) bare = bare.slice(0, -1);
    return bytes.fromBase64(bare + "=".repeat((4 - (bare.length % 4)) % 4), { alphabet });
  }
  return new TextEncoder().encode(text);
}
