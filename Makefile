# Frontlatch — every target loops every module of the go.work workspace.
#
#   make run     install Chromium if missing, build, map the fifteen-site set,
#                compile every format into out/, write benchmark/results.json
#   make test    the whole suite, every module, each also built with GOWORK=off,
#                under the race detector (where cgo has a C compiler), inside a
#                throwaway PostgreSQL cluster (scripts/with-postgres.sh)

SHELL   := /bin/bash
MODULES := shared topology mapper compiler verifier executor fixtures fleet benchmark cmd/frontlatch
GO      ?= go
CHROMIUM ?= /usr/bin/chromium
JQUERY := /usr/share/javascript/jquery/jquery.min.js
# The race detector, where cgo and a C compiler are there (Debian's gcc):
# without them the suite runs without it, and test-modules says so.
RACE ?= $(shell [ "$$($(GO) env CGO_ENABLED)" = 1 ] && command -v "$$($(GO) env CC)" >/dev/null 2>&1 && echo -race)
# Tests drive a real browser on 2 cores: keep packages from fighting for them.
TESTFLAGS ?= -count=1 -p 1 -timeout 30m $(RACE)

.PHONY: all build test test-modules vet generate generate-check tidy tidy-check fmt-check run chromium bench clean

all: build

chromium:
	@if [ -x "$(CHROMIUM)" ]; then \
	  echo "chromium: $$($(CHROMIUM) --version 2>/dev/null | tail -n1)"; \
	else \
	  echo "chromium: $(CHROMIUM) missing, installing Debian's chromium package"; \
	  SUDO=; [ "$$(id -u)" = 0 ] || SUDO=sudo; \
	  $$SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -qq chromium >/dev/null \
	    || { echo "chromium: install failed; install Debian's chromium package by hand or set FRONTLATCH_CHROMIUM" >&2; exit 1; }; \
	  $(CHROMIUM) --version 2>/dev/null | tail -n1; \
	fi
	@# The mapper's browser tests serve Debian's jQuery to pages that bind their handlers with it.
	@if [ ! -f $(JQUERY) ]; then \
	  echo "chromium: $(JQUERY) missing, installing Debian's libjs-jquery package"; \
	  SUDO=; [ "$$(id -u)" = 0 ] || SUDO=sudo; \
	  { $$SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -qq libjs-jquery >/dev/null; } \
	    || { echo "chromium: install failed; install Debian's libjs-jquery package by hand" >&2; exit 1; }; \
	fi

build:
	@for m in $(MODULES); do echo "build $$m"; (cd $$m && GOWORK=off $(GO) build ./...) || exit 1; done
	@mkdir -p bin && cd cmd/frontlatch && $(GO) build -o ../../bin/frontlatch . && echo "built bin/frontlatch"

vet:
	@for m in $(MODULES); do echo "vet $$m"; (cd $$m && GOWORK=off $(GO) vet ./...) || exit 1; done

fmt-check:
	@out=$$(gofmt -l $$(git ls-files '*.go')); if [ -n "$$out" ]; then echo "gofmt would change:"; echo "$$out"; exit 1; fi

generate:
	@for m in $(MODULES); do (cd $$m && $(GO) generate ./...) || exit 1; done

# Regenerate everything and fail when that changes any file. The tree's state
# is compared before and after, so uncommitted work of your own does not trip it.
generate-check:
	@state() { { git status --porcelain; git diff; } | sha256sum; }; \
	  before=$$(state); $(MAKE) -s generate >/dev/null || exit 1; \
	  if [ "$$(state)" != "$$before" ]; then \
	    echo "generated files are stale; run 'make generate' and commit:"; git status --porcelain -- $(MODULES); exit 1; fi

tidy:
	@for m in $(MODULES); do (cd $$m && GOWORK=off $(GO) mod tidy) || exit 1; done

tidy-check:
	@for m in $(MODULES); do \
	  (cd $$m && GOWORK=off $(GO) mod tidy -diff) \
	  || { echo "$$m: go.mod/go.sum not tidy; run 'make tidy'"; exit 1; }; \
	done

# The whole suite. Each module is vetted and tested on its own (GOWORK=off),
# which also proves its sibling replace lines are complete. The module tests
# run inside a throwaway PostgreSQL cluster (scripts/with-postgres.sh: it
# installs Debian's postgresql when initdb is missing, starts a cluster on a
# free 127.0.0.1 port, sets FRONTLATCH_TEST_POSTGRES_URL and always stops it),
# so the audit store is tested on SQLite and on PostgreSQL.
test: chromium fmt-check vet generate-check tidy-check
	@scripts/with-postgres.sh $(MAKE) --no-print-directory test-modules

# The module tests alone, against whatever FRONTLATCH_TEST_POSTGRES_URL names
# (without it the PostgreSQL tests skip, or fail under CI=true).
test-modules:
	@if [ -n "$(RACE)" ]; then echo "test: with the race detector ($(RACE))"; \
	  else echo "test: without the race detector (it needs cgo and a C compiler: install gcc)"; fi
	@fail=0; for m in $(MODULES); do echo "== test $$m"; \
	  (cd $$m && GOWORK=off $(GO) test $(TESTFLAGS) ./...) || fail=1; done; \
	  if [ $$fail = 0 ]; then echo "make test: all modules passed"; else echo "make test: FAILED"; exit 1; fi

run: chromium build
	./bin/frontlatch bench --out out

bench: run

clean:
	rm -rf bin out
