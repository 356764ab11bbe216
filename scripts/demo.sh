#!/usr/bin/env bash
# The main job on the bundled fixture web (make demo builds bin/gleaner first):
# serve the fixture sites, run a focused crawl on their on-topic theme (energy)
# with Chromium rendering, learning each site's templates and extracting as it
# goes, export the relevant documents (JSONL) and the hyperlink graph, run the
# linguistic chain over the extractions, and print the summary: harvest rate
# and extraction F1 against the fixtures' gold. About two minutes.
set -euo pipefail
cd "$(dirname "$0")/.."
out=${DEMO_OUT:-demo-out}
rm -rf "$out"
mkdir -p "$out"
db="$out/demo.db"

echo "== strategies: harvest rate after 200 pages (plain HTTP, reproducible)"
bin/gleaner crawl harvest --pages 200

echo
echo "== focused crawl of the fixture web (Chromium, OPIC, templates learned while crawling)"
bin/gleaner crawl --db "$db" --fixtures --name demo --strategy opic \
  --max-pages "${DEMO_PAGES:-60}" --tabs 3 --delay 100ms --timeout 20s \
  --corpus "$out/corpus.jsonl" --graph "$out/graph"

echo
echo "== linguistic chain over the extracted pages"
bin/gleaner export --db "$db" --format jsonl,conllu --out "$out/chain" --no-apertium 2>&1 | tail -3 || true

echo
echo "== outputs"
ls -l "$out" "$out/graph" "$out/chain" 2>/dev/null | grep -v '^total'
head -c 600 "$out/corpus.jsonl"; echo
