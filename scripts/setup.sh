#!/usr/bin/env bash
# Installs what Gleaner's demo and tests need on a fresh Debian machine that
# has only Go, gcc, git, python3 and apt. Idempotent: installs only what is
# missing. Run as root (CI and the developer machines are root).
set -euo pipefail

need=()
command -v chromium >/dev/null 2>&1 || need+=(chromium)
# Further Debian packages the project needs are appended to this list.
# Linguistic chain: Apertium's analyser and tagger, with the English and
# French data of the eng-spa and fr-es pairs (Debian has no German data).
command -v apertium-tagger >/dev/null 2>&1 || need+=(apertium)
command -v lt-proc >/dev/null 2>&1 || need+=(lttoolbox)
[ -e /usr/share/apertium/apertium-eng-spa/eng-spa.prob ] || need+=(apertium-eng-spa)
[ -e /usr/share/apertium/apertium-fr-es/fr-es.prob ] || need+=(apertium-fr-es)
# Export tests read back a WARC written by another implementation (Wget).
command -v wget >/dev/null 2>&1 || need+=(wget)
# The store's PostgreSQL back end is tested against a throwaway cluster
# (initdb, pg_ctl) that the store's tests start themselves.
compgen -G '/usr/lib/postgresql/*/bin/initdb' >/dev/null || need+=(postgresql)
# Export tests have Webrecorder's tools (npm) read the WARC and WACZ files.
command -v node >/dev/null 2>&1 || need+=(nodejs)
command -v npm >/dev/null 2>&1 || need+=(npm)

if [ ${#need[@]} -gt 0 ]; then
  echo "setup: installing ${need[*]}" >&2
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq --no-install-recommends "${need[@]}" >/dev/null
fi

# The npm packages of the export tests, as locked (again when the lock file
# changed).
npmdir="$(cd "$(dirname "$0")/.." && pwd)/export/testdata/npm"
if [ ! -e "$npmdir/node_modules/.package-lock.json" ] || [ "$npmdir/package-lock.json" -nt "$npmdir/node_modules/.package-lock.json" ]; then
  echo "setup: npm ci in $npmdir" >&2
  (cd "$npmdir" && npm ci --no-audit --no-fund --loglevel=error)
fi
