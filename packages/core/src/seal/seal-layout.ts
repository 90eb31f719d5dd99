/**
 * Geometry of the `svc.seal/v1` SVG. The decoder reads the channels back from these fixed
 * regions, so they are part of the seal format: change them only with a new seal version.
 */
export const SEAL_LAYOUT = {
  size: 480,
  center: { x: 240, y: 240 },
  /** Ring channel: slot i spans [i, i+1) * 360/slots degrees clockwise from 12 o'clock. */
  ring: {
    slots: 144,
    gapDegrees: 0.5,
    /** Track of a 0 bit and of a 1 bit: [inner, outer] radius. */
    zeroTrack: [196, 208] as const,
    oneTrack: [214, 226] as const,
    /** Radius separating the two tracks when decoding. */
    splitRadius: 211,
    /** Annulus in which shapes count as ring segments. */
    region: [192, 230] as const,
  },
  /** Barcode channel: the QR symbol (with quiet zone) lies inside this square. */
  qr: { x: 160, y: 170, side: 160 },
} as const;
