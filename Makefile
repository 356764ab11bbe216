# Gleaner's two set-up commands (see README.md):
#   make demo   runs the main job on the bundled fixture sites with SQLite
#   make test   runs the whole test suite
GO ?= go

.PHONY: setup build test demo vet bench

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
