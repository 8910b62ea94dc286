#!/usr/bin/env bash
# The README's test command: the system programs the tests need, then every part of the suite — the static checks,
# npm test and the slow half — each run whatever the others gave, and a summary of all of them at the end. Exits 1
# when any part failed, so one failure never hides another.
set -uo pipefail
cd "$(dirname "$0")/.."
scripts/test-deps.sh || exit 1
results=()
failed=0
for part in check test test:slow; do
  started=$(date +%s)
  npm run "$part"
  code=$?
  took=$(($(date +%s) - started))
  if [ "$code" -eq 0 ]; then
    results+=("  passed  npm run $part (${took} s)")
  else
    results+=("  FAILED  npm run $part (exit $code, ${took} s)")
    failed=1
  fi
done
printf '\ntest-all:\n'
printf '%s\n' "${results[@]}"
exit "$failed"
