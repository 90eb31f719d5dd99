// One store for every kind the double holds (issue 29 item 6): objects keyed by their API path,
// `/apis/batch/v1/namespaces/ns/jobs/name`, so a kind is only its rules (kube-kind-rules.ts), never
// its own map.
import { randomUUID } from "node:crypto";

/** A Kubernetes object as the double stores it (plain JSON). */
export interface KubeObject {
  apiVersion?: string;
  kind?: string;
  metadata?: {
    name?: string;
    namespace?: string;
    labels?: Record<string, string>;
    creationTimestamp?: string;
    uid?: string;
    resourceVersion?: string;
    [key: string]: unknown;
  };
  spec?: Record<string, unknown>;
  status?: Record<string, unknown>;
  [key: string]: unknown;
}

/** Where a namespaced object lives: `/api/v1` (core) or `/apis/{group}/{version}`. */
export interface ResourceAddress {
  group: string;
  version: string;
  namespace: string;
  resource: string;
}

export function collectionPath(address: ResourceAddress): string {
  const prefix =
    address.group === "" ? `/api/${address.version}` : `/apis/${address.group}/${address.version}`;
  return `${prefix}/namespaces/${address.namespace}/${address.resource}`;
}

export function itemPath(address: ResourceAddress, name: string): string {
  return `${collectionPath(address)}/${name}`;
}

export class KubeObjectStore {
  readonly #objects = new Map<string, KubeObject>();
  #resourceVersion = 1000;

  /** The list's `metadata.resourceVersion`: the newest version stored. */
  get resourceVersion(): string {
    return String(this.#resourceVersion);
  }

  get(path: string): KubeObject | undefined {
    return this.#objects.get(path);
  }

  has(path: string): boolean {
    return this.#objects.has(path);
  }

  set(path: string, object: KubeObject): void {
    this.#objects.set(path, object);
  }

  delete(path: string): KubeObject | undefined {
    const found = this.#objects.get(path);
    this.#objects.delete(path);
    return found;
  }

  /** Every object of one collection (one kind in one namespace), oldest first. */
  list(collection: string): KubeObject[] {
    const prefix = `${collection}/`;
    return [...this.#objects.entries()]
      .filter(([path]) => path.startsWith(prefix) && !path.slice(prefix.length).includes("/"))
      .map(([, object]) => object);
  }

  /** A copy with the server's fields: namespace, uid, a fresh resourceVersion, creationTimestamp. */
  stamp(object: KubeObject, namespace: string | undefined): KubeObject {
    const stored = structuredClone(object);
    stored.metadata = {
      ...stored.metadata,
      ...(namespace === undefined ? {} : { namespace }),
      uid: stored.metadata?.uid ?? randomUUID(),
      resourceVersion: String(++this.#resourceVersion),
      creationTimestamp: stored.metadata?.creationTimestamp ?? new Date().toISOString(),
    };
    return stored;
  }
}
