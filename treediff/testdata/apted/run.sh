#!/usr/bin/env bash
# Builds APTED (github.com/DatabaseGroup/apted, MIT) from a source checkout
# and times it on ted-bench with our harness TedBench.java, so that
# BenchmarkTED compares with APTED run on this machine in this session
# (see scripts/bench-ted). Nothing of APTED is committed: its source comes
# from $APTED_SRC or a clone into build/src, and is compiled into build/
# (gitignored).
#
# Usage: run.sh [TedBench options: --out FILE --runs R --variants V,.. --ids ID,..]
# Env:   APTED_SRC  a checkout of DatabaseGroup/apted (the folder holding src/main/java)
#        TED_BENCH  the ted-bench folder (default: ../shared/data/ted-bench beside the repository)
#        JAVA_OPTS  extra JVM options
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../../.." && pwd)
build=$here/build
bench=${TED_BENCH:-$root/../shared/data/ted-bench}

find_source() {
  if [[ -n ${APTED_SRC:-} ]]; then
    src=$APTED_SRC
  elif [[ -d $build/src/src/main/java ]]; then
    src=$build/src
  else
    mkdir -p "$build"
    echo "run.sh: APTED_SRC not set; cloning https://github.com/DatabaseGroup/apted into $build/src" >&2
    if ! git clone --quiet --depth 1 https://github.com/DatabaseGroup/apted "$build/src" >&2; then
      echo "run.sh: no APTED source: set APTED_SRC to a checkout of github.com/DatabaseGroup/apted" \
        "(the folder that holds src/main/java/at/unisalzburg/dbresearch/apted)" >&2
      exit 2
    fi
    src=$build/src
  fi
  if [[ ! -f $src/src/main/java/at/unisalzburg/dbresearch/apted/distance/APTED.java ]]; then
    echo "run.sh: $src has no src/main/java/at/unisalzburg/dbresearch/apted/distance/APTED.java:" \
      "set APTED_SRC to a checkout of github.com/DatabaseGroup/apted" >&2
    exit 2
  fi
}

compile() {
  # javac finds APTED's classes through -sourcepath and compiles only those
  # the harness uses; rebuilt every run (a few seconds) into a folder of this
  # process, so a changed APTED_SRC is never timed with stale classes and
  # two runs never share one.
  classes=$build/classes.$$
  trap 'rm -rf "$classes"' EXIT
  mkdir -p "$classes"
  javac -nowarn -encoding UTF-8 -d "$classes" -sourcepath "$src/src/main/java" \
    "$here/TedBench.java" 2> >(grep -v '^Note:' >&2)
}

command -v javac >/dev/null || { echo "run.sh: javac not found (install a JDK, 17 or later)" >&2; exit 2; }
[[ -f $bench/pairs.tsv ]] || { echo "run.sh: $bench/pairs.tsv not found: set TED_BENCH to the ted-bench folder" >&2; exit 2; }
find_source
compile
# -Xss: APTED's parser and indexer recurse once per tree level.
java -Xss64m ${JAVA_OPTS:-} -cp "$classes" TedBench --bench "$bench" "$@"
