import { SEAL_LAYOUT } from "./seal-layout.ts";

const { ring, center } = SEAL_LAYOUT;
const DATA_BITS = 128;
const CRC_BITS = 16;

/**
 * Ring channel: the 128 bits of a seal id's hex part followed by their CRC-16/CCITT-FALSE,
 * one bit per slot. Every slot holds exactly one segment; the bit is the track it sits on,
 * so removing, adding or moving a segment is detected.
 */
export function encodeRingBits(sealId: string): number[] {
  const bytes = Buffer.from(sealId.slice("seal_".length), "hex");
  const crc = crc16(bytes);
  return [...toBits(bytes), ...toBits(Buffer.from([crc >> 8, crc & 0xff]))];
}

/** Inverse of {@link encodeRingBits}; an error string when the CRC does not hold. */
export function decodeRingBits(bits: readonly number[]): { sealId: string } | { error: string } {
  if (bits.length !== DATA_BITS + CRC_BITS) return { error: `expected ${DATA_BITS + CRC_BITS} bits` };
  const bytes = fromBits(bits.slice(0, DATA_BITS));
  const crc = fromBits(bits.slice(DATA_BITS));
  if (crc16(bytes) !== (((crc[0] ?? 0) << 8) | (crc[1] ?? 0))) return { error: "ring checksum mismatch" };
  return { sealId: `seal_${bytes.toString("hex")}` };
}

// The 2 x 144 segment paths are fixed by the layout; every rendering (and so every verification,
// which renders the canonical image) draws 144 of them, so each is computed once.
const segmentPaths = new Map<number, string>();

/** SVG path data of one ring segment for `slot`, on the track of `bit`. */
export function ringSegmentPath(slot: number, bit: number): string {
  if (!Number.isInteger(slot) || slot < 0 || slot >= ring.slots) return computeSegmentPath(slot, bit);
  const key = slot * 2 + (bit ? 1 : 0);
  let path = segmentPaths.get(key);
  if (path === undefined) {
    path = computeSegmentPath(slot, bit);
    segmentPaths.set(key, path);
  }
  return path;
}

function computeSegmentPath(slot: number, bit: number): string {
  const slotDegrees = 360 / ring.slots;
  const start = slot * slotDegrees + ring.gapDegrees / 2;
  const end = start + slotDegrees - ring.gapDegrees;
  const [inner, outer] = bit ? ring.oneTrack : ring.zeroTrack;
  const p0 = polar(outer, start);
  const p1 = polar(outer, end);
  const p2 = polar(inner, end);
  const p3 = polar(inner, start);
  return `M${p0}A${outer} ${outer} 0 0 1 ${p1}L${p2}A${inner} ${inner} 0 0 0 ${p3}Z`;
}

/** Slot index and bit of a shape from its vertices, or null when it is not a ring segment. */
export function classifyRingShape(
  points: readonly { x: number; y: number }[],
): { slot: number; bit: number } | null {
  if (points.length === 0) return null;
  let sumX = 0;
  let sumY = 0;
  for (const point of points) {
    const r = Math.hypot(point.x - center.x, point.y - center.y);
    if (r < ring.region[0] || r > ring.region[1]) return null;
    sumX += point.x;
    sumY += point.y;
  }
  const cx = sumX / points.length - center.x;
  const cy = sumY / points.length - center.y;
  const radius = Math.hypot(cx, cy);
  // Clockwise from 12 o'clock, matching polar().
  let degrees = (Math.atan2(cx, -cy) * 180) / Math.PI;
  if (degrees < 0) degrees += 360;
  const slot = Math.floor(degrees / (360 / ring.slots)) % ring.slots;
  return { slot, bit: radius > ring.splitRadius ? 1 : 0 };
}

function polar(radius: number, degrees: number): string {
  const radians = (degrees * Math.PI) / 180;
  return `${fixed(center.x + radius * Math.sin(radians))} ${fixed(center.y - radius * Math.cos(radians))}`;
}

function fixed(value: number): string {
  // Three decimals: deterministic text, and what SVG optimisers round to anyway.
  return Number(value.toFixed(3)).toString();
}

function toBits(bytes: Uint8Array): number[] {
  const bits: number[] = [];
  for (const byte of bytes) for (let i = 7; i >= 0; i--) bits.push((byte >> i) & 1);
  return bits;
}

function fromBits(bits: readonly number[]): Buffer {
  const bytes = Buffer.alloc(bits.length / 8);
  bits.forEach((bit, i) => {
    bytes[i >> 3] = (bytes[i >> 3] ?? 0) | (bit << (7 - (i & 7)));
  });
  return bytes;
}

/** CRC-16/CCITT-FALSE (poly 0x1021, init 0xFFFF). */
function crc16(bytes: Uint8Array): number {
  let crc = 0xffff;
  for (const byte of bytes) {
    crc ^= byte << 8;
    for (let i = 0; i < 8; i++) crc = crc & 0x8000 ? ((crc << 1) ^ 0x1021) & 0xffff : (crc << 1) & 0xffff;
  }
  return crc;
}
