/** Small 3-vector helpers for the interaction criteria (no allocation-heavy library needed). */
import type { Vec3 } from "../vec3.ts";

export function sub(a: Vec3, b: Vec3): Vec3 {
  return [a[0] - b[0], a[1] - b[1], a[2] - b[2]];
}

export function dot(a: Vec3, b: Vec3): number {
  return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
}

export function cross(a: Vec3, b: Vec3): Vec3 {
  return [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]];
}

export function norm(a: Vec3): number {
  return Math.sqrt(dot(a, a));
}

export function distance(a: Vec3, b: Vec3): number {
  return norm(sub(a, b));
}

export function normalize(a: Vec3): Vec3 {
  const n = norm(a);
  return n === 0 ? a : [a[0] / n, a[1] / n, a[2] / n];
}

/** Angle between two vectors in degrees (0 for identical vectors, as PLIP's `vecangle`). */
export function angleBetween(a: Vec3, b: Vec3): number {
  if (a[0] === b[0] && a[1] === b[1] && a[2] === b[2]) return 0;
  const c = dot(a, b) / (norm(a) * norm(b));
  return (Math.acos(Math.max(-1, Math.min(1, c))) * 180) / Math.PI;
}

export function centroid(points: readonly Vec3[]): Vec3 {
  let x = 0;
  let y = 0;
  let z = 0;
  for (const p of points) {
    x += p[0];
    y += p[1];
    z += p[2];
  }
  const n = points.length;
  return [x / n, y / n, z / n];
}

/** Distance from `center` to the orthogonal projection of `point` onto the plane through `center` with `normal`. */
export function inPlaneOffset(normal: Vec3, center: Vec3, point: Vec3): number {
  const v = sub(point, center);
  const unit = normalize(normal);
  const h = dot(v, unit);
  return Math.sqrt(Math.max(0, dot(v, v) - h * h));
}

/** The acute angle between two planes given by their normals (0–90°). */
export function planeAngle(a: Vec3, b: Vec3): number {
  const angle = angleBetween(a, b);
  return Math.min(angle, 180 - angle);
}
