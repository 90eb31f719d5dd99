#!/usr/bin/env bash
# Smoke tests in the images tools/build-images.sh built (issue 28 item 1): runs
# test/images/images.e2e.test.ts with SVC_IMAGE_TESTS=1 against the same private podman store.
# Usage: tools/smoke-images.sh          (after tools/build-images.sh; same SVC_IMAGES_DIR/SVC_IMAGE_TAG)
set -euo pipefail

usage() {
  cat <<'USAGE'
Usage: tools/smoke-images.sh [-h|--help]

Runs test/images/images.e2e.test.ts (SVC_IMAGE_TESTS=1) against the images tools/build-images.sh built,
in the same private podman store. Takes no arguments; with -h or --help it prints this and does
nothing else.

Env:
  SVC_IMAGES_DIR   the build's work dir (default .tools/images)
  SVC_IMAGE_TAG    tag of the images to test (default: dev)
USAGE
}
case "${1:-}" in
  -h | --help)
    usage
    exit 0
    ;;
  "") ;;
  *)
    echo "error: unknown argument $1 (tools/smoke-images.sh takes none)" >&2
    echo "Run with --help for usage." >&2
    exit 2
    ;;
esac

repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
work="${SVC_IMAGES_DIR:-$repo/.tools/images}"
if [ ! -f "$work/storage.conf" ]; then
  echo "error: no image store in $work: run tools/build-images.sh first" >&2
  exit 1
fi
work="$(cd "$work" && pwd)"
# The test's own temp dirs stay in the caller's TMPDIR (the CI's leftover check watches it).
caller_tmp="${TMPDIR:-/tmp}"
# shellcheck source=tools/images-env.sh
source "$repo/tools/images-env.sh"
images_env "$work"
export TMPDIR="$caller_tmp"

cd "$repo"
started=$(date +%s)
SVC_IMAGE_TESTS=1 node --test --test-concurrency=1 test/images/images.e2e.test.ts
echo "image smoke tests passed in $(($(date +%s) - started)) s"
