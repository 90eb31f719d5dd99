import { existsSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import type { KubeObject } from "./render.ts";
import { repoRoot } from "./repo-root.ts";

// kubernetes-models validates types and required fields but lets unknown fields through
// (domain notes). A misspelt field (say "restartpolicy") is silently dropped by the API server,
// so we also walk every object against the field names of the generated model declarations.

interface FieldInfo {
  /** Declaration file of the field's object type; undefined for scalars, maps and unions. */
  typeFile?: string;
}

interface TypeInfo {
  fields: Map<string, FieldInfo>;
}

const typeCache = new Map<string, TypeInfo | null>();

// Gateway API kinds are not core Kubernetes: their models come from @kubernetes-models/gateway-api.
function modelModule(apiVersion: string, kind: string): string {
  if (apiVersion.startsWith("gateway.networking.k8s.io/"))
    return `@kubernetes-models/gateway-api/${apiVersion}/${kind}`;
  return `kubernetes-models/${apiVersion}/${kind}`;
}

/**
 * The .d.ts of a bare module specifier such as "@kubernetes-models/apimachinery/apis/meta/v1/ObjectMeta",
 * looked up in the node_modules folders above `from` (the packages lay their files out as their subpaths).
 */
function declarationFile(specifier: string, from: string = repoRoot): string {
  const parts = specifier.split("/");
  const packageName = parts.slice(0, specifier.startsWith("@") ? 2 : 1).join("/");
  const subpath = parts.slice(packageName.split("/").length).join("/");
  for (let dir = from; ; dir = dirname(dir)) {
    const candidate = join(dir, "node_modules", packageName, `${subpath}.d.ts`);
    if (existsSync(candidate)) return candidate;
    if (dirname(dir) === dir) throw new Error(`cannot find the declarations of ${specifier}`);
  }
}

/** Parses the main interface of a kubernetes-models declaration file; null for a type alias. */
function readType(file: string): TypeInfo | null {
  const cached = typeCache.get(file);
  if (cached !== undefined) return cached;
  const text = readFileSync(file, "utf8");
  const imports = new Map<string, string>();
  for (const match of text.matchAll(/^import \{ (\w+) \} from "([^"]+)";$/gm)) {
    const [, name, from] = match as unknown as [string, string, string];
    imports.set(
      name,
      from.startsWith(".")
        ? join(dirname(file), from.replace(/\.js$/, ".d.ts"))
        : declarationFile(from, dirname(file)),
    );
  }
  const header = /^export interface (\w+)( extends TypeMeta)? \{$/m.exec(text);
  if (!header) {
    typeCache.set(file, null);
    return null;
  }
  const body = text.slice(header.index + header[0].length, text.indexOf("\n}", header.index));
  const fields = new Map<string, FieldInfo>();
  if (header[2]) {
    fields.set("apiVersion", {});
    fields.set("kind", {});
  }
  // One field per line at four spaces; a type that opens "{" on that line is a map (a leaf here).
  for (const match of body.matchAll(/^ {4}"([^"]+)"\??: (.+?);?$/gm)) {
    const [, name, rawType] = match as unknown as [string, string, string];
    const inner = /^Array<(\w+)>$/.exec(rawType)?.[1] ?? rawType;
    fields.set(name, { typeFile: /^\w+$/.test(inner) ? imports.get(inner) : undefined });
  }
  const info = { fields };
  typeCache.set(file, info);
  return info;
}

function walk(value: unknown, file: string, path: string, problems: string[]): void {
  if (value === null || typeof value !== "object") return;
  if (Array.isArray(value)) {
    value.forEach((item, index) => {
      walk(item, file, `${path}[${index}]`, problems);
    });
    return;
  }
  const type = readType(file);
  if (!type) return;
  for (const [key, child] of Object.entries(value)) {
    const field = type.fields.get(key);
    if (!field) {
      problems.push(`${path}.${key}`);
      continue;
    }
    if (field.typeFile) walk(child, field.typeFile, `${path}.${key}`, problems);
  }
}

/** Paths of fields that the Kubernetes API schema of the object's kind does not define. */
export function findUnknownFields(object: KubeObject): string[] {
  const problems: string[] = [];
  walk(object, declarationFile(modelModule(object.apiVersion, object.kind)), object.kind, problems);
  return problems;
}

/**
 * Validates an object against the Kubernetes schema of its apiVersion/kind with kubernetes-models
 * and rejects unknown fields. Throws with every problem listed.
 */
export async function assertValidKubeObject(object: KubeObject): Promise<void> {
  const where = `${object.kind}/${object.metadata?.name}`;
  const module = (await import(modelModule(object.apiVersion, object.kind))) as Record<
    string,
    new (
      data: unknown,
    ) => { validate(): void }
  >;
  const Model = module[object.kind];
  if (!Model) throw new Error(`${where}: kubernetes-models has no ${object.apiVersion} ${object.kind}`);
  try {
    new Model(object).validate();
  } catch (error) {
    throw new Error(`${where} does not match the Kubernetes schema: ${(error as Error).message}`);
  }
  const unknown = findUnknownFields(object);
  if (unknown.length > 0)
    throw new Error(`${where} has fields Kubernetes does not know: ${unknown.join(", ")}`);
}
