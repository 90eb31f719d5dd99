import { readDataFile } from "../data/read-data-file.ts";
import { ATOM_FEATURES, BOND_FEATURES, type GcnGraph } from "./gcn-features.ts";

type Matrix = readonly (readonly number[])[];

/** `data/tox21-gcn-model.json` as `scripts/train-tox21-gcn.py` writes it (weights as `x W`: in × out). */
export interface GcnModelFile {
  readonly generated_by: string;
  readonly model: string;
  readonly training_data: string;
  readonly training_data_sha256: string;
  readonly seed: number;
  readonly split: string;
  readonly architecture: {
    readonly atom_features: number;
    readonly bond_features: number;
    readonly hidden: number;
    readonly layers: number;
    readonly readout: number;
  };
  readonly tasks: readonly string[];
  readonly weights: {
    readonly input: { readonly w: Matrix; readonly b: readonly number[] };
    readonly layers: readonly {
      readonly self: Matrix;
      readonly neighbour: Matrix;
      readonly bond: Matrix;
      readonly b: readonly number[];
    }[];
    readonly readout: { readonly w: Matrix; readonly b: readonly number[] };
    readonly output: { readonly w: Matrix; readonly b: readonly number[] };
  };
}

/** A dense layer held flat, row-major (in × out), for the forward pass. */
interface Dense {
  readonly rows: number;
  readonly cols: number;
  readonly w: Float64Array;
}

export interface LoadedGcn {
  readonly file: GcnModelFile;
  readonly input: Dense;
  readonly inputBias: Float64Array;
  readonly layers: readonly { self: Dense; neighbour: Dense; bond: Dense; bias: Float64Array }[];
  readonly readout: Dense;
  readonly readoutBias: Float64Array;
  readonly output: Dense;
  readonly outputBias: Float64Array;
}

function dense(matrix: Matrix): Dense {
  const rows = matrix.length;
  const cols = matrix[0]?.length ?? 0;
  const w = new Float64Array(rows * cols);
  matrix.forEach((row, r) => {
    if (row.length !== cols) throw new Error("gcn model: ragged weight matrix");
    w.set(row, r * cols);
  });
  return { rows, cols, w };
}

export function readGcnModelFile(): GcnModelFile {
  return JSON.parse(readDataFile("tox21-gcn-model.json")) as GcnModelFile;
}

let cached: LoadedGcn | null = null;

/** The network, read and unpacked once per thread (each runner worker holds one copy, ~0.4 MB). */
export function gcnModel(): LoadedGcn {
  if (cached !== null) return cached;
  const file = readGcnModelFile();
  const { weights, architecture } = file;
  if (architecture.atom_features !== ATOM_FEATURES || architecture.bond_features !== BOND_FEATURES)
    throw new Error("gcn model: feature widths differ from src/gnn/gcn-features.ts");
  cached = {
    file,
    input: dense(weights.input.w),
    inputBias: Float64Array.from(weights.input.b),
    layers: weights.layers.map((layer) => ({
      self: dense(layer.self),
      neighbour: dense(layer.neighbour),
      bond: dense(layer.bond),
      bias: Float64Array.from(layer.b),
    })),
    readout: dense(weights.readout.w),
    readoutBias: Float64Array.from(weights.readout.b),
    output: dense(weights.output.w),
    outputBias: Float64Array.from(weights.output.b),
  };
  return cached;
}

/** out[n × cols] += x[n × rows] · W. */
function multiplyInto(x: Float64Array, n: number, layer: Dense, out: Float64Array): void {
  const { rows, cols, w } = layer;
  for (let i = 0; i < n; i++) {
    const xi = i * rows;
    const oi = i * cols;
    for (let k = 0; k < rows; k++) {
      const v = x[xi + k] ?? 0;
      if (v === 0) continue;
      const wk = k * cols;
      for (let j = 0; j < cols; j++) out[oi + j] = (out[oi + j] ?? 0) + v * (w[wk + j] ?? 0);
    }
  }
}

function addBiasRelu(values: Float64Array, n: number, bias: Float64Array): void {
  const cols = bias.length;
  for (let i = 0; i < n; i++)
    for (let j = 0; j < cols; j++) {
      const v = (values[i * cols + j] ?? 0) + (bias[j] ?? 0);
      values[i * cols + j] = v > 0 ? v : 0;
    }
}

/**
 * The twelve probabilities of one graph, in float64: the forward pass of `scripts/tox21-gcn-graph.py`
 * (`forward`), operation for operation. Deterministic; no allocation beyond a few small arrays.
 */
export function gcnForward(model: LoadedGcn, graph: GcnGraph): number[] {
  const n = graph.atoms.length;
  const x = new Float64Array(n * ATOM_FEATURES);
  graph.atoms.forEach((row, i) => {
    x.set(row, i * ATOM_FEATURES);
  });
  const hidden = model.inputBias.length;
  let h = new Float64Array(n * hidden);
  multiplyInto(x, n, model.input, h);
  addBiasRelu(h, n, model.inputBias);
  const bondRows = new Float64Array(graph.bonds.length * BOND_FEATURES);
  graph.bonds.forEach((bond, b) => {
    bondRows.set(bond.features, b * BOND_FEATURES);
  });
  for (const layer of model.layers) {
    const projected = new Float64Array(n * hidden);
    multiplyInto(h, n, layer.neighbour, projected);
    const bondMessages = new Float64Array(graph.bonds.length * hidden);
    multiplyInto(bondRows, graph.bonds.length, layer.bond, bondMessages);
    const next = new Float64Array(n * hidden);
    multiplyInto(h, n, layer.self, next);
    graph.bonds.forEach((bond, b) => {
      // Each bond carries a message both ways: from end to begin and from begin to end.
      for (let j = 0; j < hidden; j++) {
        const e = bondMessages[b * hidden + j] ?? 0;
        next[bond.begin * hidden + j] =
          (next[bond.begin * hidden + j] ?? 0) + (projected[bond.end * hidden + j] ?? 0) + e;
        next[bond.end * hidden + j] =
          (next[bond.end * hidden + j] ?? 0) + (projected[bond.begin * hidden + j] ?? 0) + e;
      }
    });
    addBiasRelu(next, n, layer.bias);
    h = next;
  }
  const pooled = new Float64Array(2 * hidden);
  for (let i = 0; i < n; i++)
    for (let j = 0; j < hidden; j++) {
      const v = h[i * hidden + j] ?? 0;
      pooled[j] = (pooled[j] ?? 0) + v;
      if (i === 0 || v > (pooled[hidden + j] ?? 0)) pooled[hidden + j] = v;
    }
  const z = new Float64Array(model.readoutBias.length);
  multiplyInto(pooled, 1, model.readout, z);
  addBiasRelu(z, 1, model.readoutBias);
  const logits = Float64Array.from(model.outputBias);
  multiplyInto(z, 1, model.output, logits);
  return [...logits].map((v) => 1 / (1 + Math.exp(-v)));
}
