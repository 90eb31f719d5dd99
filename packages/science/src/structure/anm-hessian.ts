import type { Vec3 } from "./vec3.ts";

/**
 * The anisotropic network model's Hessian (Atilgan et al., Biophys. J. 2001, 80, 505, eq. 4–5),
 * stored sparse: every pair of nodes closer than `cutoff` is joined by a spring of force constant
 * `gamma`; the off-diagonal 3×3 super-element of a pair at distance d is −γ/d² · (r_ij r_ijᵀ), and
 * each diagonal super-element is minus the sum of its row's, as ProDy's `ANM.buildHessian`. Only
 * pairs within the cutoff are stored (a node has ~100 neighbours at 15 Å whatever the protein's size),
 * so memory and build time grow as N, not (3N)².
 */
export interface AnmHessian {
  readonly nodes: number;
  /** The nodes' coordinates, x y z per node (the rigid-body motions of the network are built from them). */
  readonly positions: Float64Array;
  /** Compressed rows over nodes: node i's neighbours are `neighbours[rowStart[i] .. rowStart[i + 1])`, ascending. */
  readonly rowStart: Int32Array;
  readonly neighbours: Int32Array;
  /** The 3×3 super-element (row-major, 9 values) of each neighbour entry, both triangles stored. */
  readonly offDiagonal: Float64Array;
  /** The 3×3 diagonal super-element of each node (9 values per node). */
  readonly diagonal: Float64Array;
}

/**
 * Builds the Hessian with a cell list (cells of side `cutoff`, so a node's partners are in its own
 * and the 26 adjacent cells): O(N) pair tests instead of O(N²). A pair at distance 0 (two nodes on one
 * point) has no direction and adds no spring.
 */
export function buildAnmHessian(nodes: readonly Vec3[], cutoff: number, gamma: number): AnmHessian {
  const n = nodes.length;
  const cutoff2 = cutoff * cutoff;
  const min: [number, number, number] = [Infinity, Infinity, Infinity];
  for (const node of nodes)
    for (let c = 0; c < 3; c++) min[c] = Math.min(min[c] as number, node[c] as number);
  const cellOf = (node: Vec3): [number, number, number] => [
    Math.floor((node[0] - min[0]) / cutoff),
    Math.floor((node[1] - min[1]) / cutoff),
    Math.floor((node[2] - min[2]) / cutoff),
  ];
  const cells = nodes.map(cellOf);
  const size: [number, number, number] = [1, 1, 1];
  for (const cell of cells)
    for (let c = 0; c < 3; c++) size[c] = Math.max(size[c] as number, (cell[c] as number) + 1);
  const key = (x: number, y: number, z: number) => x + size[0] * (y + size[1] * z);
  // Counting sort of nodes by cell: members of cell k are cellNodes[cellStart[k] .. cellStart[k + 1]).
  const cellCount = size[0] * size[1] * size[2];
  const cellStart = new Int32Array(cellCount + 1);
  for (const cell of cells) (cellStart[key(cell[0], cell[1], cell[2]) + 1] as number)++;
  for (let k = 0; k < cellCount; k++)
    cellStart[k + 1] = (cellStart[k + 1] as number) + (cellStart[k] as number);
  const fill = cellStart.slice(0, cellCount);
  const cellNodes = new Int32Array(n);
  cells.forEach((cell, i) => {
    const k = key(cell[0], cell[1], cell[2]);
    cellNodes[fill[k] as number] = i;
    fill[k] = (fill[k] as number) + 1;
  });

  const rows: number[][] = [];
  for (let i = 0; i < n; i++) {
    const [cx, cy, cz] = cells[i] as [number, number, number];
    const a = nodes[i] as Vec3;
    const partners: number[] = [];
    for (let z = Math.max(0, cz - 1); z <= Math.min(size[2] - 1, cz + 1); z++)
      for (let y = Math.max(0, cy - 1); y <= Math.min(size[1] - 1, cy + 1); y++)
        for (let x = Math.max(0, cx - 1); x <= Math.min(size[0] - 1, cx + 1); x++) {
          const k = key(x, y, z);
          for (let at = cellStart[k] as number; at < (cellStart[k + 1] as number); at++) {
            const j = cellNodes[at] as number;
            if (j === i) continue;
            const b = nodes[j] as Vec3;
            const d2 = (b[0] - a[0]) ** 2 + (b[1] - a[1]) ** 2 + (b[2] - a[2]) ** 2;
            if (d2 <= cutoff2 && d2 > 0) partners.push(j);
          }
        }
    rows.push(partners.sort((p, q) => p - q));
  }

  const rowStart = new Int32Array(n + 1);
  rows.forEach((partners, i) => {
    rowStart[i + 1] = (rowStart[i] as number) + partners.length;
  });
  const total = rowStart[n] as number;
  const neighbours = new Int32Array(total);
  const offDiagonal = new Float64Array(9 * total);
  const diagonal = new Float64Array(9 * n);
  rows.forEach((partners, i) => {
    const a = nodes[i] as Vec3;
    partners.forEach((j, slot) => {
      const at = (rowStart[i] as number) + slot;
      neighbours[at] = j;
      const b = nodes[j] as Vec3;
      const r = [b[0] - a[0], b[1] - a[1], b[2] - a[2]] as const;
      const d2 = r[0] * r[0] + r[1] * r[1] + r[2] * r[2];
      for (let p = 0; p < 3; p++)
        for (let q = 0; q < 3; q++) {
          const k = (-gamma * (r[p] as number) * (r[q] as number)) / d2;
          offDiagonal[9 * at + 3 * p + q] = k;
          diagonal[9 * i + 3 * p + q] = (diagonal[9 * i + 3 * p + q] as number) - k;
        }
    });
  });
  const positions = Float64Array.from(nodes.flatMap((node) => [node[0], node[1], node[2]]));
  return { nodes: n, positions, rowStart, neighbours, offDiagonal, diagonal };
}

/** y = H x for a 3N vector x. */
export function multiplyHessian(hessian: AnmHessian, x: Float64Array): Float64Array {
  const { nodes, rowStart, neighbours, offDiagonal, diagonal } = hessian;
  const y = new Float64Array(3 * nodes);
  for (let i = 0; i < nodes; i++) {
    let y0 = 0;
    let y1 = 0;
    let y2 = 0;
    const add = (block: Float64Array, at: number, j: number) => {
      const x0 = x[3 * j] as number;
      const x1 = x[3 * j + 1] as number;
      const x2 = x[3 * j + 2] as number;
      y0 += (block[at] as number) * x0 + (block[at + 1] as number) * x1 + (block[at + 2] as number) * x2;
      y1 += (block[at + 3] as number) * x0 + (block[at + 4] as number) * x1 + (block[at + 5] as number) * x2;
      y2 += (block[at + 6] as number) * x0 + (block[at + 7] as number) * x1 + (block[at + 8] as number) * x2;
    };
    add(diagonal, 9 * i, i);
    for (let at = rowStart[i] as number; at < (rowStart[i + 1] as number); at++)
      add(offDiagonal, 9 * at, neighbours[at] as number);
    y[3 * i] = y0;
    y[3 * i + 1] = y1;
    y[3 * i + 2] = y2;
  }
  return y;
}

/** The full 3N × 3N Hessian, row-major (for the dense eigen-solver of small networks). */
export function denseHessian(hessian: AnmHessian): Float64Array {
  const dof = 3 * hessian.nodes;
  const dense = new Float64Array(dof * dof);
  const put = (block: Float64Array, at: number, i: number, j: number) => {
    for (let p = 0; p < 3; p++)
      for (let q = 0; q < 3; q++) dense[(3 * i + p) * dof + 3 * j + q] = block[at + 3 * p + q] as number;
  };
  for (let i = 0; i < hessian.nodes; i++) {
    put(hessian.diagonal, 9 * i, i, i);
    for (let at = hessian.rowStart[i] as number; at < (hessian.rowStart[i + 1] as number); at++)
      put(hessian.offDiagonal, 9 * at, i, hessian.neighbours[at] as number);
  }
  return dense;
}

/** Connected components of the spring network: each node's component label (0, 1, … in order of first node). */
export function networkComponents(hessian: AnmHessian): Int32Array {
  const label = new Int32Array(hessian.nodes).fill(-1);
  let next = 0;
  for (let start = 0; start < hessian.nodes; start++) {
    if ((label[start] as number) >= 0) continue;
    const stack = [start];
    label[start] = next;
    while (stack.length > 0) {
      const i = stack.pop() as number;
      for (let at = hessian.rowStart[i] as number; at < (hessian.rowStart[i + 1] as number); at++) {
        const j = hessian.neighbours[at] as number;
        if ((label[j] as number) < 0) {
          label[j] = next;
          stack.push(j);
        }
      }
    }
    next++;
  }
  return label;
}
