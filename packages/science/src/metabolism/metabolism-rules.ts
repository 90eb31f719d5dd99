/**
 * Site-of-metabolism rules, written here as RDKit reaction SMARTS from the transformations the
 * drug-metabolism literature describes. Each rule names the reaction class, the enzymes the
 * source attributes it to, and what the source says; it marks where a reaction is chemically
 * possible, not how likely it is (no rates, no probabilities).
 *
 * The sources:
 * - GUENGERICH_2001: Guengerich, Chem. Res. Toxicol. 2001, 14, 611–650, "Common and uncommon
 *   cytochrome P450 reactions related to metabolism and chemical toxicity".
 * - TESTA_2007_REDOX: Testa & Krämer, Chem. Biodivers. 2007, 4, 257–405, "The biochemistry of drug
 *   metabolism – an introduction. Part 2. Redox reactions and their enzymes".
 * - TESTA_2007_HYDROLYSIS: Testa & Krämer, Chem. Biodivers. 2007, 4, 2031–2122, "… Part 3.
 *   Reactions of hydrolysis and their enzymes".
 * - TESTA_2008_CONJUGATION: Testa & Krämer, Chem. Biodivers. 2008, 5, 2171–2336, "… Part 4.
 *   Reactions of conjugation and their enzymes".
 * - CASHMAN_2006: Cashman & Zhang, Annu. Rev. Pharmacol. Toxicol. 2006, 46, 65–100, "Human
 *   flavin-containing monooxygenases".
 * - GU_1992: Gu, Gonzalez, Kalow & Tang, Pharmacogenetics 1992, 2, 73–77, "Biotransformation of
 *   caffeine, paraxanthine, theobromine and theophylline by cDNA-expressed human CYP1A2 and CYP2E1".
 * - GATES_1999: Gates & Miners, Br. J. Clin. Pharmacol. 1999, 47, 299–305, "Cytochrome P450 isoform
 *   selectivity in human hepatic theobromine metabolism".
 */
const GUENGERICH_2001 = "Guengerich, Chem. Res. Toxicol. 2001, 14, 611";
const TESTA_2007_REDOX = "Testa & Krämer, Chem. Biodivers. 2007, 4, 257 (Part 2, redox reactions)";
const TESTA_2007_HYDROLYSIS = "Testa & Krämer, Chem. Biodivers. 2007, 4, 2031 (Part 3, hydrolysis)";
const TESTA_2008_CONJUGATION = "Testa & Krämer, Chem. Biodivers. 2008, 5, 2171 (Part 4, conjugation)";
const CASHMAN_2006 = "Cashman & Zhang, Annu. Rev. Pharmacol. Toxicol. 2006, 46, 65";
const GU_1992 =
  "Gu, Gonzalez, Kalow & Tang, Pharmacogenetics 1992, 2, 73 (caffeine N-demethylation by CYP1A2)";
const GATES_1999 = "Gates & Miners, Br. J. Clin. Pharmacol. 1999, 47, 299 (theobromine N-demethylation)";

export interface MetabolismRule {
  /** Stable id, written into each candidate site. */
  readonly id: string;
  readonly name: string;
  readonly phase: "I" | "II";
  /** Enzyme families the sources attribute the reaction to. */
  readonly enzymes: string;
  /** Single-reactant reaction SMARTS; products are the metabolite and any small co-product. */
  readonly reaction: string;
  readonly citations: readonly string[];
  /** What the cited sources say about the transformation, in a sentence. */
  readonly basis: string;
}

/** The glucuronic acid transferred by UGTs, as its β-D-glucopyranosiduronic acid (C1 bonded to the acceptor). */
const BETA_GLUCURONYL = "[C@@H]1O[C@H](C(=O)O)[C@@H](O)[C@H](O)[C@H]1O";

export const METABOLISM_RULES: readonly MetabolismRule[] = [
  {
    id: "aromatic_hydroxylation",
    name: "Aromatic hydroxylation",
    phase: "I",
    enzymes: "CYP",
    // Any CH of a benzene ring (fused or not); heteroaromatic CH oxidation (aldehyde oxidase) is left out.
    reaction: "[cH;$([cH]1:c:c:c:c:c:1):1]>>[c:1]-[OH]",
    citations: [GUENGERICH_2001, TESTA_2007_REDOX],
    basis:
      "P450s hydroxylate aromatic rings, through an arene oxide or a direct addition to the ring, to phenols " +
      "(Guengerich 2001, aromatic hydroxylation; Testa & Krämer Part 2, oxidation of aromatic carbons).",
  },
  {
    id: "benzylic_hydroxylation",
    name: "Benzylic hydroxylation",
    phase: "I",
    enzymes: "CYP",
    // An sp3 carbon with at least one H on an aromatic ring, not itself bonded to a heteroatom
    // (those sites are N-/O-/S-dealkylation below).
    reaction: "[CX4;!H0;!$(C-[!#6;!#1]):1]-[a:2]>>[C:1](-[OH])-[a:2]",
    citations: [GUENGERICH_2001, TESTA_2007_REDOX],
    basis:
      "Carbon hydroxylation by P450 (hydrogen abstraction, oxygen rebound) is favoured at benzylic positions, " +
      "whose radicals are stabilised by the ring (Guengerich 2001; Testa & Krämer Part 2).",
  },
  {
    id: "n_dealkylation",
    name: "N-dealkylation",
    phase: "I",
    enzymes: "CYP",
    // Hydroxylation of the α-carbon (it needs an H) gives a carbinolamine that breaks into the
    // dealkylated amine and an aldehyde or ketone. Amide and sulfonamide N-alkyls included.
    reaction: "[NX3;+0:1]-!@[CX4;!H0:2]>>[N:1].[C:2]=O",
    citations: [GUENGERICH_2001, TESTA_2007_REDOX],
    basis:
      "Heteroatom dealkylation: P450 hydroxylates the carbon α to nitrogen; the carbinolamine collapses to the " +
      "dealkylated amine and a carbonyl compound (Guengerich 2001; Testa & Krämer Part 2).",
  },
  {
    id: "aromatic_n_dealkylation",
    name: "N-dealkylation at an aromatic nitrogen",
    phase: "I",
    enzymes: "CYP (CYP1A2 for the methylxanthines)",
    // The same α-carbon hydroxylation at an N-alkyl of an aromatic ring nitrogen (azoles, pyrimidinediones:
    // the methylxanthines' N1, N3 and N7 methyls), which n_dealkylation's aliphatic N does not match;
    // the ring nitrogen keeps its aromaticity and takes the hydrogen.
    reaction: "[nX3;+0:1]-!@[CX4;!H0:2]>>[nH:1].[C:2]=O",
    citations: [GUENGERICH_2001, GU_1992, GATES_1999],
    basis:
      "Caffeine is N3-demethylated to paraxanthine (its main human metabolite), N1-demethylated to theobromine " +
      "and N7-demethylated to theophylline by CYP1A2 (Gu et al. 1992); theobromine is N3- and N1-demethylated " +
      "(Gates & Miners 1999): the heteroatom dealkylation of Guengerich 2001 at ring nitrogens.",
  },
  {
    id: "o_dealkylation",
    name: "O-dealkylation",
    phase: "I",
    enzymes: "CYP",
    // Ethers only: the oxygen's other neighbour is carbon that is not a carbonyl or imine carbon (esters excluded).
    reaction: "[#6;!$([#6]=[O,S,N]):1]-[OX2:2]-!@[CX4;!H0:3]>>[#6:1]-[OH:2].[C:3]=O",
    citations: [GUENGERICH_2001, TESTA_2007_REDOX],
    basis:
      "Heteroatom dealkylation of ethers: α-carbon hydroxylation gives a hemiacetal that breaks into the " +
      "alcohol or phenol and a carbonyl compound (Guengerich 2001; Testa & Krämer Part 2).",
  },
  {
    id: "s_dealkylation",
    name: "S-dealkylation",
    phase: "I",
    enzymes: "CYP",
    reaction: "[#6:1]-[SX2:2]-!@[CX4;!H0:3]>>[#6:1]-[SH:2].[C:3]=O",
    citations: [GUENGERICH_2001],
    basis:
      "Thioethers are dealkylated like ethers, by α-carbon hydroxylation and loss of the carbonyl compound " +
      "(Guengerich 2001, heteroatom release).",
  },
  {
    id: "s_oxidation",
    name: "S-oxidation (sulfide to sulfoxide, sulfoxide to sulfone)",
    phase: "I",
    enzymes: "FMO, CYP",
    reaction: "[$([SX2](-[#6])-[#6]),$([SX3](=O)(-[#6])-[#6]):1]>>[S:1]=O",
    citations: [CASHMAN_2006, GUENGERICH_2001],
    basis:
      "Nucleophilic sulfur of sulfides is oxygenated to sulfoxides and sulfones by FMOs and P450s " +
      "(Cashman & Zhang 2006; Guengerich 2001, heteroatom oxygenation).",
  },
  {
    id: "n_oxidation",
    name: "N-oxidation (tertiary amine or pyridine-type nitrogen to N-oxide)",
    phase: "I",
    enzymes: "FMO, CYP",
    // Tertiary sp3 amines not bonded to an aryl, carbonyl, imine or heteroatom; and aromatic N with no H.
    reaction: "[$([NX3;H0;+0;!$(N-a);!$(N-[#6]=[O,N,S]);!$(N-[!#6])]),$([nX2;+0;r6]):1]>>[*+:1]-[O-]",
    citations: [CASHMAN_2006, GUENGERICH_2001],
    basis:
      "Soft nucleophilic nitrogens, tertiary amines above all, are N-oxygenated by FMOs (and P450s) to " +
      "N-oxides (Cashman & Zhang 2006; Guengerich 2001, heteroatom oxygenation).",
  },
  {
    id: "alkene_epoxidation",
    name: "Alkene epoxidation",
    phase: "I",
    enzymes: "CYP",
    // Non-aromatic C=C not conjugated to a carbonyl (Michael acceptors react otherwise).
    reaction: "[CX3;!$(C-[CX3]=[O,S]);!$(C=[C,N]-[CX3]=O):1]=[CX3;!$(C-[CX3]=[O,S]):2]>>[C:1]1-O-[C:2]-1",
    citations: [GUENGERICH_2001, TESTA_2007_REDOX],
    basis:
      "P450s transfer oxygen to olefins, giving epoxides (Guengerich 2001, epoxidation; Testa & Krämer Part 2).",
  },
  {
    id: "ester_hydrolysis",
    name: "Ester hydrolysis",
    phase: "I",
    enzymes: "carboxylesterases, other esterases",
    reaction: "[#6:1]-[CX3:2](=[O:3])-!@[OX2:4]-[#6:5]>>[#6:1]-[C:2](=[O:3])-[OH].[OH:4]-[#6:5]",
    citations: [TESTA_2007_HYDROLYSIS],
    basis:
      "Carboxylic esters are hydrolysed, chiefly by carboxylesterases, to the acid and the alcohol or phenol " +
      "(Testa & Krämer Part 3).",
  },
  {
    id: "amide_hydrolysis",
    name: "Amide hydrolysis",
    phase: "I",
    enzymes: "amidases, carboxylesterases",
    // Acyclic carboxamides of carbon acids; ureas, carbamates and imides excluded.
    reaction: "[#6:1]-[CX3:2](=[O:3])-!@[NX3;+0;!$(N(-C=O)-C=O):4]>>[#6:1]-[C:2](=[O:3])-[OH].[N:4]",
    citations: [TESTA_2007_HYDROLYSIS],
    basis:
      "Amides are hydrolysed to the acid and the amine, by amidases and some carboxylesterases, much more " +
      "slowly than esters (Testa & Krämer Part 3).",
  },
  {
    id: "o_glucuronidation",
    name: "O-glucuronidation (phenols, alcohols, carboxylic acids)",
    phase: "II",
    enzymes: "UGT",
    reaction: `[OX2H1;$(O-c),$(O-[CX4]),$(O-C(=O)-[#6]):1]>>[O:1]-${BETA_GLUCURONYL}`,
    citations: [TESTA_2008_CONJUGATION],
    basis:
      "UDP-glucuronosyltransferases transfer glucuronic acid from UDPGA to hydroxy groups of phenols and " +
      "alcohols and to carboxylic acids (acyl glucuronides), giving β-D-glucuronides (Testa & Krämer Part 4).",
  },
  {
    id: "o_sulfation",
    name: "O-sulfation (phenols, alcohols)",
    phase: "II",
    enzymes: "SULT",
    reaction: "[OX2H1;$(O-c),$(O-[CX4]):1]>>[O:1]-S(=O)(=O)-[OH]",
    citations: [TESTA_2008_CONJUGATION],
    basis:
      "Sulfotransferases transfer sulfate from PAPS to phenols and alcohols, giving sulfate monoesters " +
      "(Testa & Krämer Part 4).",
  },
  {
    id: "n_acetylation",
    name: "N-acetylation of aromatic amines and hydrazines",
    phase: "II",
    enzymes: "NAT1, NAT2",
    reaction: "[NX3H2;+0;$(N-c),$(N-[NX3]):1]>>[N:1]-C(-[CH3])=O",
    citations: [TESTA_2008_CONJUGATION],
    basis:
      "N-acetyltransferases acetylate primary aromatic amines and hydrazines with acetyl-CoA " +
      "(Testa & Krämer Part 4).",
  },
];
