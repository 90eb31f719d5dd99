/**
 * PLIP's published geometric criteria (Salentin et al., Nucleic Acids Res. 2015, 43, W443, Table 1 and
 * "Detection of interactions"; Adasme et al., Nucleic Acids Res. 2021, 49, W530), with the values PLIP 2.2.2
 * ships in `plip/basic/config.py`. Each limit names its literature source as PLIP does. Distances in Å,
 * angles in degrees; "between" limits are exclusive, as in PLIP.
 */
export const PLIP_CRITERIA = Object.freeze({
  /** Every distance criterion has this floor (PLIP `MIN_DIST`). */
  minDistance: 0.5,
  /** Residues whose atoms lie within this distance of a ligand heavy atom form the binding site (`BS_DIST`). */
  bindingSiteDistance: 7.5,
  /** A ring counts as aromatic when RDKit says so, or when its atom normals deviate ≤ 5° (`AROMATIC_PLANARITY`). */
  aromaticPlanarity: 5.0,
  /** Carbon–carbon contacts: carbons bonded only to C or H (`HYDROPH_DIST_MAX`). */
  hydrophobicDistance: 4.0,
  /** Donor–acceptor distance: Hubbard & Haider 2001 + 0.6 Å (`HBOND_DIST_MAX`). */
  hbondDistance: 4.1,
  /** Angle D–H···A must exceed this: Hubbard & Haider 2001 + 10° (`HBOND_DON_ANGLE_MIN`). */
  hbondDonorAngle: 100,
  /** Ring centroid distance: McGaughey et al. 1998 (`PISTACK_DIST_MAX`). */
  piStackDistance: 5.5,
  /** Deviation from parallel (0°) or perpendicular (90°) ring planes (`PISTACK_ANG_DEV`). */
  piStackAngleDeviation: 30,
  /** Offset of a centroid projected into the other ring: radius of benzene + 0.5 Å (`PISTACK_OFFSET_MAX`). */
  piStackOffset: 2.0,
  /** Charge centre to ring centroid: Gallivan & Dougherty 1999 (`PICATION_DIST_MAX`); offset as for stacking. */
  piCationDistance: 6.0,
  /** Between centres of opposite charge: Barlow & Thornton 1983 + 1.5 Å (`SALTBRIDGE_DIST_MAX`). */
  saltBridgeDistance: 5.5,
  /** Halogen–acceptor distance: Auffinger et al. 2004 + 0.5 Å (`HALOGEN_DIST_MAX`). */
  halogenDistance: 4.0,
  /** Optimal Y–O···X angle at the acceptor (`HALOGEN_ACC_ANGLE`). */
  halogenAcceptorAngle: 120,
  /** Optimal C–X···O angle at the donor (`HALOGEN_DON_ANGLE`). */
  halogenDonorAngle: 165,
  /** Allowed deviation from either halogen-bond angle (`HALOGEN_ANGLE_DEV`). */
  halogenAngleDeviation: 30,
  /** Metal ion to coordinating atom: Harding 2001 (`METAL_DIST_MAX`). */
  metalDistance: 3.0,
});

export type InteractionCriteria = typeof PLIP_CRITERIA;

/** Metal ions PLIP recognises as complexable (its `METAL_IONS` list, by element symbol). */
export const METAL_ELEMENTS: ReadonlySet<string> = new Set([
  "CA",
  "CO",
  "MG",
  "MN",
  "FE",
  "CU",
  "ZN",
  "LI",
  "NA",
  "K",
  "RB",
  "SR",
  "CS",
  "BA",
  "CR",
  "NI",
  "RU",
  "RH",
  "PD",
  "AG",
  "CD",
  "LA",
  "W",
  "OS",
  "IR",
  "PT",
  "AU",
  "HG",
  "CE",
  "PR",
  "SM",
  "EU",
  "GD",
  "TB",
  "YB",
  "LU",
  "AL",
  "GA",
  "IN",
  "SB",
  "TL",
  "PB",
]);
