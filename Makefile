# Gleaner's two set-up commands (see README.md):
#   make demo   runs the main job on the bundled fixture sites with SQLite
#   make test   runs the whole test suite
GO ?= go

.PHONY: setup build test demo vet bench bench-ted

setup:
	bash scripts/setup.sh

build:
	$(GO) build -o bin/gleaner ./cmd/gleaner
	cd evalcmp && $(GO) build -o ../bin/gleaner-evalcmp .

test: setup
	$(GO) vet ./...
	$(GO) test -timeout 30m ./...
	cd evalcmp && $(GO) vet ./... && $(GO) test -timeout 20m ./...

demo: setup build
	bash scripts/demo.sh

bench:
	$(GO) test -run '^$$' -bench . -benchmem ./...

# bench-ted: Gleaner's TED side by side with APTED built from source in the
# same session (not part of test; needs a JDK and APTED_SRC or GitHub access).
# All 51 pairs: make bench-ted BENCH_TED_ARGS=--all
bench-ted:
	bash scripts/bench-ted $(BENCH_TED_ARGS)
