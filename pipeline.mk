# pipeline.mk — render starlens frames stage by stage from your own Makefile:
#
#   STARLENS := /path/to/starlens
#   include $(STARLENS)/pipeline.mk
#   all: $(SL_OUT)/frame.png
#
# One target per stage file; parameters are make variables (override on the command line or
# before the include). Each stage's command line is kept in $(SL_OUT)/.params/<stage>, rewritten
# only when it changes, and every stage depends on its own line and its tool: editing a
# parameter reruns exactly the stages it affects, and the stages after them. The tools write
# atomically, so a failed stage leaves nothing that make would take as up to date.
# Safe under make -j: every stage writes its own files.

STARLENS ?= $(patsubst %/,%,$(dir $(lastword $(MAKEFILE_LIST))))
STARLENS_BUILD ?= $(STARLENS)/build
SL_OUT ?= out/pipeline
SL_FRAME ?= frame

SL_CATALOG_TOOL := $(STARLENS_BUILD)/tools/catalog/starlens-catalog
SL_TRACE_TOOL := $(STARLENS_BUILD)/tools/trace/starlens-trace
SL_PRODUCE_TOOL := $(STARLENS_BUILD)/tools/produce/starlens-produce
SL_SPLAT_TOOL := $(STARLENS_BUILD)/tools/splat/starlens-splat
SL_COMPARE_TOOL := $(STARLENS_BUILD)/tools/compare/starlens-compare

# --- catalog: real stars by default (Stellarium's catalogue, package stellarium-data)
CATALOG_INPUTS ?= $(sort $(wildcard /usr/share/stellarium/stars/default/stars_[0-9]_*.cat))
CATALOG_COMMAND ?= ingest $(CATALOG_INPUTS)
CATALOG_FLAGS ?=
# A catalogue shared by several frames (an animation) can be named instead.
CATALOG_H5 ?= $(SL_OUT)/catalog.h5

# --- trace: spacetime, observer, camera, mesh
SPACETIME ?= schwarzschild
R_OBS ?= 30
BH_L ?= 0
BH_B ?= 0
LOOK_DLON ?= 0
LOOK_DLAT ?= 0
ROLL ?= 0
FOV ?= 60
WIDTH ?= 1920
HEIGHT ?= 1080
PROJECTION ?= pinhole
MESH_STEP ?= 4
MESH_TOL ?= 0.01
TRACE_FLAGS ?=

# --- produce: PSF model and class thresholds
PSF_FWHM ?= 2.0
PSF_BETA ?= 2.5
PSF_CACHE_RADIUS ?= 16
PSF_PHASES ?= 8
PSF_MIN_Y ?= 1e-7
PSF_RELATIVE_TAIL ?= 0.1
PSF_MAX_RADIUS ?= 256
PRODUCE_FLAGS ?=

# --- splat and compare
BACKEND ?= cpu
EXPOSURE ?=
SPLAT_FLAGS ?=
REFERENCE ?=
BUDGET ?=
THREADS ?=
QUIET ?= --quiet

sl_threads := $(if $(THREADS),--threads $(THREADS))
sl_args_catalog := $(CATALOG_COMMAND) $(CATALOG_FLAGS)
sl_args_trace := --spacetime $(SPACETIME) --r-obs $(R_OBS) --bh-l $(BH_L) --bh-b $(BH_B) \
  --look-dlon $(LOOK_DLON) --look-dlat $(LOOK_DLAT) --roll $(ROLL) --fov $(FOV) \
  --width $(WIDTH) --height $(HEIGHT) --projection $(PROJECTION) --mesh-step $(MESH_STEP) \
  --mesh-tol $(MESH_TOL) $(TRACE_FLAGS)
sl_args_produce := --psf-fwhm $(PSF_FWHM) --psf-beta $(PSF_BETA) \
  --psf-cache-radius $(PSF_CACHE_RADIUS) --psf-phases $(PSF_PHASES) --psf-min-y $(PSF_MIN_Y) \
  --psf-relative-tail $(PSF_RELATIVE_TAIL) --psf-max-radius $(PSF_MAX_RADIUS) $(PRODUCE_FLAGS)
sl_args_splat := --backend $(BACKEND) $(if $(EXPOSURE),--exposure $(EXPOSURE)) $(SPLAT_FLAGS)
sl_args_compare := $(REFERENCE) $(BUDGET)

.DELETE_ON_ERROR:
.PHONY: sl-frame sl-report sl-clean FORCE

sl-frame: $(SL_OUT)/$(SL_FRAME).png
sl-report: $(SL_OUT)/report.json

# A stage's parameter line, rewritten only when it changes (so its timestamp moves only then).
$(SL_OUT)/.params/%: FORCE
	@mkdir -p $(@D)
	@printf '%s\n' '$(strip $(sl_args_$*))' | cmp -s - $@ 2>/dev/null || \
	  printf '%s\n' '$(strip $(sl_args_$*))' >$@

$(SL_OUT)/catalog.h5: $(SL_OUT)/.params/catalog $(SL_CATALOG_TOOL)
	$(SL_CATALOG_TOOL) $(sl_args_catalog) -o $@ --force $(QUIET) $(sl_threads)

$(SL_OUT)/lensmap.h5: $(SL_OUT)/.params/trace $(SL_TRACE_TOOL)
	$(SL_TRACE_TOOL) $(sl_args_trace) -o $@ --force $(QUIET) $(sl_threads)

$(SL_OUT)/events.sle: $(SL_OUT)/lensmap.h5 $(CATALOG_H5) $(SL_OUT)/.params/produce $(SL_PRODUCE_TOOL)
	$(SL_PRODUCE_TOOL) --lensmap $(SL_OUT)/lensmap.h5 --catalog $(CATALOG_H5) $(sl_args_produce) \
	  -o $@ --force $(QUIET) $(sl_threads)

$(SL_OUT)/$(SL_FRAME).exr $(SL_OUT)/$(SL_FRAME).png &: $(SL_OUT)/events.sle $(SL_OUT)/.params/splat $(SL_SPLAT_TOOL)
	$(SL_SPLAT_TOOL) -i $< -o $(SL_OUT)/$(SL_FRAME).exr --png $(SL_OUT)/$(SL_FRAME).png $(sl_args_splat) \
	  --force $(QUIET) $(sl_threads)

$(SL_OUT)/report.json: $(SL_OUT)/$(SL_FRAME).exr $(REFERENCE) $(BUDGET) $(SL_OUT)/.params/compare $(SL_COMPARE_TOOL)
	$(if $(and $(REFERENCE),$(BUDGET)),,$(error report.json needs REFERENCE=frame.exr and BUDGET=budget.json))
	$(SL_COMPARE_TOOL) $(SL_OUT)/$(SL_FRAME).exr $(REFERENCE) --budget $(BUDGET) --report $@ --force

sl-clean:
	rm -rf $(SL_OUT)
