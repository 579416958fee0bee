# starlens: the two commands of the README are `make demo` and `make test`.
# Both install what is missing (Debian packages, apt-get), configure with meson and build.

SHELL := /bin/bash
.ONESHELL:
.SHELLFLAGS := -eu -o pipefail -c

# Everything the build, the tests and the demo need, from Debian 12's archive.
DEBIAN_PACKAGES := meson ninja-build pkg-config g++ cmake git \
  libhdf5-dev libopenexr-dev openexr nlohmann-json3-dev doctest-dev libhealpix-cxx-dev \
  libxxhash-dev libssl-dev libpng-dev libcli11-dev libgsl-dev libboost-dev zlib1g-dev \
  libcfitsio-dev wcslib-dev libyaml-dev openimageio-tools \
  colord-data stellarium-data=0.22.2-1 hipcc libamdhip64-dev python3 time \
  python3-numpy python3-h5py python3-astropy python3-openimageio python3-xxhash \
  python3-matplotlib python3-pip python3-setuptools clang libclang-rt-14-dev libomp-14-dev ffmpeg \
  snakemake slurm-wlm munge glslc libvulkan-dev mesa-vulkan-drivers
SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)

BUILD := build
TEST_BUILD := build-test
FUZZ_BUILD := build-fuzz
# Inputs each libFuzzer harness runs in `make test`, from a fixed seed, and the seconds it may
# take at most (bench/fuzz/run.sh runs them long, by time).
FUZZ_RUNS ?= 4000
FUZZ_SECONDS ?= 60
JOBS ?= $(shell nproc)

.PHONY: demo test deps build check-gpu-compile fuzz-smoke clean format reproduce

# Installs the packages not yet installed (nothing when all are there).
deps:
	@missing=""
	for spec in $(DEBIAN_PACKAGES); do
	  name=$${spec%%=*}; want=$${spec#*=}
	  have=$$(dpkg-query -W -f='$${Status} $${Version}' "$$name" 2>/dev/null || true)
	  if [[ "$$have" != "install ok installed"* ]] || { [[ "$$spec" == *=* ]] && [[ "$$have" != *" $$want" ]]; }; then
	    missing="$$missing $$spec"
	  fi
	done
	if [ -n "$$missing" ]; then
	  echo "installing:$$missing"
	  $(SUDO) env DEBIAN_FRONTEND=noninteractive apt-get update -q
	  $(SUDO) env DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends $$missing
	fi

$(BUILD)/build.ninja: | deps
	meson setup $(BUILD) --buildtype=release

build: deps $(BUILD)/build.ninja
	ninja -C $(BUILD) -j $(JOBS)

# The demo needs only the pipeline's tools: building just those (not the tests and benchmarks)
# keeps a fresh `make demo` within minutes on two cores.
DEMO_TARGETS := tools/catalog/starlens-catalog tools/trace/starlens-trace \
  tools/produce/starlens-produce tools/splat/starlens-splat tools/compare/starlens-compare

demo: deps $(BUILD)/build.ninja
	ninja -C $(BUILD) -j $(JOBS) $(DEMO_TARGETS)
	@bash scripts/demo.sh $(BUILD) out

# The whole suite, warnings as errors, under AddressSanitizer and UBSan; then the GPU
# backend compiled (not run: CI has no GPU) for NVIDIA with nvcc and for AMD with hipcc; then
# every parser's fuzz harness on FUZZ_RUNS inputs (fuzz-smoke). Any failure fails the target.
test: deps
	@[ -f $(TEST_BUILD)/build.ninja ] || meson setup $(TEST_BUILD) --buildtype=plain -Doptimization=1 \
	  -Dwerror=true -Db_sanitize=address,undefined -Db_lundef=false
	ninja -C $(TEST_BUILD) -j $(JOBS)
	status=0
	ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 \
	  meson test -C $(TEST_BUILD) --print-errorlogs --num-processes $(JOBS) || status=$$?
	$(MAKE) --no-print-directory check-gpu-compile || status=1
	python3 scripts/test_summary.py $(TEST_BUILD)/meson-logs/testlog.json
	$(MAKE) --no-print-directory fuzz-smoke || status=1
	exit $$status

check-gpu-compile: deps
	@bash scripts/gpu_compile_check.sh

# Every parser's libFuzzer harness (fuzz/, clang with ASan and UBSan) on FUZZ_RUNS inputs each
# from libFuzzer's seed 1 (at most FUZZ_SECONDS), after the seeds that the sanitizer build's
# tools make and the reproducers of earlier findings (fuzz/regressions/); any finding fails.
fuzz-smoke: deps
	@[ -f $(FUZZ_BUILD)/build.ninja ] || CC=clang CXX=clang++ meson setup $(FUZZ_BUILD) \
	  --buildtype=plain -Doptimization=1 -Db_sanitize=address,undefined -Db_lundef=false -Dfuzz=true
	ninja -C $(FUZZ_BUILD) -j $(JOBS) fuzz-harnesses
	ninja -C $(TEST_BUILD) -j $(JOBS) $(DEMO_TARGETS)
	rm -rf $(FUZZ_BUILD)/seeds $(FUZZ_BUILD)/fuzz-smoke
	bash fuzz/make_seeds.sh $(TEST_BUILD) $(FUZZ_BUILD)/seeds >/dev/null
	FUZZ_RUNS=$(FUZZ_RUNS) bash fuzz/run_all.sh $(FUZZ_BUILD) $(FUZZ_BUILD)/seeds $(FUZZ_SECONDS) \
	  $(JOBS) $(FUZZ_BUILD)/fuzz-smoke

# Reruns the stage that wrote MANIFEST with its parameters (--from-manifest) and reports
# whether its outputs and counts match.
reproduce: build
	@[ -n "$(MANIFEST)" ] || { echo "usage: make reproduce MANIFEST=path/to/output.manifest.json" >&2; exit 2; }
	tool=$$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["tool"])' "$(MANIFEST)")
	stage=$${tool#starlens-}
	binary=$(BUILD)/tools/$$stage/$$tool
	[ -x "$$binary" ] || binary=$(BUILD)/bench/$${stage//-/_}/$$tool
	"$$binary" --from-manifest "$(MANIFEST)"

format:
	git ls-files '*.cpp' '*.h' '*.hip' | xargs clang-format -i

clean:
	rm -rf $(BUILD) $(TEST_BUILD) $(FUZZ_BUILD) build-cuda build-hip
