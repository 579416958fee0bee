# What every example shares: its path.json rendered by pipeline.mk at 640x360 with a 60 degree
# field of view into out/ (out/sequence/NNNNN.png, out/sequence/movie.mp4, the default goal).
# An example's Makefile sets its spacetime and includes this file.
STARLENS := $(abspath $(dir $(lastword $(MAKEFILE_LIST)))..)
PATH_FILE := path.json
SL_OUT ?= out
WIDTH ?= 640
HEIGHT ?= 360
FOV ?= 60
include $(STARLENS)/pipeline.mk

.DEFAULT_GOAL := sl-movie
.PHONY: clean
clean: sl-clean
