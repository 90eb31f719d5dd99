export interface RadarAxis {
  /** Null only on INSOLU, when the solubility model is out of its domain (issue 24 item 1). */
  readonly value: number | null;
  readonly low: number;
  readonly high: number;
  readonly in_range: boolean | null;
}

export interface BioavailabilityRadar {
  readonly lipo: RadarAxis;
  readonly size: RadarAxis;
  readonly polar: RadarAxis;
  readonly insolu: RadarAxis;
  readonly insatu: RadarAxis;
  readonly flex: RadarAxis;
}

/**
 * SwissADME's bioavailability radar (Daina, Michielin & Zoete, Sci. Rep. 2017, 7, 42717), six
 * axes with its optimal ranges: LIPO −0.7 to 5.0 (XLOGP3 there, WLOGP here), SIZE 150–500 g/mol,
 * POLAR TPSA 20–130 Å², INSOLU log S −6 to 0 (ESOL there, the solubility model named in
 * solubility_assessment here), INSATU Fsp3 0.25–1, FLEX 0–9 rotatable bonds.
 */
export const RADAR_RANGES = {
  lipo: [-0.7, 5.0],
  size: [150, 500],
  polar: [20, 130],
  insolu: [-6, 0],
  insatu: [0.25, 1],
  flex: [0, 9],
} as const;

export function bioavailabilityRadar(
  values: Record<Exclude<keyof BioavailabilityRadar, "insolu">, number> & { readonly insolu: number | null },
): BioavailabilityRadar {
  const axis = (key: keyof BioavailabilityRadar): RadarAxis => {
    const [low, high] = RADAR_RANGES[key];
    const value = values[key];
    if (value === null) return { value, low, high, in_range: null };
    return { value, low, high, in_range: value >= low && value <= high };
  };
  return {
    lipo: axis("lipo"),
    size: axis("size"),
    polar: axis("polar"),
    insolu: axis("insolu"),
    insatu: axis("insatu"),
    flex: axis("flex"),
  };
}
