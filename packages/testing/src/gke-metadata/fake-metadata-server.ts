import { once } from "node:events";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";

/** One request the fake metadata server saw. */
export interface MetadataRequest {
  readonly path: string;
  readonly audience: string | null;
  readonly format: string | null;
  readonly metadataFlavor: string | undefined;
}

export interface FakeMetadataServer {
  readonly url: string;
  readonly requests: readonly MetadataRequest[];
  close(): Promise<void>;
}

export interface FakeMetadataOptions {
  /** The ID token to hand out for an audience (default: `token-for-<audience>`). */
  readonly tokenFor?: (audience: string) => string;
}

const IDENTITY_PATH = "/computeMetadata/v1/instance/service-accounts/default/identity";

/**
 * A GKE metadata server double on loopback: answers the Workload Identity ID-token endpoint
 * like the real one (403 without `Metadata-Flavor: Google`, 400 without an audience) and records
 * every request so tests can assert what the client sent.
 */
export async function startFakeMetadataServer(
  options: FakeMetadataOptions = {},
): Promise<FakeMetadataServer> {
  const requests: MetadataRequest[] = [];
  const tokenFor = options.tokenFor ?? ((audience: string) => `token-for-${audience}`);
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? "/", "http://metadata.google.internal");
    const flavor = req.headers["metadata-flavor"] as string | undefined;
    requests.push({
      path: url.pathname,
      audience: url.searchParams.get("audience"),
      format: url.searchParams.get("format"),
      metadataFlavor: flavor,
    });
    res.setHeader("Metadata-Flavor", "Google");
    if (flavor !== "Google") {
      res.writeHead(403, { "content-type": "text/plain" });
      res.end("Missing required header: Metadata-Flavor");
      return;
    }
    if (url.pathname !== IDENTITY_PATH) {
      res.writeHead(404, { "content-type": "text/plain" });
      res.end("not found");
      return;
    }
    const audience = url.searchParams.get("audience");
    if (!audience) {
      res.writeHead(400, { "content-type": "text/plain" });
      res.end("non-empty audience parameter required");
      return;
    }
    res.writeHead(200, { "content-type": "text/plain" });
    res.end(tokenFor(audience));
  });
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: async () => {
      server.closeAllConnections();
      server.close();
      await once(server, "close");
    },
  };
}
