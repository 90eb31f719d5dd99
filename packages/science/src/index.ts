export {
  type AdmetAssessment,
  type AdmetFinding,
  type AdmetSummary,
  admetPredictions,
  BBBP_VALIDATION,
} from "./admet/admet-predictions.ts";
export { type BioavailabilityRadar, RADAR_RANGES, type RadarAxis } from "./admet/bioavailability-radar.ts";
export {
  BOILED_EGG,
  BOILED_EGG_CITATION,
  type BoiledEggCall,
  boiledEgg,
  type EggEllipse,
  ellipseLevel,
  ellipseOutline,
} from "./admet/boiled-egg.ts";
export { RULE_SETS, type RuleName, type RuleVerdict } from "./admet/drug-likeness-rules.ts";
export { computeQed, type QedProperties, qedProperties } from "./admet/qed.ts";
export { tdcInputs } from "./admet/tdc-compound.ts";
export { parseTdc, TDC_DATASETS } from "./admet/tdc-datasets.ts";
export { outOfDomainSkillShare } from "./admet/tdc-domain-file.ts";
export { classifyTdc, readTdcModelFile, regressTdc, tdcModel } from "./admet/tdc-model.ts";
export {
  type AnalysisContext,
  type AnalysisModule,
  type CompoundFinding,
  evidenceId,
  type InputKind,
  type MethodCard,
  type ModuleRun,
  type RiskChannel,
  ratio,
  type UpstreamFindings,
} from "./analysis-module.ts";
export {
  type ApprovedNeighbour,
  type ClinicalPrecedentFinding,
  type ClinicalPrecedentSummary,
  clinicalPrecedentPrior,
} from "./clinical/clinical-precedent-prior.ts";
export { CNS_MPO_COMPONENTS, CNS_MPO_THRESHOLD, type CnsMpo, cnsMpo } from "./cns/cns-mpo.ts";
export {
  type CnsPenetrationFinding,
  type CnsPenetrationSummary,
  cnsPenetration,
} from "./cns/cns-penetration.ts";
export type { CompoundRow } from "./compound-row.ts";
export { readDataFile } from "./data/read-data-file.ts";
export {
  DEFAULT_PROFILE,
  isTargetProductProfile,
  PROFILE_DESCRIPTIONS,
  TARGET_PRODUCT_PROFILES,
  type TargetProductProfile,
} from "./decision/target-product-profile.ts";
export {
  defineModule,
  inOneThread,
  type ModuleCounts,
  type ModuleDefinition,
  type ModuleRunDefinition,
  type NotAssessedBase,
  type ParsedCompound,
} from "./define-module.ts";
export { rocAuc } from "./fingerprint/roc-auc.ts";
export {
  DRUG_LIKENESS_RULES,
  type DrugLikenessFinding,
  type DrugLikenessSummary,
  evaluateRules,
  kinaseDrugLikeness,
  type RuleResult,
} from "./kinase-drug-likeness.ts";
export {
  type ManufacturabilityFinding,
  type ManufacturabilitySummary,
  manufacturabilityAudit,
} from "./manufacturability/manufacturability-audit.ts";
export {
  type ManufacturabilityProfile,
  manufacturabilityProfile,
} from "./manufacturability/manufacturability-profile.ts";
export { type CandidateSite, candidateSites } from "./metabolism/candidate-sites.ts";
export { METABOLISM_RULES, type MetabolismRule } from "./metabolism/metabolism-rules.ts";
export {
  type MetaboliteFinding,
  type MetaboliteSummary,
  metabolitePrediction,
} from "./metabolism/metabolite-prediction.ts";
export { type MolecularLogicFinding, type MolecularLogicSummary, molecularLogic } from "./molecular-logic.ts";
export { pearson } from "./numeric/pearson.ts";
export { round } from "./numeric/round.ts";
export { mulberry32 } from "./numeric/seeded-shuffle.ts";
export {
  type OfftargetScreeningFinding,
  type OfftargetScreeningSummary,
  offtargetScreening,
} from "./offtarget/offtarget-screening.ts";
export { chooseParent, PARENT_RULE, type ParentChoice } from "./parent/choose-parent.ts";
export { CLASS_DOMAIN_RULE } from "./parent/class-domain.ts";
export { valuesOutOfDomain } from "./parent/values-out-of-domain.ts";
export { releaseParentMol } from "./parent/with-parent-mol.ts";
export {
  auditLigandPhysics,
  CONFORMER_SEARCH,
  type LigandPhysics,
  PHYSICS_MAX_HEAVY_ATOMS,
} from "./physics/ligand-physics.ts";
export {
  MD_STABILITY_CAPS,
  MD_STABILITY_SETTINGS,
  type PoseStability,
  simulatePoseStability,
} from "./physics/md-stability.ts";
export { interactionStabilityMethod } from "./physics/md-stability-method.ts";
export {
  MM_GBSA_CAPS,
  MM_GBSA_SETTINGS,
  type MmGbsaReceptor,
  type MmGbsaScore,
  prepareMmGbsaReceptor,
  scoreMmGbsa,
} from "./physics/mm-gbsa.ts";
export { physicsBindingMethod } from "./physics/mm-gbsa-method.ts";
export { PHYSICS_CAPS, physicsAuditMethod, quantumTargetAuditMethod } from "./physics/physics-methods.ts";
export {
  type Descriptors,
  type ParsedChemistry,
  type PreparedCompound,
  prepareCompound,
} from "./prepare-compound.ts";
export { loadRDKit, type Mol, type ParseOutcome, parseSmiles, type RDKit } from "./rdkit.ts";
export { READINESS_SIGNALS, type SignalReading } from "./readiness/readiness-signals.ts";
export {
  type RankEntry,
  type ReadinessFinding,
  type ReadinessSummary,
  rankCompounds,
  wetlabReadiness,
} from "./readiness/wetlab-readiness.ts";
export { IMPLEMENTED_MODULES } from "./registry.ts";
export type { ActivityCliff } from "./sar/activity-cliffs.ts";
export type { MatchedPair, TransformationStats } from "./sar/matched-pairs.ts";
export type { SarFinding } from "./sar/sar-assessment.ts";
export { type SarSummary, sarExplorer } from "./sar/sar-explorer.ts";
export { murckoScaffoldSmiles } from "./scaffold/murcko-scaffold.ts";
export { SCIENCE_ERRORS, ScienceError, type ScienceErrorCode } from "./science-error.ts";
export { type SolubilityClass, solubilityClass } from "./solubility/esol.ts";
export {
  SOLUBILITY_TRAINING_DATA,
  type SolubilityFinding,
  type SolubilitySummary,
  solubilityAssessment,
} from "./solubility/solubility-assessment.ts";
export { predictSolubility, type SolubilityModelName } from "./solubility/solubility-models.ts";
export {
  AD4_GRID_SPACING,
  AD4_LIGAND_TYPES,
  type Ad4Maps,
  ad4GridParameterFile,
  prepareAd4Maps,
} from "./structure/ad4-maps.ts";
export { AMINO_ACIDS, proteinChains, selectCalphas } from "./structure/amino-acids.ts";
export {
  type AnmConformer,
  type AnmConformerPlan,
  displaceStructureText,
  ENSEMBLE_CALPHA_RMSD,
  ENSEMBLE_MODES,
  ENSEMBLE_RULE,
  planAnmConformers,
} from "./structure/anm-conformers.ts";
export { type AnmHessian, buildAnmHessian } from "./structure/anm-hessian.ts";
export { computeNormalModes, type NormalModes, squareFluctuations } from "./structure/anm-modes.ts";
export {
  CONSENSUS_RULE,
  type ConsensusScore,
  consensusScore,
  DEEP_RESCORERS,
  type Rescorer,
} from "./structure/consensus-score.ts";
export {
  type BatchDockingEngine,
  type ConsensusRescoring,
  createVinaDockingEngine,
  DEEP_EXHAUSTIVENESS,
  DOCKING_CPU_BUDGET_S,
  DOCKING_POSES,
  DOCKING_SEED,
  DOCKING_TIMEOUT_MS,
  type DockedCompound,
  type DockingCall,
  type DockingEngine,
  type DockingProfile,
  type DockingProfileSummary,
  type DockingReceptor,
  type DockingRequest,
  type DockingResult,
  type DockingSettings,
  dockCompound,
  type ReceptorScore,
  removeDockingFolder,
  STANDARD_EXHAUSTIVENESS,
  type UnassessedDocking,
  type VinaEngineOptions,
  vinaBatchArgs,
  vinaDockingArgs,
} from "./structure/docking-engine.ts";
export {
  ANM_CUTOFF_ANGSTROM,
  ANM_GAMMA,
  ANM_MODES,
  analyseDynamicsNma,
  DYNAMICS_NMA_METHOD,
  type DynamicsNmaResult,
  MAX_CALPHAS,
  type NmaPocket,
  POCKET_RADIUS_ANGSTROM,
} from "./structure/dynamics-nma.ts";
export type {
  LigandAtom,
  LigandBond,
  LigandStructure,
  ResidueRef,
} from "./structure/interactions/complex-structure.ts";
export { PLIP_CRITERIA } from "./structure/interactions/interaction-criteria.ts";
export { interactionKey } from "./structure/interactions/interaction-keys.ts";
export {
  INTERACTION_TYPES,
  type Interaction,
  type InteractionCounts,
  type InteractionProfile,
  type InteractionType,
  summarizeInteractions,
} from "./structure/interactions/interaction-profile.ts";
export { type ProfileOptions, profileInteractions } from "./structure/interactions/profile-interactions.ts";
export { LigandReadError, readLigandMolblock } from "./structure/interactions/read-ligand.ts";
export { ligandEfficiency } from "./structure/ligand-efficiency.ts";
export {
  createLigandPreparer,
  LIGAND_EMBEDDING_SEED,
  LIGAND_PROTONATION_RULE,
  type LigandInput,
  type LigandPreparer,
  type LigandPreparerOptions,
  type PreparedLigand,
  type PreparedLigandOk,
  type PreparedLigandUnassessed,
  prepareLigand,
} from "./structure/ligand-preparer.ts";
export {
  type MolfileAtom,
  type MolfileBond,
  type MolfileMolecule,
  parseMolBlock,
  parseSdf,
  readSdfCoordinates,
  splitSdf,
  withoutHydrogens,
} from "./structure/molfile.ts";
export { type PdbDialect, parsePdb } from "./structure/parse-pdb.ts";
export {
  createStructureReader,
  parseStructure,
  type StructureFormat,
  type StructureReader,
  structureFormatOf,
} from "./structure/parse-structure.ts";
export {
  isInBox,
  type LigandResidue,
  ligandResidueAtoms,
  nearestDistance,
  parseLigandResidue,
} from "./structure/pocket.ts";
export {
  isInsideBox,
  POCKET_BOX_MAX_SIZE,
  POCKET_BOX_MIN_SIZE,
  POCKET_BOX_PADDING,
  type PocketBox,
  type PocketBoxOptions,
  pocketBoxFromCenterSize,
  pocketBoxFromLigand,
} from "./structure/pocket-box.ts";
export {
  CLASH_FRACTION,
  checkPose,
  POSE_CHECK_TOLERANCE,
  type PoseCheck,
  type PoseCheckInput,
  type PoseCheckName,
  type PoseCheckResult,
} from "./structure/pose-checks.ts";
export { buildReceptorEnsemble, type ReceptorEnsemble } from "./structure/receptor-ensemble.ts";
export {
  createReceptorPreparer,
  type PreparedReceptor,
  prepareReceptor,
  RECEPTOR_PH,
  type ReceptorPreparationOptions,
  type ReceptorPreparationReport,
  type ReceptorPreparer,
  type ReceptorPreparerOptions,
} from "./structure/receptor-preparer.ts";
export type { ToolInvocation } from "./structure/run-tool.ts";
export { cpuMsOfStatFile } from "./structure/run-tool.ts";
export { type ParsedStructure, type StructureAtom, StructureParseError } from "./structure/structure-atom.ts";
export { StructureError, type StructureErrorCode } from "./structure/structure-error.ts";
export { type StructureToolVersions, structureToolVersions } from "./structure/tool-versions.ts";
// `Point` was the name of the same type in the pocket and normal-mode code; kept as an alias of the one home.
export type { Vec3, Vec3 as Point } from "./structure/vec3.ts";
export { parseVinaPoses, type VinaPose } from "./structure/vina-output.ts";
export { type SynthesisFinding, type SynthesisSummary, synthesisAudit } from "./synthesis/synthesis-audit.ts";
export { type SafetyTarget, safetyPanel } from "./target-risk/safety-panel.ts";
export type { StagedTarget, TargetAssessment } from "./target-risk/staged-target.ts";
export {
  type OffTargetLiability,
  type TargetBiologyRiskFinding,
  type TargetBiologyRiskSummary,
  targetBiologyRisk,
} from "./target-risk/target-biology-risk.ts";
export { findStructuralAlerts, type StructuralAlerts } from "./toxicity/structural-alerts.ts";
export {
  type ToxicityProfileFinding,
  type ToxicityProfileSummary,
  toxicityProfile,
} from "./toxicity/toxicity-profile.ts";
export { DEBIAN_CHECKS, UNAVAILABLE_MODULES } from "./unavailable-modules.ts";
export {
  CLASSIFIER_CALL_RULE,
  type ClassifierCall,
  classifierCall,
} from "./uncertainty/classifier-call.ts";
export {
  type EstimateDomain,
  type SolubilityUncertainty,
  type UncertaintyFinding,
  type UncertaintySummary,
  uncertaintyQuantification,
} from "./uncertainty/uncertainty-quantification.ts";
export {
  type AssayResult,
  type CompoundPrediction,
  MAX_COMPOUNDS as Y_SCRAMBLE_MAX_COMPOUNDS,
  MIN_COMPOUNDS as Y_SCRAMBLE_MIN_COMPOUNDS,
  type YScrambleFinding,
  type YScrambleSummary,
  yScrambleValidation,
} from "./yscramble/y-scramble-validation.ts";
