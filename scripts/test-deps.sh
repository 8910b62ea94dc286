#!/usr/bin/env bash
# The system programs the test suite uses, from Debian's packages when they are missing: Chromium (the HTML reports
# are tested in a real browser, never one a test tool downloads) and bubblewrap (evaluation attempts are sealed by it,
# and the adversarial tests run sealed), and jq (a scripted agent narrows a listing with it, as agents do); then the
# official MCP conformance suite with the Node 22 it needs, from npm, locked in test/tools/mcp-conformance.
set -euo pipefail
missing=()
command -v chromium >/dev/null || missing+=(chromium)
command -v bwrap >/dev/null || missing+=(bubblewrap)
command -v jq >/dev/null || missing+=(jq)
if [ ${#missing[@]} -gt 0 ]; then
  SUDO=$([ "$(id -u)" = 0 ] || echo sudo)
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi
chromium --version
bwrap --version
# Reinstalled only when its lock changed: the copy of the lock beside what it installed says what that was.
conformance="$(dirname "$0")/../test/tools/mcp-conformance"
if ! cmp -s "$conformance/package-lock.json" "$conformance/node_modules/.installed-lock.json"; then
  npm ci --prefix "$conformance" --no-audit --no-fund >/dev/null
  cp "$conformance/package-lock.json" "$conformance/node_modules/.installed-lock.json"
fi
"$conformance/node_modules/.bin/node" --version
