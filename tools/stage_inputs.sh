#!/usr/bin/env bash
# Stage a project's input files where the audit job reads them (spec §2.2, §2.8 step 4).
set -euo pipefail

script_dir=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source-path=SCRIPTDIR source=_common.sh
source "$script_dir/_common.sh"

usage() {
  cat <<'USAGE'
Usage: tools/stage_inputs.sh --namespace NS --release REL --project-id ID --source DIR [options]

Copies DIR (the contents of 01_sources, with sources.json; or a project folder holding 01_sources/)
to <input-root>/<project-id>/01_sources/, replacing what was staged there before.

PVC mode (default): through a short-lived helper pod mounted on the claim <release>-data; the pod
is removed afterwards, also when a step fails. Cloudstore mode: to gs://<bucket>/<project-id>/01_sources.

Options:
  --namespace NS        Kubernetes namespace of the release (required)
  --release REL         Helm release of the job chart (required)
  --project-id ID       project id, the folder the runner reads (required)
  --source DIR          local folder to stage (required)
  --storage MODE        pvc (default) or cloudstore
  --bucket NAME         bucket (cloudstore mode)
  --claim NAME          claim to mount (default: <release>-data)
  --input-root PATH     input root inside the claim (default: /data/input)
  --helper-image IMAGE  image of the helper pod, needs sh and tar (default: busybox:1.36.1)
  --preflight REL       a preflight release shares the ReadWriteOnce claim: run the helper on its pod's node
  --timeout SECONDS     wait for the helper pod at most this long (default: 180)
  -h, --help            show this help
USAGE
}

namespace="" release="" project_id="" source_dir="" storage="pvc" bucket="" claim=""
input_root="/data/input" helper_image="busybox:1.36.1" timeout=180
while [ $# -gt 0 ]; do
  case "$1" in
    --namespace) require_value "$@"; namespace=$2; shift 2 ;;
    --release) require_value "$@"; release=$2; shift 2 ;;
    --project-id) require_value "$@"; project_id=$2; shift 2 ;;
    --source) require_value "$@"; source_dir=$2; shift 2 ;;
    --storage) require_value "$@"; storage=$2; shift 2 ;;
    --bucket) require_value "$@"; bucket=$2; shift 2 ;;
    --claim) require_value "$@"; claim=$2; shift 2 ;;
    --input-root) require_value "$@"; input_root=$2; shift 2 ;;
    --helper-image) require_value "$@"; helper_image=$2; shift 2 ;;
    --preflight) require_value "$@"; HELPER_CO_LOCATE_WITH=$2; shift 2 ;;
    --timeout) require_value "$@"; timeout=$2; shift 2 ;;
    -h | --help) usage; exit 0 ;;
    *) usage_error "unknown option: $1" ;;
  esac
done

[ -n "$namespace" ] || usage_error "--namespace is required"
[ -n "$release" ] || usage_error "--release is required"
[ -n "$project_id" ] || usage_error "--project-id is required"
[ -n "$source_dir" ] || usage_error "--source is required"
[[ "$project_id" =~ ^[A-Za-z0-9][A-Za-z0-9._-]*$ ]] || usage_error "--project-id may hold letters, digits, '.', '_' and '-' only"
[[ "$timeout" =~ ^[0-9]+$ ]] || usage_error "--timeout takes whole seconds"
[ -d "$source_dir" ] || usage_error "--source $source_dir is not a directory"
# Accept a project folder too: stage its 01_sources/.
if [ -d "$source_dir/01_sources" ]; then source_dir="$source_dir/01_sources"; fi
[ -f "$source_dir/sources.json" ] || die "$source_dir has no sources.json (the runner's entry point)"

case "$storage" in
  cloudstore)
    [ -n "$bucket" ] || usage_error "--bucket is required with --storage cloudstore"
    log "staging $source_dir to gs://$bucket/$project_id/01_sources"
    gcloud storage rsync --recursive --delete-unmatched-destination-objects "$source_dir" "gs://$bucket/$project_id/01_sources"
    exit 0
    ;;
  pvc) ;;
  *) usage_error "--storage must be pvc or cloudstore" ;;
esac

claim=${claim:-$release-data}
pod="${release:0:48}-stage-inputs"
target="${input_root%/}/$project_id/01_sources"

log "starting helper pod $pod on claim $claim"
start_helper_pod "$pod" "$release" "$claim" "$helper_image" false "$namespace" "$timeout"
log "copying $source_dir to $target"
# shellcheck disable=SC2016 # $1 expands in the pod's shell, not here.
kubectl exec --namespace "$namespace" "$pod" -- sh -c 'rm -rf "$1" && mkdir -p "$1"' sh "$target"
tar -C "$source_dir" -cf - . | kubectl exec -i --namespace "$namespace" "$pod" -- tar -xf - -C "$target"
kubectl exec --namespace "$namespace" "$pod" -- ls -la "$target"
log "staged inputs of project $project_id"
