#!/usr/bin/env bash
# Installs what Gleaner's demo and tests need on a fresh Debian machine that
# has only Go, gcc, git, python3 and apt. Idempotent: installs only what is
# missing. Run as root (CI and the developer machines are root).
set -euo pipefail

need=()
command -v chromium >/dev/null 2>&1 || need+=(chromium)
# Further Debian packages the project needs are appended to this list.

if [ ${#need[@]} -gt 0 ]; then
  echo "setup: installing ${need[*]}" >&2
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq --no-install-recommends "${need[@]}" >/dev/null
fi
