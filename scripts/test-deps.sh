#!/usr/bin/env bash
# The system programs the test suite uses, from Debian's packages when they are missing: Chromium (the HTML reports
# are tested in a real browser, never one a test tool downloads) and bubblewrap (evaluation attempts are sealed by it,
# and the adversarial tests run sealed), and jq (a scripted agent narrows a listing with it, as agents do).
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
