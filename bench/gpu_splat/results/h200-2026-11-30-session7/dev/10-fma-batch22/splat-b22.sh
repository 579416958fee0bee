#!/bin/sh
# The HEAD binary with batches of 2^22 events and scratch for 2^26 references a round.
STARLENS_GPU_BATCH_EVENTS=4194304 STARLENS_GPU_TILE_REFERENCES=67108864 exec "$(dirname "$0")/splat-b3" "$@"
