#!/usr/bin/env bash
# Remove a job chart release (spec §2.8 step 9). Keeps data unless told otherwise.
set -euo pipefail

script_dir=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source-path=SCRIPTDIR source=_common.sh
source "$script_dir/_common.sh"

usage() {
  cat <<'USAGE'
Usage: tools/clean_uninstall.sh --namespace NS --release REL [options]

Deletes the release's Job (and its pods), uninstalls the Helm release and removes leftover
helper pods. By default it KEEPS the namespace, the claim <release>-data (inputs and outputs)
and the external reporting secret.

Options:
  --namespace NS             Kubernetes namespace of the release (required)
  --release REL              Helm release name (required)
  --delete-pvc               also delete the claim <release>-data: all staged inputs and outputs are lost
  --delete-namespace         also delete the namespace and everything left in it
  --delete-reporting-secret  also delete the reporting secret
  --reporting-secret NAME    name of the reporting secret (default: svc-reporting-secret)
  --timeout SECONDS          wait at most this long per phase (default: 180)
  --yes                      do not ask before destructive deletions
  -h, --help                 show this help
USAGE
}

namespace="" release="" delete_pvc=false delete_namespace=false delete_secret=false
reporting_secret="svc-reporting-secret" timeout=180 assume_yes=false
while [ $# -gt 0 ]; do
  case "$1" in
    --namespace) require_value "$@"; namespace=$2; shift 2 ;;
    --release) require_value "$@"; release=$2; shift 2 ;;
    --delete-pvc) delete_pvc=true; shift ;;
    --delete-namespace) delete_namespace=true; shift ;;
    --delete-reporting-secret) delete_secret=true; shift ;;
    --reporting-secret) require_value "$@"; reporting_secret=$2; shift 2 ;;
    --timeout) require_value "$@"; timeout=$2; shift 2 ;;
    --yes) assume_yes=true; shift ;;
    -h | --help) usage; exit 0 ;;
    *) usage_error "unknown option: $1" ;;
  esac
done

[ -n "$namespace" ] || usage_error "--namespace is required"
[ -n "$release" ] || usage_error "--release is required"
[[ "$timeout" =~ ^[0-9]+$ ]] || usage_error "--timeout takes whole seconds"

claim="$release-data"
destructive=()
if $delete_pvc; then destructive+=("the claim $claim with all staged inputs and run outputs"); fi
if $delete_secret; then destructive+=("the reporting secret $reporting_secret"); fi
if $delete_namespace; then destructive+=("the namespace $namespace and everything in it"); fi

# Destructive options ask first; nothing is touched before the answer.
if [ ${#destructive[@]} -gt 0 ] && ! $assume_yes; then
  echo "This will permanently delete:" >&2
  printf '  - %s\n' "${destructive[@]}" >&2
  printf 'Type "yes" to continue: ' >&2
  answer=""
  read -r answer || true
  if [ "$answer" != "yes" ]; then
    echo "Aborted; nothing was deleted." >&2
    exit 1
  fi
fi

log "deleting Job $release (its pods too)"
kubectl delete job "$release" --namespace "$namespace" --ignore-not-found --cascade=background --wait=true --timeout="${timeout}s"

if helm status "$release" --namespace "$namespace" >/dev/null 2>&1; then
  log "uninstalling release $release"
  helm uninstall "$release" --namespace "$namespace" --wait --timeout "${timeout}s"
else
  log "release $release is not installed in $namespace"
fi

log "removing leftover helper pods"
kubectl delete pod --namespace "$namespace" --selector "$(helper_labels "$release")" --ignore-not-found --wait=true --timeout="${timeout}s"

if $delete_pvc; then
  log "deleting claim $claim"
  kubectl delete pvc "$claim" --namespace "$namespace" --ignore-not-found --wait=true --timeout="${timeout}s"
else
  log "kept claim $claim (use --delete-pvc to remove it)"
fi

if $delete_secret; then
  log "deleting reporting secret $reporting_secret"
  kubectl delete secret "$reporting_secret" --namespace "$namespace" --ignore-not-found --timeout="${timeout}s"
else
  log "kept reporting secret $reporting_secret"
fi

if $delete_namespace; then
  log "deleting namespace $namespace"
  kubectl delete namespace "$namespace" --namespace "$namespace" --ignore-not-found --wait=true --timeout="${timeout}s"
else
  log "kept namespace $namespace"
fi
log "done"
