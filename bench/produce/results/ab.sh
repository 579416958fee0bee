#!/bin/bash
# Alternating old/new runs of starlens-produce (count sink, default PSF) for issue 5's A/B:
# usage: ab.sh THREADS REPS BINARY...   (env WORK: folder with map.h5 and stars.h5, as
# bench/produce/run.sh makes them; default /tmp/pp; IDLE_WAIT=S: before each run, wait up to S
# seconds for a second in which the machine's CPUs were at least 90% idle). Prints per run the
# load average and the manifest's timings: query (index build), read/map/colour thread-seconds,
# cpu = produce_cpu (the workers' CPU seconds over the traversal), prod_s = produce_wall; and
# others_cpu_s: CPU seconds other processes used during the run (/proc/stat less the run's own
# user+sys), to tell the runs another job disturbed.
t=$1; reps=$2; shift 2
work=${WORK:-/tmp/pp}
busy_ticks() { awk '/^cpu /{print $2+$3+$4+$7+$8+$9}' /proc/stat; }
idle_ticks() { awk '/^cpu /{print $5}' /proc/stat; }
wait_for_idle() {  # up to $1 seconds
  for _ in $(seq "$1"); do
    local b0 i0 b1 i1
    b0=$(busy_ticks); i0=$(idle_ticks); sleep 1; b1=$(busy_ticks); i1=$(idle_ticks)
    [ $((10 * (b1 - b0))) -le $((i1 - i0 + b1 - b0)) ] && return
  done
}
for r in $(seq $reps); do
  for b in "$@"; do
    [ -n "${IDLE_WAIT:-}" ] && wait_for_idle "$IDLE_WAIT"
    n=$(basename $b)
    load=$(cut -d' ' -f1 /proc/loadavg)
    before=$(busy_ticks)
    /usr/bin/time -f '%U %S' -o $work/ab-$n.time \
      $b -l $work/map.h5 -c $work/stars.h5 --sink count -o $work/ab-$n.json --threads $t --force --quiet
    after=$(busy_ticks)
    python3 - $work/ab-$n.json.manifest.json $n $t $load $before $after "$(cat $work/ab-$n.time)" <<'PY'
import json,os,sys
m=json.load(open(sys.argv[1])); t=m['timings_s']; c=m['counts']; th=int(sys.argv[3])
own=sum(float(x) for x in sys.argv[7].split())
others=(int(sys.argv[6])-int(sys.argv[5]))/os.sysconf('SC_CLK_TCK')-own
print(f"{sys.argv[2]:14s} thr {th} load {sys.argv[4]:5s} query {t['query']:.3f} read {t['read']:.3f} map {t['mapping']:.3f} colour {t['colour']:.3f} cpu {t.get('produce_cpu',0):.3f} prod_s {t['produce_wall']:.3f} Mev/s/c {c['events']/t['produce_wall']/th/1e6:.3f} ev {c['events']} img {c['images']} others_cpu_s {others:.2f}")
PY
  done
done
