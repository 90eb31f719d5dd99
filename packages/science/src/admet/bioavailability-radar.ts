export interface RadarAxis {
  readonly value: number;
  readonly low: number;
  readonly high: number;
  readonly in_range: boolean;
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
  values: Record<keyof BioavailabilityRadar, number>,
): BioavailabilityRadar {
  const axis = (key: keyof BioavailabilityRadar): RadarAxis => {
    const [low, high] = RADAR_RANGES[key];
    const value = values[key];
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
