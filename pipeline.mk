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
# kerr: the spin a (units of M)
SPIN ?=
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

# THREADS (each stage's threads): by default the cores shared among make -jN's jobs.
sl_threads := --threads $(if $(THREADS),$(THREADS),$$($(STARLENS)/scripts/threads_per_job.sh))
sl_args_catalog := $(CATALOG_COMMAND) $(CATALOG_FLAGS)
sl_spin := $(if $(SPIN),--spin $(SPIN))
sl_args_trace := --spacetime $(SPACETIME) $(sl_spin) --r-obs $(R_OBS) --bh-l $(BH_L) --bh-b $(BH_B) \
  --look-dlon $(LOOK_DLON) --look-dlat $(LOOK_DLAT) --roll $(ROLL) --fov $(FOV) \
  --width $(WIDTH) --height $(HEIGHT) --projection $(PROJECTION) --mesh-step $(MESH_STEP) \
  --mesh-tol $(MESH_TOL) $(TRACE_FLAGS)
sl_args_produce := --psf-fwhm $(PSF_FWHM) --psf-beta $(PSF_BETA) \
  --psf-cache-radius $(PSF_CACHE_RADIUS) --psf-phases $(PSF_PHASES) --psf-min-y $(PSF_MIN_Y) \
  --psf-relative-tail $(PSF_RELATIVE_TAIL) --psf-max-radius $(PSF_MAX_RADIUS) $(PRODUCE_FLAGS)
sl_args_splat := --backend $(BACKEND) $(if $(EXPOSURE),--exposure $(EXPOSURE)) $(SPLAT_FLAGS)
sl_args_compare := $(REFERENCE) $(BUDGET)

# --- sequences of a camera path (docs/usage/animation.md): frames FIRST..LAST of PATH_FILE in
# $(SEQ_OUT)/NNNNN.{exr,png} (stage files in $(SEQ_OUT)/NNNNN/), all with one exposure and one
# catalogue, and $(SEQ_OUT)/movie.mp4 at the path's frame rate.
PATH_FILE ?=
SEQ_OUT ?= $(SL_OUT)/sequence
FIRST ?= 0
# The path's frame count and rate, read from the file (frames, or duration x fps), and 1 for a
# circular orbit whose camera keeps its orientation to the hole (no look.at), else 0.
sl_path_info = $(shell python3 -c 'import json,sys; p = json.load(open(sys.argv[1])); \
  w = p.get("worldline", {}); rigid = w.get("type") == "orbit" and "at" not in p.get("look", {}); \
  print(p["frames"] if "frames" in p else round(p["duration"] * p["fps"]), p["fps"], int(rigid))' \
  $(PATH_FILE))
LAST ?= $(shell echo $$(($(word 1,$(sl_path_info)) - 1)))
FPS ?= $(word 2,$(sl_path_info))
# One exposure for every frame: SEQ_EXPOSURE, or the automatic exposure of frame EXPOSURE_FRAME.
SEQ_EXPOSURE ?=
EXPOSURE_FRAME ?= $(FIRST)
MOVIE_FLAGS ?= -c:v libx264 -pix_fmt yuv420p -crf 18
sl_args_seqtrace := --spacetime $(SPACETIME) $(sl_spin) --fov $(FOV) --width $(WIDTH) --height $(HEIGHT) \
  --projection $(PROJECTION) --mesh-step $(MESH_STEP) --mesh-tol $(MESH_TOL) $(TRACE_FLAGS)
sl_args_seqsplat := --backend $(BACKEND) $(SPLAT_FLAGS)
sl_args_seqexposure := $(SEQ_EXPOSURE)
sl_args_movie = $(FPS) $(MOVIE_FLAGS)

.DELETE_ON_ERROR:
.PHONY: sl-frame sl-report sl-clean sl-sequence sl-movie

sl-frame: $(SL_OUT)/$(SL_FRAME).png
sl-report: $(SL_OUT)/report.json

# A stage's parameter line, rewritten (when make reads this file) only when it changes, so its
# timestamp moves only then. Written as the makefile is read rather than by a rule, so that no
# target is forced: `make -q` and `make -n` tell the truth.
define sl_param_line
ifneq ($$(wildcard $(SL_OUT)/.params/$1):$$(file <$(SL_OUT)/.params/$1),$(SL_OUT)/.params/$1:$$(strip $$(sl_args_$1)))
$$(shell mkdir -p $(SL_OUT)/.params)
$$(file >$(SL_OUT)/.params/$1,$$(strip $$(sl_args_$1)))
endif
endef

$(foreach stage,catalog trace produce splat compare,$(eval $(call sl_param_line,$(stage))))
ifneq ($(PATH_FILE),)
$(foreach stage,seqtrace seqsplat seqexposure movie,$(eval $(call sl_param_line,$(stage))))
endif

$(SL_OUT)/catalog.h5: $(SL_OUT)/.params/catalog $(SL_CATALOG_TOOL)
	$(SL_CATALOG_TOOL) $(sl_args_catalog) -o $@ --force $(QUIET) $(sl_threads)

$(SL_OUT)/lensmap.h5: $(SL_OUT)/.params/trace $(SL_TRACE_TOOL)
	$(SL_TRACE_TOOL) $(sl_args_trace) -o $@ --force $(QUIET) $(sl_threads)

$(SL_OUT)/events.sle: $(SL_OUT)/lensmap.h5 $(CATALOG_H5) $(SL_OUT)/.params/produce $(SL_PRODUCE_TOOL)
	$(SL_PRODUCE_TOOL) --lensmap $(SL_OUT)/lensmap.h5 --catalog $(CATALOG_H5) $(sl_args_produce) \
	  -o $@ --force $(QUIET) $(sl_threads)

$(SL_OUT)/$(SL_FRAME).exr $(SL_OUT)/$(SL_FRAME).png &: $(SL_OUT)/events.sle $(SL_OUT)/.params/splat $(SL_SPLAT_TOOL)
	$(SL_SPLAT_TOOL) -i $< -o $(SL_OUT)/$(SL_FRAME).exr --png $(SL_OUT)/$(SL_FRAME).png \
	  --lensmap $(SL_OUT)/lensmap.h5 $(sl_args_splat) \
	  --force $(QUIET) $(sl_threads)

$(SL_OUT)/report.json: $(SL_OUT)/$(SL_FRAME).exr $(REFERENCE) $(BUDGET) $(SL_OUT)/.params/compare $(SL_COMPARE_TOOL)
	$(if $(and $(REFERENCE),$(BUDGET)),,$(error report.json needs REFERENCE=frame.exr and BUDGET=budget.json))
	$(SL_COMPARE_TOOL) $(SL_OUT)/$(SL_FRAME).exr $(REFERENCE) --budget $(BUDGET) --report $@ --force

ifneq ($(PATH_FILE),)
sl_seq_ids := $(shell seq -f %05g $(FIRST) $(LAST))
sl_seq_pngs := $(foreach id,$(sl_seq_ids),$(SEQ_OUT)/$(id).png)
sl_exposure_id := $(shell printf %05d $(EXPOSURE_FRAME))
# The stage files are kept (make would delete them as intermediates of the pattern rules).
.SECONDARY: $(foreach id,$(sl_seq_ids),$(SEQ_OUT)/$(id)/lensmap.h5 $(SEQ_OUT)/$(id)/events.sle)
sl-sequence: $(sl_seq_pngs)
sl-movie: $(SEQ_OUT)/movie.mp4

# Per frame: the lens map of the path's camera there, its events, and the frame. The pattern's
# stem is the 5-digit frame name; expr turns it into the frame number.
# On a circular orbit whose camera keeps its orientation to the hole, every frame sees the
# same lensing turned about the orbit's axis: frame 0 is traced once (orbit-map.h5) and each
# frame's map is it turned (starlens-trace --orbit-map), unless ORBIT_MAP=no.
ORBIT_MAP ?= auto
ifeq ($(ORBIT_MAP)$(word 3,$(sl_path_info)),auto1)
$(SEQ_OUT)/orbit-map.h5: $(PATH_FILE) $(SL_OUT)/.params/seqtrace $(SL_TRACE_TOOL)
	@mkdir -p $(@D)
	$(SL_TRACE_TOOL) --path $(PATH_FILE) --frame 0 $(sl_args_seqtrace) -o $@ --force $(QUIET) \
	  $(sl_threads)

$(SEQ_OUT)/%/lensmap.h5: $(SEQ_OUT)/orbit-map.h5 $(PATH_FILE) $(SL_OUT)/.params/seqtrace $(SL_TRACE_TOOL)
	@mkdir -p $(@D)
	$(SL_TRACE_TOOL) --path $(PATH_FILE) --frame $$(expr $* + 0) --orbit-map $< $(sl_args_seqtrace) \
	  -o $@ --force $(QUIET) $(sl_threads)
else
$(SEQ_OUT)/%/lensmap.h5: $(PATH_FILE) $(SL_OUT)/.params/seqtrace $(SL_TRACE_TOOL)
	@mkdir -p $(@D)
	$(SL_TRACE_TOOL) --path $(PATH_FILE) --frame $$(expr $* + 0) $(sl_args_seqtrace) -o $@ --force \
	  $(QUIET) $(sl_threads)
endif

$(SEQ_OUT)/%/events.sle: $(SEQ_OUT)/%/lensmap.h5 $(CATALOG_H5) $(SL_OUT)/.params/produce $(SL_PRODUCE_TOOL)
	$(SL_PRODUCE_TOOL) --lensmap $< --catalog $(CATALOG_H5) $(sl_args_produce) -o $@ --force \
	  $(QUIET) $(sl_threads)

# The exposure: given, or the automatic one of the reference frame (its splat manifest's
# parameters.exposure), rewritten whenever that frame is splatted again.
ifneq ($(SEQ_EXPOSURE),)
$(SEQ_OUT)/exposure: $(SL_OUT)/.params/seqexposure
	@mkdir -p $(@D)
	printf '%s\n' '$(SEQ_EXPOSURE)' >$@
else
$(SEQ_OUT)/reference.exr: $(SEQ_OUT)/$(sl_exposure_id)/events.sle $(SL_OUT)/.params/seqsplat $(SL_SPLAT_TOOL)
	$(SL_SPLAT_TOOL) -i $< -o $@ $(sl_args_seqsplat) --force $(QUIET) $(sl_threads)

$(SEQ_OUT)/exposure: $(SEQ_OUT)/reference.exr
	python3 -c 'import json,sys; print(repr(float(json.load(open(sys.argv[1]))["parameters"]["exposure"])))' \
	  $<.manifest.json >$@.tmp && mv $@.tmp $@
endif

$(SEQ_OUT)/%.exr $(SEQ_OUT)/%.png: $(SEQ_OUT)/%/events.sle $(SEQ_OUT)/exposure $(SL_OUT)/.params/seqsplat $(SL_SPLAT_TOOL)
	$(SL_SPLAT_TOOL) -i $< -o $(SEQ_OUT)/$*.exr --png $(SEQ_OUT)/$*.png --frame-number $$(expr $* + 0) \
	  --lensmap $(SEQ_OUT)/$*/lensmap.h5 \
	  --exposure $$(cat $(SEQ_OUT)/exposure) $(sl_args_seqsplat) --force $(QUIET) $(sl_threads)

# The movie, written under a temporary name and renamed when complete.
$(SEQ_OUT)/movie.mp4: $(sl_seq_pngs) $(SL_OUT)/.params/movie
	ffmpeg -nostdin -loglevel error -y -framerate $(FPS) -start_number $(FIRST) \
	  -i $(SEQ_OUT)/%05d.png -frames:v $(words $(sl_seq_ids)) $(MOVIE_FLAGS) $(SEQ_OUT)/movie.tmp.mp4
	mv $(SEQ_OUT)/movie.tmp.mp4 $@
endif

sl-clean:
	rm -rf $(SL_OUT)
