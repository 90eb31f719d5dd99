#!/usr/bin/env bash
# Sourced by tools/build-images.sh and tools/smoke-images.sh: points podman and skopeo at a private
# store and config under the images work dir, so nothing global on the machine changes.
# images_env WORK: writes WORK/containers.conf and WORK/storage.conf, exports CONTAINERS_CONF,
# CONTAINERS_STORAGE_CONF and CONTAINERS_REGISTRIES_CONF, and wraps `podman` with --root/--runroot.
# The engine settings are the ones this kind of machine needs (issue 28): runc with cgroupfs, file
# ulimits podman can set, and host networking — never the default bridge, which rewrites the
# machine's firewall.

# Run rather than sourced (e.g. with --help): say what it is and do nothing.
if [ "${BASH_SOURCE[0]}" = "$0" ]; then
  echo "tools/images-env.sh is sourced by tools/build-images.sh and tools/smoke-images.sh: it defines functions and runs nothing by itself."
  case "${1:-}" in -h | --help) exit 0 ;; *) exit 2 ;; esac
fi

images_env() {
  local work
  mkdir -p "$1/storage/root" "$1/storage/run" "$1/tmp"
  work="$(cd "$1" && pwd)"
  cat >"$work/containers.conf" <<CONF
[containers]
default_ulimits = ["nofile=20000:20000", "nproc=4096:4096"]
netns = "host"
log_driver = "k8s-file"

[engine]
runtime = "runc"
cgroup_manager = "cgroupfs"
events_logger = "file"
events_logfile_path = "$work/storage/run/events.log"
tmp_dir = "$work/storage/run/libpod"
CONF
  cat >"$work/storage.conf" <<CONF
[storage]
driver = "overlay"
graphroot = "$work/storage/root"
runroot = "$work/storage/run"
CONF
  cat >"$work/registries.conf" <<CONF
unqualified-search-registries = ["docker.io"]
short-name-mode = "permissive"
CONF
  export CONTAINERS_CONF="$work/containers.conf"
  export CONTAINERS_STORAGE_CONF="$work/storage.conf"
  export CONTAINERS_REGISTRIES_CONF="$work/registries.conf"
  export TMPDIR="$work/tmp"
  SVC_PODMAN_ROOT="$work/storage/root"
  SVC_PODMAN_RUNROOT="$work/storage/run"
}

podman() {
  command podman --root "$SVC_PODMAN_ROOT" --runroot "$SVC_PODMAN_RUNROOT" --storage-driver overlay "$@"
}

# release_mounts_under DIR: unmounts everything mounted below DIR, deepest first (lazily, so a busy
# mount goes as soon as it is free). tools/build-images.sh calls it however it ends (issue 37 item 9):
# an interrupted build leaves podman's overlay and shm mounts and mmdebstrap's chroot mounts there.
release_mounts_under() {
  local targets
  targets="$(awk -v prefix="$1/" 'index($2, prefix) == 1 { print $2 }' /proc/self/mounts | sort -r)"
  if [ -n "$targets" ]; then
    xargs -r -d '\n' umount -l <<<"$targets" 2>/dev/null || true
  fi
}
