// @svc/science/decision: the target product profiles a portfolio is ranked for.
export {
  DEFAULT_PROFILE,
  isTargetProductProfile,
  PROFILE_DESCRIPTIONS,
  TARGET_PRODUCT_PROFILES,
  type TargetProductProfile,
} from "./target-product-profile.ts";
