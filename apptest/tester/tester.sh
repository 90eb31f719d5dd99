#!/usr/bin/env bash
# Deployment app test for the preflight service (domain notes: "Preflight includes an app test").
# Usage: APP_BASE_URL=http://127.0.0.1:8080 apptest/tester/tester.sh
# Checks the open endpoints: /api/health answers status "ok", /api/config answers the runtime
# wiring (inCluster), /api/modules lists the computational module, and /api/ready proves the service
# reaches Kubernetes with its own identity (a preflight without Kubernetes cannot launch anything).
# Exits non-zero on any failure, with the reason.
set -euo pipefail

base_url="${APP_BASE_URL:?set APP_BASE_URL, e.g. http://127.0.0.1:8080}"
base_url="${base_url%/}"
timeout_sec="${TESTER_TIMEOUT_SEC:-10}"
failures=0

# fetch PATH: prints the body; fails unless the status is 200, printing the service's error message.
fetch() {
  local path="$1" body status message
  body="$(curl --silent --show-error --max-time "$timeout_sec" --write-out '\n%{http_code}' "${base_url}${path}")" || return 1
  status="${body##*$'\n'}"
  body="${body%$'\n'*}"
  if [ "$status" != "200" ]; then
    message="$(sed -n 's/.*"message"[[:space:]]*:[[:space:]]*"\([^"]*\)".*/\1/p' <<<"$body")"
    echo "  ${path}: HTTP ${status}${message:+: ${message}}" >&2
    return 1
  fi
  printf '%s' "$body"
}

# check NAME PATH REGEX: the body of PATH must match the extended regular expression.
check() {
  local name="$1" path="$2" pattern="$3" body
  if body="$(fetch "$path")" && grep -Eq -- "$pattern" <<<"$body"; then
    echo "PASS ${name}"
  else
    echo "FAIL ${name} (${path} did not match ${pattern})" >&2
    failures=$((failures + 1))
  fi
}

check "health status ok" /api/health '"status"[[:space:]]*:[[:space:]]*"ok"'
check "config reports inCluster" /api/config '"inCluster"[[:space:]]*:[[:space:]]*(true|false)'
check "modules has computational" /api/modules '"id"[[:space:]]*:[[:space:]]*"computational"'
check "kubernetes reachable" /api/ready '"reachable"[[:space:]]*:[[:space:]]*true'

if [ "$failures" -ne 0 ]; then
  echo "tester: ${failures} check(s) failed against ${base_url}" >&2
  exit 1
fi
echo "tester: all checks passed against ${base_url}"
