#!/usr/bin/env bash
# Copy a run's outputs to this machine (spec §2.3, §2.8 step 8).
set -euo pipefail

script_dir=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source-path=SCRIPTDIR source=_common.sh
source "$script_dir/_common.sh"

usage() {
  cat <<'USAGE'
Usage: tools/fetch_outputs.sh --namespace NS --release REL --run-id ID --dest DIR [options]

Copies <output-root>/<run-id>/ (results/, seal/, thresholds/, repro_pack/, run_manifest.json ...)
into DIR.

PVC mode (default): through a short-lived helper pod with the claim <release>-data mounted
read-only; the pod is removed afterwards, also when a step fails. Cloudstore mode: from
gs://<bucket>/<project-id>/results/<run-id>.

Options:
  --namespace NS        Kubernetes namespace of the release (required)
  --release REL         Helm release of the job chart (required)
  --run-id ID           run whose outputs to fetch (required)
  --dest DIR            local destination folder, created if missing (required)
  --storage MODE        pvc (default) or cloudstore
  --bucket NAME         bucket (cloudstore mode)
  --project-id ID       project id (cloudstore mode)
  --claim NAME          claim to mount (default: <release>-data)
  --output-root PATH    output root inside the claim (default: /data/output)
  --helper-image IMAGE  image of the helper pod, needs sh and tar (default: busybox:1.36.1)
  --preflight REL       a preflight release shares the ReadWriteOnce claim: run the helper on its pod's node
  --timeout SECONDS     wait for the helper pod at most this long (default: 180)
  -h, --help            show this help
USAGE
}

namespace="" release="" run_id="" dest="" storage="pvc" bucket="" project_id="" claim=""
output_root="/data/output" helper_image="busybox:1.36.1" timeout=180
while [ $# -gt 0 ]; do
  case "$1" in
    --namespace) require_value "$@"; namespace=$2; shift 2 ;;
    --release) require_value "$@"; release=$2; shift 2 ;;
    --run-id) require_value "$@"; run_id=$2; shift 2 ;;
    --dest) require_value "$@"; dest=$2; shift 2 ;;
    --storage) require_value "$@"; storage=$2; shift 2 ;;
    --bucket) require_value "$@"; bucket=$2; shift 2 ;;
    --project-id) require_value "$@"; project_id=$2; shift 2 ;;
    --claim) require_value "$@"; claim=$2; shift 2 ;;
    --output-root) require_value "$@"; output_root=$2; shift 2 ;;
    --helper-image) require_value "$@"; helper_image=$2; shift 2 ;;
    --preflight) require_value "$@"; HELPER_CO_LOCATE_WITH=$2; shift 2 ;;
    --timeout) require_value "$@"; timeout=$2; shift 2 ;;
    -h | --help) usage; exit 0 ;;
    *) usage_error "unknown option: $1" ;;
  esac
done

[ -n "$namespace" ] || usage_error "--namespace is required"
[ -n "$release" ] || usage_error "--release is required"
[ -n "$run_id" ] || usage_error "--run-id is required"
[ -n "$dest" ] || usage_error "--dest is required"
[[ "$run_id" =~ ^[A-Za-z0-9][A-Za-z0-9._-]*$ ]] || usage_error "--run-id may hold letters, digits, '.', '_' and '-' only"
[[ "$timeout" =~ ^[0-9]+$ ]] || usage_error "--timeout takes whole seconds"

case "$storage" in
  cloudstore)
    [ -n "$bucket" ] || usage_error "--bucket is required with --storage cloudstore"
    [ -n "$project_id" ] || usage_error "--project-id is required with --storage cloudstore"
    mkdir -p "$dest"
    log "fetching gs://$bucket/$project_id/results/$run_id into $dest"
    gcloud storage rsync --recursive "gs://$bucket/$project_id/results/$run_id" "$dest"
    exit 0
    ;;
  pvc) ;;
  *) usage_error "--storage must be pvc or cloudstore" ;;
esac

claim=${claim:-$release-data}
pod="${release:0:47}-fetch-outputs"
run_dir="${output_root%/}/$run_id"

log "starting helper pod $pod on claim $claim (read-only)"
start_helper_pod "$pod" "$release" "$claim" "$helper_image" true "$namespace" "$timeout"
if ! kubectl exec --namespace "$namespace" "$pod" -- test -d "$run_dir"; then
  die "no outputs for run $run_id: $run_dir does not exist on claim $claim"
fi
mkdir -p "$dest"
log "copying $run_dir into $dest"
kubectl exec --namespace "$namespace" "$pod" -- tar -cf - -C "$run_dir" . | tar -xf - -C "$dest"
log "fetched run $run_id into $dest"
