import type { MolfileMolecule, Vec3 } from "@svc/science/structure";
import type { PocketResidue } from "./docking-pocket.ts";
import { escapeHtml } from "./format.ts";

// The printed stand-in for the 3D viewer (issue 25 item 10: "a static picture in print"): the pose
// and the residues lining it, projected orthographically onto the plane of the ligand's two largest
// principal axes (the view that spreads the ligand most), drawn back to front so nearer bonds cover
// farther ones. Residues are thin grey bonds with their labels; the ligand is coloured by element.

const WIDTH = 300;
const HEIGHT = 220;
const PAD = 22;
/** Bonds of a residue are inferred as heavy atoms closer than this (the longest usual covalent bond, S–S ≈ 2.05 Å). */
const BOND_ANGSTROM = 2.1;

/** CPK-style colours (Corey & Pauling 1953, as Jmol uses them), for heavy atoms. */
const ELEMENT_COLOURS: Readonly<Record<string, string>> = {
  C: "#555555",
  N: "#2f50f8",
  O: "#e0102a",
  S: "#c8a000",
  P: "#ff8000",
  F: "#70b030",
  CL: "#1f9f1f",
  BR: "#a62929",
  I: "#940094",
};

/** The pose in its pocket as an SVG drawing; `contacts` are the residues to draw around it. */
export function renderPoseProjection(
  pose: MolfileMolecule,
  contacts: readonly PocketResidue[],
  title: string,
): string {
  const heavy = pose.atoms.map((atom, index) => ({ ...atom, index })).filter((atom) => atom.element !== "H");
  if (heavy.length === 0) return "";
  const [u, v, w, centre] = principalFrame(heavy.map((atom) => atom.position));
  const project = (p: Vec3) => {
    const d: Vec3 = [p[0] - centre[0], p[1] - centre[1], p[2] - centre[2]];
    return { x: dot(d, u), y: dot(d, v), z: dot(d, w) };
  };
  const ligand = new Map(
    heavy.map((atom) => [atom.index, { ...project(atom.position), element: atom.element }]),
  );
  const residues = contacts.map((residue) => ({
    label: residue.label,
    atoms: residue.atoms.map((atom) => ({ ...project(atom.position), element: atom.element })),
  }));
  const all = [...ligand.values(), ...residues.flatMap((residue) => residue.atoms)];
  const xs = all.map((p) => p.x);
  const ys = all.map((p) => p.y);
  const [x0, x1, y0, y1] = [Math.min(...xs), Math.max(...xs), Math.min(...ys), Math.max(...ys)];
  const scale = Math.min((WIDTH - 2 * PAD) / Math.max(1, x1 - x0), (HEIGHT - 2 * PAD) / Math.max(1, y1 - y0));
  const sx = (x: number) => (PAD + (x - x0) * scale + (WIDTH - 2 * PAD - (x1 - x0) * scale) / 2).toFixed(1);
  // SVG's y grows downwards.
  const sy = (y: number) =>
    (HEIGHT - PAD - (y - y0) * scale - (HEIGHT - 2 * PAD - (y1 - y0) * scale) / 2).toFixed(1);
  const segments: { z: number; svg: string }[] = [];
  for (const residue of residues) {
    const atoms = residue.atoms;
    for (let i = 0; i < atoms.length; i++)
      for (let j = i + 1; j < atoms.length; j++) {
        const a = atoms[i] as (typeof atoms)[number];
        const b = atoms[j] as (typeof atoms)[number];
        if (distance3(a, b) > BOND_ANGSTROM) continue;
        segments.push({
          z: (a.z + b.z) / 2,
          svg: `<line class="res" x1="${sx(a.x)}" y1="${sy(a.y)}" x2="${sx(b.x)}" y2="${sy(b.y)}"/>`,
        });
      }
  }
  for (const bond of pose.bonds) {
    const a = ligand.get(bond.a);
    const b = ligand.get(bond.b);
    if (a === undefined || b === undefined) continue;
    // Each half in its atom's colour, as ball-and-stick viewers draw a bond.
    const mx = (a.x + b.x) / 2;
    const my = (a.y + b.y) / 2;
    const z = (a.z + b.z) / 2 + 100; // the ligand is drawn over the residues
    for (const [end, x, y] of [
      [a, a.x, a.y],
      [b, b.x, b.y],
    ] as const)
      segments.push({
        z,
        svg: `<line class="lig" stroke="${colourOf(end.element)}" x1="${sx(x)}" y1="${sy(y)}" x2="${sx(mx)}" y2="${sy(my)}"/>`,
      });
  }
  segments.sort((p, q) => p.z - q.z);
  const labels = residues
    .map((residue) => {
      const n = residue.atoms.length || 1;
      const cx = residue.atoms.reduce((sum, atom) => sum + atom.x, 0) / n;
      const cy = residue.atoms.reduce((sum, atom) => sum + atom.y, 0) / n;
      return `<text class="res-label" x="${sx(cx)}" y="${sy(cy)}">${escapeHtml(residue.label)}</text>`;
    })
    .join("");
  return `<svg class="pose-2d" viewBox="0 0 ${WIDTH} ${HEIGHT}" role="img" aria-label="${escapeHtml(title)}"><title>${escapeHtml(title)}</title>${segments.map((s) => s.svg).join("")}${labels}</svg>`;
}

function colourOf(element: string): string {
  return ELEMENT_COLOURS[element.toUpperCase()] ?? "#c060c0";
}

function dot(a: Vec3, b: Vec3): number {
  return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
}

function distance3(a: { x: number; y: number; z: number }, b: { x: number; y: number; z: number }): number {
  return Math.hypot(a.x - b.x, a.y - b.y, a.z - b.z);
}

/**
 * The centroid and the principal axes of the points (eigenvectors of their covariance, largest
 * first), by cyclic Jacobi rotations of the 3×3 symmetric matrix (Golub & Van Loan, Matrix
 * Computations, 4th ed., §8.5). Axes are oriented so their largest component is positive, so the
 * same pose always gives the same drawing.
 */
export function principalFrame(points: readonly Vec3[]): [Vec3, Vec3, Vec3, Vec3] {
  const n = points.length;
  const centre: Vec3 = [0, 1, 2].map(
    (k) => points.reduce((sum, p) => sum + (p[k] as number), 0) / n,
  ) as unknown as Vec3;
  const a = [
    [0, 0, 0],
    [0, 0, 0],
    [0, 0, 0],
  ] as number[][];
  for (const p of points)
    for (let i = 0; i < 3; i++)
      for (let j = 0; j < 3; j++)
        (a[i] as number[])[j] =
          ((a[i] as number[])[j] as number) +
          ((p[i] as number) - (centre[i] as number)) * ((p[j] as number) - (centre[j] as number));
  const vectors = [
    [1, 0, 0],
    [0, 1, 0],
    [0, 0, 1],
  ];
  const at = (m: number[][], i: number, j: number) => (m[i] as number[])[j] as number;
  const set = (m: number[][], i: number, j: number, value: number) => {
    (m[i] as number[])[j] = value;
  };
  for (let sweep = 0; sweep < 50; sweep++) {
    const off = Math.abs(at(a, 0, 1)) + Math.abs(at(a, 0, 2)) + Math.abs(at(a, 1, 2));
    if (off < 1e-12) break;
    for (const [p, q] of [
      [0, 1],
      [0, 2],
      [1, 2],
    ] as const) {
      const apq = at(a, p, q);
      if (Math.abs(apq) < 1e-15) continue;
      const theta = (at(a, q, q) - at(a, p, p)) / (2 * apq);
      const t = Math.sign(theta || 1) / (Math.abs(theta) + Math.sqrt(theta * theta + 1));
      const c = 1 / Math.sqrt(t * t + 1);
      const s = t * c;
      for (let k = 0; k < 3; k++) {
        const akp = at(a, k, p);
        const akq = at(a, k, q);
        set(a, k, p, c * akp - s * akq);
        set(a, k, q, s * akp + c * akq);
      }
      for (let k = 0; k < 3; k++) {
        const apk = at(a, p, k);
        const aqk = at(a, q, k);
        set(a, p, k, c * apk - s * aqk);
        set(a, q, k, s * apk + c * aqk);
      }
      for (let k = 0; k < 3; k++) {
        const vkp = at(vectors, k, p);
        const vkq = at(vectors, k, q);
        set(vectors, k, p, c * vkp - s * vkq);
        set(vectors, k, q, s * vkp + c * vkq);
      }
    }
  }
  const order = [0, 1, 2].sort((i, j) => at(a, j, j) - at(a, i, i));
  const axes = order.map((column) => {
    const axis = [0, 1, 2].map((row) => at(vectors, row, column));
    const largest = axis.reduce((best, value) => (Math.abs(value) > Math.abs(best) ? value : best), 0);
    return axis.map((value) => (largest < 0 ? -value : value)) as unknown as Vec3;
  });
  // A right-handed frame: the third axis is the cross product, so the drawing is never mirrored.
  const [u, v] = axes as [Vec3, Vec3];
  const w: Vec3 = [u[1] * v[2] - u[2] * v[1], u[2] * v[0] - u[0] * v[2], u[0] * v[1] - u[1] * v[0]];
  return [u, v, w, centre];
}
