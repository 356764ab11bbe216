#!/usr/bin/env bash
# The main job on the bundled default. Grows with the pipeline.
set -euo pipefail
cd "$(dirname "$0")/.."
bin/gleaner help
