#!/bin/sh
# Threads for one stage of a make run (pipeline.mk): the machine's cores shared among the jobs
# of make -jN (at least one each), every core without -j, one under an unbounded -j. Without
# this each of N parallel stages would start a thread per core, N times as many threads as
# cores, and OpenMP's waiting threads spin on cores the other stages need.
jobs=1
for word in $MAKEFLAGS; do
  case $word in
    -j) jobs=0 ;;
    -j[0-9]*) jobs=${word#-j} ;;
  esac
done
cores=$(nproc)
if [ "$jobs" -eq 0 ]; then
  echo 1
elif [ "$jobs" -ge "$cores" ]; then
  echo 1
else
  echo $((cores / jobs))
fi
