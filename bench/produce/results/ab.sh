#!/bin/bash
# Alternating old/new runs of starlens-produce (count sink, default PSF) for issue 5's A/B:
# usage: ab.sh THREADS REPS BINARY...   (env WORK: folder with map.h5 and stars.h5, as
# bench/produce/run.sh makes them; default /tmp/pp). Prints per run the load average and the
# manifest's timings: query (index build), read/map/colour thread-seconds, cpu = produce_cpu
# (the workers' CPU seconds over the traversal), prod_s = produce_wall.
t=$1; reps=$2; shift 2
work=${WORK:-/tmp/pp}
for r in $(seq $reps); do
  for b in "$@"; do
    n=$(basename $b)
    load=$(cut -d' ' -f1 /proc/loadavg)
    $b -l $work/map.h5 -c $work/stars.h5 --sink count -o $work/ab-$n.json --threads $t --force --quiet
    python3 - $work/ab-$n.json.manifest.json $n $t $load <<'PY'
import json,sys
m=json.load(open(sys.argv[1])); t=m['timings_s']; c=m['counts']; th=int(sys.argv[3])
print(f"{sys.argv[2]:14s} thr {th} load {sys.argv[4]:5s} query {t['query']:.3f} read {t['read']:.3f} map {t['mapping']:.3f} colour {t['colour']:.3f} cpu {t.get('produce_cpu',0):.3f} prod_s {t['produce_wall']:.3f} Mev/s/c {c['events']/t['produce_wall']/th/1e6:.3f} ev {c['events']} img {c['images']}")
PY
  done
done
