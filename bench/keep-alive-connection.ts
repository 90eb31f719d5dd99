// The load generator's HTTP/1.1 client, built the way load generators such as wrk build theirs:
// one keep-alive connection per simulated client, one request in flight, the request written as
// one preformatted string and the answer framed by its Content-Length (RFC 9112 §6.3) without
// building a response object. On a 2-core machine the load generator shares the cores with the
// service it measures: node:http's client spends ~90-120 µs of CPU per request there, this one
// ~25 µs (issue 23 item 12), so the figures measure the service rather than the client. Only what
// the measured routes answer is understood: a chunked or unframed answer is refused, not guessed.
import net from "node:net";

interface Pending {
  readonly resolve: (status: number) => void;
  readonly reject: (error: Error) => void;
}

export class KeepAliveConnection {
  readonly #socket: net.Socket;
  readonly #head: string;
  #received = "";
  /** Length of the whole answer (head and body) once its head is read; -1 before. */
  #answerLength = -1;
  #status = 0;
  #pending: Pending | null = null;
  #failure: Error | null = null;

  private constructor(socket: net.Socket, host: string, headers: Readonly<Record<string, string>>) {
    this.#socket = socket;
    this.#head = Object.entries({ host, ...headers })
      .map(([name, value]) => `${name}: ${value}\r\n`)
      .join("");
    // answers read as latin1: one character per byte, so string lengths are byte counts
    socket.setEncoding("latin1");
    socket.on("data", (chunk: string) => this.#onData(chunk));
    socket.on("error", (error) => this.#fail(error));
    socket.on("close", () => this.#fail(new Error("the server closed the connection")));
  }

  /** Connects to `url`'s host; `headers` go on every request of this connection. */
  static open(url: string, headers: Readonly<Record<string, string>>): Promise<KeepAliveConnection> {
    const { hostname, port, host } = new URL(url);
    return new Promise((resolve, reject) => {
      const socket = net.connect({ host: hostname, port: Number(port), noDelay: true });
      socket.once("error", reject);
      socket.once("connect", () => {
        socket.off("error", reject);
        resolve(new KeepAliveConnection(socket, host, headers));
      });
    });
  }

  /** POSTs a JSON text and resolves with the answer's status once the whole answer is read. */
  postJson(path: string, json: string): Promise<number> {
    if (this.#failure !== null) return Promise.reject(this.#failure);
    if (this.#pending !== null) return Promise.reject(new Error("one request at a time per connection"));
    return new Promise((resolve, reject) => {
      this.#pending = { resolve, reject };
      this.#socket.write(
        `POST ${path} HTTP/1.1\r\n${this.#head}content-type: application/json\r\n` +
          `content-length: ${Buffer.byteLength(json)}\r\n\r\n${json}`,
        // UTF-8, as the Content-Length counts the body; the head is ASCII either way
        "utf8",
      );
    });
  }

  close(): void {
    this.#failure ??= new Error("connection closed");
    this.#socket.destroy();
  }

  #onData(chunk: string): void {
    this.#received += chunk;
    if (this.#answerLength < 0) {
      const headEnd = this.#received.indexOf("\r\n\r\n");
      if (headEnd < 0) return;
      const head = this.#received.slice(0, headEnd);
      const status = /^HTTP\/1\.[01] (\d{3}) /.exec(head);
      const length = /\r\ncontent-length: *(\d+)\r?$/im.exec(head);
      if (status === null || length === null || /\r\ntransfer-encoding:/i.test(head)) {
        this.#fail(new Error(`answer not framed by Content-Length: ${JSON.stringify(head.slice(0, 200))}`));
        this.#socket.destroy();
        return;
      }
      this.#status = Number(status[1]);
      this.#answerLength = headEnd + 4 + Number(length[1]);
    }
    if (this.#received.length < this.#answerLength) return;
    if (this.#received.length > this.#answerLength) {
      this.#fail(new Error("bytes after the answer to the one request in flight"));
      this.#socket.destroy();
      return;
    }
    const pending = this.#pending;
    this.#received = "";
    this.#answerLength = -1;
    this.#pending = null;
    pending?.resolve(this.#status);
  }

  #fail(error: Error): void {
    this.#failure ??= error;
    const pending = this.#pending;
    this.#pending = null;
    pending?.reject(error);
  }
}
