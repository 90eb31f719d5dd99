import type { ServerResponse } from "node:http";

interface ContainerLog {
  text: string;
  ended: boolean;
  followers: Set<ServerResponse>;
}

/** What a log request resolved to: the container whose log to serve, or why not (a Status). */
export type PodLogTarget =
  | { ok: true; container: string }
  | { ok: false; status: number; reason: string; message: string };

/** Names of the pod's containers, read from its stored spec. */
export function containerNamesOf(pod: { spec?: Record<string, unknown> }): string[] {
  const containers = (pod.spec?.containers ?? []) as { name?: unknown }[];
  return containers.map((container) => String(container.name ?? ""));
}

/**
 * Picks the container of a `pods/log` request as the API server does: the one named, or the only
 * one; a pod with several containers needs the name (400 BadRequest).
 */
export function resolveLogContainer(
  pod: string,
  containers: string[],
  requested: string | undefined,
): PodLogTarget {
  if (requested === undefined || requested === "") {
    if (containers.length === 1 && containers[0] !== undefined) return { ok: true, container: containers[0] };
    return {
      ok: false,
      status: 400,
      reason: "BadRequest",
      message: `a container name must be specified for pod ${pod}, choose one of: [${containers.join(" ")}]`,
    };
  }
  if (!containers.includes(requested))
    return {
      ok: false,
      status: 400,
      reason: "BadRequest",
      message: `container ${requested} is not valid for pod ${pod}`,
    };
  return { ok: true, container: requested };
}

/**
 * The kubelet's part of `pods/log` for the API double: text appended per container, served whole,
 * and with `follow=true` kept open (new text pushed) until the container ends.
 */
export class PodLogStore {
  readonly #logs = new Map<string, ContainerLog>();

  #entry(namespace: string, pod: string, container: string): ContainerLog {
    const key = `${namespace}/${pod}/${container}`;
    let entry = this.#logs.get(key);
    if (!entry) {
      entry = { text: "", ended: false, followers: new Set() };
      this.#logs.set(key, entry);
    }
    return entry;
  }

  /** Adds text to a container's log; open follow streams receive it at once. */
  append(namespace: string, pod: string, container: string, text: string): void {
    const entry = this.#entry(namespace, pod, container);
    if (entry.ended) throw new Error(`the log of ${namespace}/${pod}/${container} has ended`);
    entry.text += text;
    for (const follower of entry.followers) follower.write(text);
  }

  /** The container terminated: follow streams end, later reads return the whole log and end. */
  end(namespace: string, pod: string, container: string): void {
    const entry = this.#entry(namespace, pod, container);
    entry.ended = true;
    for (const follower of entry.followers) follower.end();
    entry.followers.clear();
  }

  /** The connection drops (an API server restart): open follow streams are cut without an end. */
  cut(namespace: string, pod: string, container: string): void {
    const entry = this.#entry(namespace, pod, container);
    for (const follower of entry.followers) follower.destroy();
    entry.followers.clear();
  }

  /** Answers a log request for an existing pod and a resolved container. */
  serve(
    res: ServerResponse,
    target: { namespace: string; pod: string; container: string },
    options: { follow: boolean; tailLines?: number },
  ): void {
    const entry = this.#entry(target.namespace, target.pod, target.container);
    res.writeHead(200, { "content-type": "text/plain", "transfer-encoding": "chunked" });
    let text = entry.text;
    if (options.tailLines !== undefined) {
      const lines = text.split(/(?<=\n)/);
      text = lines.slice(Math.max(0, lines.length - options.tailLines)).join("");
    }
    if (text.length > 0) res.write(text);
    if (!options.follow || entry.ended) {
      res.end();
      return;
    }
    entry.followers.add(res);
    res.once("close", () => entry.followers.delete(res));
  }

  /** Ends every open follow stream (the double is closing). */
  closeAll(): void {
    for (const entry of this.#logs.values()) {
      for (const follower of entry.followers) follower.end();
      entry.followers.clear();
    }
  }
}
