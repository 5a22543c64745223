# The two README commands: `make campaign` (main job) and `make test`. Both install the Debian
# packages they need (as root, with apt-get) and build first.
BUILD_DIR ?= build/release
JOBS ?= $(shell nproc 2>/dev/null || echo 2)
CAMPAIGN_TIME ?= 60
REPORT_DIR ?= adsem-report
DEBIAN_PACKAGES = cmake g++ make python3 librapidcheck-dev libeigen3-dev libboost-dev \
  libgtest-dev libbenchmark-dev libcli11-dev nlohmann-json3-dev libfmt-dev libxml2-utils

.PHONY: all deps configure build test campaign sanitize clean format

all: build

# Install only what is missing, so the common case (everything there) needs no network.
deps:
	@missing=$$(for p in $(DEBIAN_PACKAGES); do dpkg-query -W -f='$${Status}\n' $$p 2>/dev/null | grep -q 'install ok installed' || echo $$p; done); \
	if [ -n "$$missing" ]; then \
	  echo "installing Debian packages:" $$missing; \
	  SUDO=$$( [ "$$(id -u)" = 0 ] || echo sudo ); \
	  $$SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -qq $$missing; \
	fi

configure: deps
	cmake -S . -B $(BUILD_DIR) -DCMAKE_BUILD_TYPE=Release

build: configure
	cmake --build $(BUILD_DIR) -j $(JOBS)

test: build
	cd $(BUILD_DIR) && ctest --output-on-failure -j $(JOBS)

campaign: build
	$(BUILD_DIR)/cli/adsem campaign all --time $(CAMPAIGN_TIME) --report $(REPORT_DIR)

sanitize: deps
	cmake --preset sanitize && cmake --build build/sanitize -j $(JOBS) && \
	  cd build/sanitize && ctest --output-on-failure -j $(JOBS)

format:
	find syntax semantics generators properties reports cli tests bench -name '*.[ch]pp' \
	  | xargs clang-format -i

clean:
	rm -rf build
