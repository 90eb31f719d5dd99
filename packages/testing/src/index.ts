export {
  assertValidJobManifest,
  type InjectedFailure,
  type KubeApiDouble,
  type KubeApiDoubleOptions,
  type KubeObject,
  matchesLabelSelector,
  type RecordedKubeRequest,
  startKubeApiDouble,
  type WriteKubeconfigOptions,
  writeKubeconfig,
} from "./kube/index.ts";
