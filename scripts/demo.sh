#!/usr/bin/env bash
# The main job on the bundled fixture web (make demo builds bin/gleaner first):
# serve the fixture sites, run a focused crawl on their on-topic theme (energy)
# with Chromium rendering, learning each site's templates and extracting as it
# goes, export the relevant documents (JSONL) and the hyperlink graph, run the
# linguistic chain over the extractions, and print the summary: harvest rate
# and extraction F1 against the fixtures' gold; then a short news-monitoring
# run (3 rounds over the growing fixture newsroom). About two minutes.
# It ends by printing the command that opens the dashboard on the demo store.
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
  --max-pages "${DEMO_PAGES:-80}" --tabs 3 --delay 100ms --timeout 20s \
  --corpus "$out/corpus.jsonl" --graph "$out/graph"

echo
echo "== linguistic chain over the relevant documents (CoNLL-U)"
mkdir -p "$out/texts"
python3 - "$out/corpus.jsonl" "$out/texts" <<'PY'
import json, sys, os
for i, line in enumerate(open(sys.argv[1], encoding="utf-8")):
    d = json.loads(line)
    with open(os.path.join(sys.argv[2], "doc%03d.txt" % (i + 1)), "w", encoding="utf-8") as f:
        f.write(d["title"] + "\n\n" + d["text"] + "\n")
PY
bin/gleaner chain --format conllu "$out"/texts/*.txt > "$out/corpus.conllu"
echo "$(grep -c '^# newdoc' "$out/corpus.conllu") documents, $(grep -c '^[0-9]' "$out/corpus.conllu") tokens in $out/corpus.conllu"
grep -m 12 '^[0-9]' "$out/corpus.conllu"

echo
echo "== news monitoring: 3 rounds over the fixture newsroom's feeds and sitemaps (plain HTTP)"
echo "   (the fixture sites publish between rounds; new_precision / new_recall against their ground truth)"
bin/gleaner monitor --db "$db" --fixtures --rounds 3 --out "$out/monitor.jsonl"
echo "$(wc -l < "$out/monitor.jsonl") new documents in $out/monitor.jsonl"
bin/gleaner export --db "$db" --monitor default --round 3 --format conllu --out "$out/monitor-round3"

echo
echo "== outputs"
ls -l "$out" "$out/graph" | grep -v '^total'
head -c 400 "$out/corpus.jsonl"; echo

echo
echo "== dashboard: crawls, sites' templates, pages and corpus of this store in a browser"
echo "bin/gleaner serve --db $db    # then open http://127.0.0.1:8080/"
