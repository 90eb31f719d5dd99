import assert from "node:assert/strict";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { after, before, describe, it } from "node:test";
import { generateSigningKey, type TrustedKey, toTrustedKey } from "@svc/core";
import { CliError, exitOf } from "../cli-error.ts";
import { fetchIssuerKeysToPin } from "./issuer-client.ts";

// Issue 38 item 3: `svc trust add --issuer B` pins B's keys only for B.
describe("fetchIssuerKeysToPin", () => {
  const key = toTrustedKey(generateSigningKey().publicKey);
  let published: TrustedKey[] = [];
  let server: Server;
  let url: string;

  before(async () => {
    server = createServer((_request, response) => {
      response.setHeader("content-type", "application/json");
      response.end(JSON.stringify({ keys: published }));
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  after(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it("pins the keys an issuer publishes for itself, given with or without a trailing slash", async () => {
    published = [{ ...key, issuer: url }];
    for (const given of [url, `${url}/`]) {
      const keys = await fetchIssuerKeysToPin(new URL(given));
      assert.deepEqual(
        keys.map((pinned) => [pinned.key_id, pinned.issuer]),
        [[key.key_id, url]],
      );
    }
  });

  it("refuses a key published for another issuer name, naming it: KEY_ISSUER_MISMATCH, exit 2", async () => {
    for (const other of ["https://issuer-a.example", `${url}/elsewhere`, "Acme seals", `${url}/?x=1`]) {
      published = [
        { ...key, issuer: url },
        { ...toTrustedKey(generateSigningKey().publicKey), issuer: other },
      ];
      await assert.rejects(
        fetchIssuerKeysToPin(new URL(url)),
        (error: unknown) =>
          error instanceof CliError &&
          error.code === "KEY_ISSUER_MISMATCH" &&
          error.exitCode === exitOf("KEY_ISSUER_MISMATCH") &&
          error.message.includes(`for issuer ${other}, not for ${url}`),
        other,
      );
    }
  });

  it("pins a key published without an issuer for the issuer it was fetched from, never for any", async () => {
    const { issuer: _none, ...unbound } = { ...key, issuer: undefined };
    published = [unbound as TrustedKey];
    const keys = await fetchIssuerKeysToPin(new URL(`${url}/`));
    assert.equal(keys[0]?.issuer, url);
  });
});
