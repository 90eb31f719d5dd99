#!/usr/bin/env bash
# Run one audit with the job chart: spec §2.8 steps 2-7.
set -euo pipefail

script_dir=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source-path=SCRIPTDIR source=_common.sh
source "$script_dir/_common.sh"

usage() {
  cat <<'USAGE'
Usage: tools/deploy_job.sh --namespace NS --release REL --project-id ID [options]

Steps (spec §2.8), always with the same --namespace:
  1. create the namespace (an existing one is fine)
  2. install the chart with job.enabled=false (infrastructure: claim, service account, config)
  3. stage the inputs (with --inputs; tools/stage_inputs.sh)
  4. delete the previous Job of the release (Jobs are immutable)
  5. upgrade the release with job.enabled=true and the same values
  6. follow the Job's logs (all containers, with timestamps) until it succeeds or fails

Options:
  --namespace NS       Kubernetes namespace (required)
  --release REL        Helm release name; also the Job's name (required)
  --project-id ID      config.projectId (required)
  --run-id ID          config.runId, new for every run (default: run_<UTC yyyymmddThhmmssZ>)
  --mode MODE          standard (default) or deep (adds values-deep.yaml, the GPU overlay)
  --chart DIR          job chart (default: manifest/chart next to this script)
  -f, --values FILE    extra values file, after the profile files (repeatable)
  --set KEY=VALUE      extra value (repeatable)
  --inputs DIR         stage DIR first (the 01_sources folder, or a project folder holding it)
  --storage MODE       pvc (default) or cloudstore
  --bucket NAME        bucket (cloudstore mode)
  --preflight REL      a preflight release (chart/preflight) shares the ReadWriteOnce claim: the Job and
                       the staging helper run on its pod's node (storage.pvc.coLocateWithPreflight)
  --timeout SECONDS    wait for the Job at most this long (default: 86400)
  -h, --help           show this help

Exit status: 0 when the Job succeeded, 1 when it failed or timed out, 2 on a usage error.
USAGE
}

namespace="" release="" project_id="" run_id="" mode="standard" chart="" inputs="" storage="pvc" bucket="" preflight=""
timeout=86400
extra_values=()
extra_sets=()
while [ $# -gt 0 ]; do
  case "$1" in
    --namespace) require_value "$@"; namespace=$2; shift 2 ;;
    --release) require_value "$@"; release=$2; shift 2 ;;
    --project-id) require_value "$@"; project_id=$2; shift 2 ;;
    --run-id) require_value "$@"; run_id=$2; shift 2 ;;
    --mode) require_value "$@"; mode=$2; shift 2 ;;
    --chart) require_value "$@"; chart=$2; shift 2 ;;
    -f | --values) require_value "$@"; extra_values+=(--values "$2"); shift 2 ;;
    --set) require_value "$@"; extra_sets+=(--set "$2"); shift 2 ;;
    --inputs) require_value "$@"; inputs=$2; shift 2 ;;
    --storage) require_value "$@"; storage=$2; shift 2 ;;
    --bucket) require_value "$@"; bucket=$2; shift 2 ;;
    --preflight) require_value "$@"; preflight=$2; shift 2 ;;
    --timeout) require_value "$@"; timeout=$2; shift 2 ;;
    -h | --help) usage; exit 0 ;;
    *) usage_error "unknown option: $1" ;;
  esac
done

[ -n "$namespace" ] || usage_error "--namespace is required"
[ -n "$release" ] || usage_error "--release is required"
[ -n "$project_id" ] || usage_error "--project-id is required"
[[ "$timeout" =~ ^[0-9]+$ ]] || usage_error "--timeout takes whole seconds"
case "$mode" in standard | deep) ;; *) usage_error "--mode must be standard or deep" ;; esac
case "$storage" in
  pvc) ;;
  cloudstore) [ -n "$bucket" ] || usage_error "--bucket is required with --storage cloudstore" ;;
  *) usage_error "--storage must be pvc or cloudstore" ;;
esac
if [ -n "$inputs" ] && [ ! -d "$inputs" ]; then usage_error "--inputs $inputs is not a directory"; fi
run_id=${run_id:-run_$(date -u +%Y%m%dT%H%M%SZ)}
chart=${chart:-$(cd "$script_dir/.." && pwd)/manifest/chart}
[ -f "$chart/values-standard.yaml" ] || usage_error "--chart $chart has no values-standard.yaml"
poll_interval=${SVC_POLL_INTERVAL:-10}

# The same values for the infrastructure install and the Job upgrade; only job.enabled differs.
values=(--values "$chart/values-standard.yaml")
if [ "$mode" = "deep" ]; then values+=(--values "$chart/values-deep.yaml"); fi
values+=("${extra_values[@]}")
values+=(--set-string "config.projectId=$project_id" --set-string "config.runId=$run_id"
  --set-string "config.runMode=$mode" --set-string "storage.type=$storage")
if [ "$storage" = "cloudstore" ]; then values+=(--set-string "storage.cloudstore.bucket=$bucket"); fi
if [ -n "$preflight" ]; then values+=(--set-string "storage.pvc.coLocateWithPreflight=$preflight"); fi
values+=("${extra_sets[@]}")

log "step 1: namespace $namespace"
if ! output=$(kubectl create namespace "$namespace" --namespace "$namespace" 2>&1); then
  case "$output" in
    *AlreadyExists* | *"already exists"*) log "namespace $namespace already exists" ;;
    *) die "could not create namespace $namespace: $output" ;;
  esac
fi

log "step 2: infrastructure (job.enabled=false)"
helm upgrade --install "$release" "$chart" --namespace "$namespace" "${values[@]}" --set job.enabled=false

if [ -n "$inputs" ]; then
  log "step 3: stage inputs from $inputs"
  stage=("$script_dir/stage_inputs.sh" --namespace "$namespace" --release "$release" --project-id "$project_id"
    --source "$inputs" --storage "$storage")
  if [ "$storage" = "cloudstore" ]; then stage+=(--bucket "$bucket"); fi
  if [ -n "$preflight" ]; then stage+=(--preflight "$preflight"); fi
  "${stage[@]}"
else
  log "step 3: no --inputs given; using the inputs already staged for project $project_id"
fi

log "step 4: delete the previous Job $release (Jobs are immutable)"
kubectl delete job "$release" --namespace "$namespace" --ignore-not-found --cascade=background --wait=true --timeout=180s

log "step 5: run $run_id (job.enabled=true, same values)"
helm upgrade --install "$release" "$chart" --namespace "$namespace" "${values[@]}" --set job.enabled=true

log "step 6: logs of Job $release"
# Streams until the pod's containers end; a log hiccup must not abort the watch.
kubectl logs "job/$release" --namespace "$namespace" --all-containers=true --timestamps=true --prefix=true \
  --follow=true --pod-running-timeout="${timeout}s" || log "log stream ended early; still watching the Job"

deadline=$((SECONDS + timeout))
while :; do
  status=$(kubectl get job "$release" --namespace "$namespace" -o 'jsonpath={.status.succeeded}:{.status.failed}')
  succeeded=${status%%:*}
  failed=${status#*:}
  if [ "${succeeded:-0}" -ge 1 ]; then
    log "Job $release succeeded (run $run_id)"
    echo "Fetch the outputs: tools/fetch_outputs.sh --namespace $namespace --release $release --run-id $run_id --dest ./outputs/$run_id" >&2
    exit 0
  fi
  if [ "${failed:-0}" -ge 1 ]; then
    kubectl describe job "$release" --namespace "$namespace" >&2 || true
    die "Job $release failed (run $run_id); see the logs above"
  fi
  if [ "$SECONDS" -ge "$deadline" ]; then
    die "Job $release did not finish within ${timeout}s"
  fi
  sleep "$poll_interval"
done
