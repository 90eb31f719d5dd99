#!/usr/bin/env bash
# Shared by the operator scripts in tools/ (sourced, not run).

# Run rather than sourced (e.g. with --help): say what it is and do nothing.
if [ "${BASH_SOURCE[0]}" = "$0" ]; then
  echo "tools/_common.sh is sourced by the operator scripts in tools/ (deploy_job.sh, stage_inputs.sh, fetch_outputs.sh, clean_uninstall.sh): it defines functions and runs nothing by itself."
  case "${1:-}" in -h | --help) exit 0 ;; *) exit 2 ;; esac
fi

die() {
  echo "error: $*" >&2
  exit 1
}

usage_error() {
  echo "error: $*" >&2
  echo "Run with --help for usage." >&2
  exit 2
}

log() {
  echo "==> $*" >&2
}

# require_value OPTION VALUE: an option that takes a value got one.
require_value() {
  if [ $# -lt 2 ] || [ -z "$2" ] || [[ "$2" == --* ]]; then
    usage_error "$1 needs a value"
  fi
}

# Helper pods that stage inputs and read outputs carry these labels, so clean_uninstall.sh can
# find leftovers (spec §7: a leftover helper pod holding a ReadWriteOnce claim blocks the Job).
helper_labels() {
  printf 'app.kubernetes.io/instance=%s,app.kubernetes.io/component=data-helper' "$1"
}

# With HELPER_CO_LOCATE_WITH set to a preflight release, helper pods are scheduled on the node of
# that release's pod: it holds a ReadWriteOnce claim (docs/contracts/storage-layout.md).
HELPER_CO_LOCATE_WITH=${HELPER_CO_LOCATE_WITH:-}

# helper_pod_manifest NAME RELEASE CLAIM IMAGE READ_ONLY: a short-lived, non-root pod with the
# claim mounted at /data. It ends by itself after an hour if a script is killed before cleanup.
helper_pod_manifest() {
  local name=$1 release=$2 claim=$3 image=$4 read_only=$5
  cat <<MANIFEST
apiVersion: v1
kind: Pod
metadata:
  name: ${name}
  labels:
    app.kubernetes.io/instance: ${release}
    app.kubernetes.io/component: data-helper
    app.kubernetes.io/managed-by: svc-tools
spec:
  restartPolicy: Never
  activeDeadlineSeconds: 3600
  automountServiceAccountToken: false
  securityContext:
    runAsNonRoot: true
    runAsUser: 10001
    runAsGroup: 10001
    fsGroup: 10001
    seccompProfile:
      type: RuntimeDefault
  containers:
    - name: helper
      image: ${image}
      command: ["sleep", "3600"]
      securityContext:
        allowPrivilegeEscalation: false
        readOnlyRootFilesystem: true
        capabilities:
          drop: ["ALL"]
      resources:
        requests: {cpu: 50m, memory: 64Mi}
        limits: {cpu: 500m, memory: 256Mi}
      volumeMounts:
        - name: data
          mountPath: /data
          readOnly: ${read_only}
  volumes:
    - name: data
      persistentVolumeClaim:
        claimName: ${claim}
MANIFEST
  if [ -n "$HELPER_CO_LOCATE_WITH" ]; then
    cat <<AFFINITY
  affinity:
    podAffinity:
      requiredDuringSchedulingIgnoredDuringExecution:
        - labelSelector:
            matchLabels:
              app.kubernetes.io/name: svc-preflight
              app.kubernetes.io/instance: ${HELPER_CO_LOCATE_WITH}
          topologyKey: kubernetes.io/hostname
AFFINITY
  fi
}

# start_helper_pod NAME RELEASE CLAIM IMAGE READ_ONLY NAMESPACE TIMEOUT_SEC: replaces a leftover
# helper of the same name (it would hold the claim), arranges its removal when the script exits,
# also on failure, then starts it and waits until it is Ready.
start_helper_pod() {
  local name=$1 release=$2 claim=$3 image=$4 read_only=$5 namespace=$6 timeout=$7
  kubectl delete pod "$name" --namespace "$namespace" --ignore-not-found --wait=true
  HELPER_POD=$name
  HELPER_NAMESPACE=$namespace
  trap remove_helper_pod EXIT
  helper_pod_manifest "$name" "$release" "$claim" "$image" "$read_only" | kubectl apply --namespace "$namespace" -f -
  kubectl wait --namespace "$namespace" --for=condition=Ready "pod/$name" --timeout="${timeout}s"
}

remove_helper_pod() {
  kubectl delete pod "$HELPER_POD" --namespace "$HELPER_NAMESPACE" --ignore-not-found --wait=false >/dev/null || true
}
