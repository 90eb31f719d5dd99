export {
  type CoreResource,
  type ExecHandler,
  type ExecRequest,
  type ExecResult,
  type InjectedFailure,
  type KubeApiDouble,
  type KubeApiDoubleOptions,
  type KubeObject,
  type RecordedKubeRequest,
  startKubeApiDouble,
} from "./kube-api-double.ts";
export { matchesLabelSelector } from "./label-selector-match.ts";
export {
  type ProcessKubelet,
  type ProcessKubeletOptions,
  type RunningPod,
  startProcessKubelet,
} from "./process-kubelet.ts";
export { assertValidJobManifest } from "./validate-job-manifest.ts";
export { type WriteKubeconfigOptions, writeKubeconfig } from "./write-kubeconfig.ts";
