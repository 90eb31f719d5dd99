#!/usr/bin/env bash
# scripts/test.sh: what `npm test` runs (through scripts/with-node24.sh): typecheck, lint, then every
# unit, package, system and script test. `npm test -- --help` reaches this script as its argument,
# so help is answered here, before anything runs (issue 37 item 9).
set -euo pipefail

usage() {
  cat <<'USAGE'
Usage: npm test [-- -h|--help]   (bash scripts/test.sh)

Runs the whole suite: npm run typecheck (tsc -b), npm run lint (biome check .), then
npm run test:unit (node --test over packages/*/src, packages/*/test, test/, scripts/, bench/).
It takes no arguments. To run a few tests: node --test path/to/file.test.ts
  -h, --help  print this and run nothing
USAGE
}

case "${1:-}" in
  -h | --help)
    usage
    exit 0
    ;;
  "") ;;
  *)
    echo "error: npm test takes no arguments (got $1); run one file with: node --test $1" >&2
    echo "Run with --help for usage." >&2
    exit 2
    ;;
esac

repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$repo"
npm run typecheck
npm run lint
npm run test:unit
