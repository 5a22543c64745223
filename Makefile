# The two README commands: `make campaign` (main job) and `make test`. Both install the Debian
# packages they need (as root, with apt-get) and build first. `make test` (what CI runs) is the
# GCC release build with every test, then `make fuzz-ci`: a clang build with ASan + UBSan of the
# fuzz targets and a few test programs, their fast tests, and a short run of every fuzz target.
BUILD_DIR ?= build/release
JOBS ?= $(shell nproc 2>/dev/null || echo 2)
CAMPAIGN_TIME ?= 60
REPORT_DIR ?= adsem-report
DEBIAN_PACKAGES = cmake g++ make python3 python3-jsonschema librapidcheck-dev libeigen3-dev libboost-dev \
  libgtest-dev libbenchmark-dev libcli11-dev nlohmann-json3-dev libfmt-dev libxml2-utils \
  libjemalloc-dev
# clang with libFuzzer and the sanitizer runtimes (libclang-rt-dev), llvm-symbolizer (llvm).
FUZZ_PACKAGES = clang libclang-rt-dev llvm
FUZZ_BUILD_DIR ?= build/fuzz
# CI replays a fixed sequence per target (seed, run count, empty work corpus; fuzz/run.sh), so a
# finding reproduces with `make fuzz-ci` and luck cannot fail a run; FUZZ_SECONDS caps a target.
FUZZ_SEED ?= 1
FUZZ_RUNS ?= 4000
FUZZ_SECONDS ?= 10
# The sanitizer subset of `make fuzz-ci` (docs/reliability.md): test programs and a ctest regex.
SANITIZE_TARGETS ?= test_semantics_core
SANITIZE_TESTS ?= .

.PHONY: all deps fuzz-deps configure build build-adsem test test-gcc fuzz-ci campaign soak sanitize \
  clean format

# $(call install_missing,PACKAGES): apt-get only what is missing (as root, or with sudo).
define install_missing
missing=$$(for p in $(1); do dpkg-query -W -f='$${Status}\n' $$p 2>/dev/null | grep -q 'install ok installed' || echo $$p; done); \
if [ -n "$$missing" ]; then \
  echo "installing Debian packages:" $$missing; \
  SUDO=$$( [ "$$(id -u)" = 0 ] || echo sudo ); \
  $$SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -qq $$missing; \
fi
endef

all: build

# Install only what is missing, so the common case (everything there) needs no network.
deps:
	@$(call install_missing,$(DEBIAN_PACKAGES))

fuzz-deps: deps
	@$(call install_missing,$(FUZZ_PACKAGES))

configure: deps
	cmake -S . -B $(BUILD_DIR) -DCMAKE_BUILD_TYPE=Release

build: configure
	cmake --build $(BUILD_DIR) -j $(JOBS)

# The main job needs only the adsem executable: about three quarters of the compile units (the
# test programs and benchmarks are the rest), so a first campaign starts minutes sooner.
build-adsem: configure
	cmake --build $(BUILD_DIR) -j $(JOBS) --target adsem

test: test-gcc fuzz-ci

test-gcc: build
	cd $(BUILD_DIR) && ctest --output-on-failure -j $(JOBS)

# Only the libraries the fuzz targets and SANITIZE_TARGETS need are built (not the whole tree).
fuzz-ci: fuzz-deps
	cmake --preset fuzz
	cmake --build $(FUZZ_BUILD_DIR) -j $(JOBS) --target fuzzers $(SANITIZE_TARGETS)
	# Tests labelled adsem-executable run the adsem executable, which this build does not make
	# (make test-gcc runs them).
	cd $(FUZZ_BUILD_DIR) && ctest --output-on-failure -j $(JOBS) -R '$(SANITIZE_TESTS)' \
	  -E '_NOT_BUILT' -LE adsem-executable
	rm -rf $(FUZZ_BUILD_DIR)/ci-work
	FUZZ_BUILD=$(FUZZ_BUILD_DIR) FUZZ_WORK=$(FUZZ_BUILD_DIR)/ci-work \
	  fuzz/run.sh -s $(FUZZ_SEED) -n $(FUZZ_RUNS) -t $(FUZZ_SECONDS)

campaign: build-adsem
	$(BUILD_DIR)/cli/adsem campaign all --time $(CAMPAIGN_TIME) --report $(REPORT_DIR)

# The soak benchmark (docs/reliability.md "Soak"): `campaign all` on the unmodified calculi over
# fixed seeds, SOAK_TIME s each; any counterexample is a false alarm. CI runs a short fixed-seed
# one in ctest (soak/ci).
SOAK_SEEDS ?= 1 2 3 4 5 6 7 8 9 10
SOAK_TIME ?= 300
SOAK_DIR ?= soak-report
soak: build-adsem
	bench/soak.sh -a $(BUILD_DIR)/cli/adsem -s "$(SOAK_SEEDS)" -t $(SOAK_TIME) -o $(SOAK_DIR)

sanitize: deps
	cmake --preset sanitize && cmake --build build/sanitize -j $(JOBS) && \
	  cd build/sanitize && ctest --output-on-failure -j $(JOBS)

format:
	find syntax semantics generators properties reports cli tests bench -name '*.[ch]pp' \
	  | xargs clang-format -i

clean:
	rm -rf build
