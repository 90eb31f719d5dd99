#!/usr/bin/env bash
# scripts/test.sh: what `npm test` runs (through scripts/with-node24.sh): typecheck, lint, then the three
# test tiers, fast first (issue 41 item 4), printing each tier's wall time and the total. `npm test --
# --help` reaches this script as its argument, so help is answered here, before anything runs (issue 37
# item 9).
set -euo pipefail

usage() {
  cat <<'USAGE'
Usage: npm test [-- -h|--help]   (bash scripts/test.sh)

Runs the whole suite: npm run typecheck (tsc -b), npm run lint (biome check .), then every test
file under packages/*/src, packages/*/test, test/, scripts/ and bench/, in three tiers:
  npm run test:fast        *.test.ts: in-process tests, no child process
  npm run test:e2e         *.e2e.test.ts: tests that start processes, external tools or runner runs
  npm run test:validation  *.validation.test.ts: science against native RDKit, PLIP, ProDy and vina,
                           and the model-quality figures of the docs
After each tier: "test:<tier> N s" (its wall time, beside its files, CPU-s and load average),
then the total of the three.
Every tier runs even when an earlier one fails; the exit status is non-zero if any failed.
npm run test:unit runs the same files in one node --test run. It takes no arguments.
To run a few tests: node --test path/to/file.test.ts
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

started=$(date +%s)
failed=()
for tier in fast e2e validation; do
  tier_started=$(date +%s)
  npm run "test:$tier" || failed+=("test:$tier")
  echo "test:$tier $(($(date +%s) - tier_started)) s"
done
echo "total $(($(date +%s) - started)) s for the three tiers (load average $(cut -d' ' -f1-3 /proc/loadavg))"
if [ "${#failed[@]}" -gt 0 ]; then
  echo "error: ${failed[*]} failed" >&2
  exit 1
fi
