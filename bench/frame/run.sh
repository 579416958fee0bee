#!/usr/bin/env bash
# bench/frame: one whole frame as a user renders it, stage by stage: a synthetic Milky Way
# (starlens-catalog synth, prepared once), the lens map (starlens-trace), the star events
# (starlens-produce) to a file and through a pipe straight into starlens-splat, and the frame
# from the file on each backend; every stage's wall time and peak memory, the phases its
# manifest records, and the GPU frame checked against the CPU frame with starlens-compare at
# the GPU-against-CPU budget (docs/design.md section 10). The default is the reference scale
# (6.7 x 10^8 stars, 1920 x 1080, Schwarzschild at r_obs 30, fov 45, min-Y 1e-10: ~6 x 10^8
# events, a ~34 GB stream); `--stars 10000000` runs on a 2-core machine in minutes.
# usage: bench/frame/run.sh [options]   (--help lists them)
set -euo pipefail

build=build
work=/tmp/starlens-bench-frame
stars=670000000
seed=1
width=1920
height=1080
spacetime=schwarzschild
r_obs=30
fov=45
min_y=1e-10
backends="gpu cpu"
pipe=yes
keep_stream=no
gpu_producer=auto
count_only=no
threads=$(nproc)

usage() {
  cat <<EOF
usage: bench/frame/run.sh [options]
  --build DIR        build folder with the tools (default: $build)
  --work DIR         where inputs, streams and frames go (default: $work; inputs are kept
                     and reused when their parameters match, the stream is removed at the end)
  --stars N          synthetic catalogue size (default: $stars)
  --seed N           catalogue seed (default: $seed)
  --width W --height H   frame size (default: ${width}x${height})
  --spacetime NAME   minkowski | schwarzschild (default: $spacetime)
  --r-obs R          observer radius in M (default: $r_obs)
  --fov DEG          horizontal field of view (default: $fov)
  --min-y Y          the visibility floor, --psf-min-y (default: $min_y)
  --backends LIST    splat backends from the file, in order, e.g. "gpu cpu" or cpu (default: "$backends")
  --no-pipe          skip produce | splat (the pipe uses the first backend)
  --count-only       the producers' own work alone: catalogue, lens map, then produce --sink
                     count on the CPU and (unless --no-gpu-producer) the GPU; no stream, no splat
  --no-gpu-producer  skip produce --backend gpu (run by default when the backends hold gpu:
                     --sink count, to a file checked byte for byte against the CPU's stream,
                     and piped into the first splat backend)
  --keep-stream      keep the event stream in WORK at the end
  --threads N        threads of every stage (default: all cores, $threads)
EOF
}
while [ $# -gt 0 ]; do
  case $1 in
    --build | --work | --stars | --seed | --width | --height | --spacetime | --r-obs | --fov | --min-y | --backends | --threads)
      [ $# -ge 2 ] || { echo "bench/frame/run.sh: $1 needs a value" >&2; exit 2; } ;;
  esac
  case $1 in
    --build) build=$2; shift 2 ;;
    --work) work=$2; shift 2 ;;
    --stars) stars=$2; shift 2 ;;
    --seed) seed=$2; shift 2 ;;
    --width) width=$2; shift 2 ;;
    --height) height=$2; shift 2 ;;
    --spacetime) spacetime=$2; shift 2 ;;
    --r-obs) r_obs=$2; shift 2 ;;
    --fov) fov=$2; shift 2 ;;
    --min-y) min_y=$2; shift 2 ;;
    --backends) backends=$2; shift 2 ;;
    --no-pipe) pipe=no; shift ;;
    --no-gpu-producer) gpu_producer=no; shift ;;
    --count-only) count_only=yes; shift ;;
    --keep-stream) keep_stream=yes; shift ;;
    --threads) threads=$2; shift 2 ;;
    -h | --help) usage; exit 0 ;;
    *) echo "bench/frame/run.sh: unknown argument '$1' (--help lists the options)" >&2; exit 2 ;;
  esac
done
for tool in catalog trace produce splat compare; do
  [ -x "$build/tools/$tool/starlens-$tool" ] ||
    { echo "bench/frame/run.sh: $build/tools/$tool/starlens-$tool: not built" >&2; exit 2; }
done
here=$(cd "$(dirname "$0")" && pwd)
budget=$here/../../tests/tools/splat/gpu/gpu_vs_cpu_budget.json
tools=$(cd "$build/tools" && pwd)
mkdir -p "$work"
work=$(cd "$work" && pwd)
results=$work/results
rm -rf "$results"
mkdir -p "$results"

echo "machine: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs), $(nproc) cores, $(free -g | awk '/Mem:/{print $2}') GiB"
command -v nvidia-smi >/dev/null && nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader | sed 's/^/gpu: /'
echo "disk: $(df -h "$work" | awk 'NR==2{print $4 " free on " $6}')"
echo "build: $("$tools/splat/starlens-splat" --version | head -1)"
echo "scene: $stars stars (seed $seed), ${width}x${height}, $spacetime r_obs $r_obs fov $fov, min-Y $min_y, $threads threads"

# A stage run: wall seconds from the clock; peak RSS from the manifest (host.peak_rss_bytes).
stage() {  # name, then the command (its manifest is OUTPUT.manifest.json)
  local name=$1; shift
  local start end
  start=$(date +%s.%N)
  if ! "$@" 2>"$results/$name.stderr"; then
    echo "bench/frame/run.sh: stage $name failed: $(tail -1 "$results/$name.stderr")" >&2
    exit 1
  fi
  end=$(date +%s.%N)
  awk -v n="$name" -v s="$start" -v e="$end" 'BEGIN { printf "%s %.3f\n", n, e - s }' >>"$results/walls"
  echo "stage $(tail -1 "$results/walls") s"
}

# Inputs, made once per parameter set (not part of the frame's time).
catalog=$work/catalog-$stars-$seed.h5
if [ ! -s "$catalog" ]; then
  rm -f "$work"/catalog-*.h5 "$work"/catalog-*.h5.manifest.json
  stage catalog "$tools/catalog/starlens-catalog" synth --count "$stars" --seed "$seed" -o "$catalog" \
    --threads "$threads" --quiet --force
fi
cp "$catalog.manifest.json" "$results/catalog.manifest.json"

lensmap=$work/lensmap.h5
stage trace "$tools/trace/starlens-trace" --spacetime "$spacetime" --r-obs "$r_obs" --fov "$fov" \
  --width "$width" --height "$height" -o "$lensmap" --threads "$threads" --quiet --force
cp "$lensmap.manifest.json" "$results/trace.manifest.json"

produce=("$tools/produce/starlens-produce" -l "$lensmap" -c "$catalog" --psf-min-y "$min_y"
  --threads "$threads" --quiet --force)
splat=("$tools/splat/starlens-splat" --threads "$threads" --quiet --force)

# The producer's own work, without writing events.
stage produce_count "${produce[@]}" --sink count -o "$results/produce_count.json"
cp "$results/produce_count.json.manifest.json" "$results/produce_count.manifest.json"

[ "$gpu_producer" = auto ] && { [[ " $backends " == *" gpu "* ]] && gpu_producer=yes || gpu_producer=no; }
if [ "$count_only" = yes ]; then
  if [ "$gpu_producer" = yes ]; then
    stage produce_gpu_count "${produce[@]}" --backend gpu --sink count -o "$results/produce_gpu_count.json"
    cp "$results/produce_gpu_count.json.manifest.json" "$results/produce_gpu_count.manifest.json"
  fi
  python3 "$here/table.py" "$results"
  echo "raw output: $results"
  exit 0
fi

stream=$work/events.sle
rm -f "$stream"
stage produce_file "${produce[@]}" -o "$stream"
cp "$stream.manifest.json" "$results/produce_file.manifest.json"
echo "stream: $(du -h "$stream" | cut -f1)"
sync

if [ "$pipe" = yes ]; then
  first=${backends%% *}
  piped() {
    "${produce[@]}" -o - --manifest "$results/pipe_produce.manifest.json" |
      "${splat[@]}" --backend "$first" -i - -o "$work/frame-pipe.exr"
  }
  stage pipe piped
  cp "$work/frame-pipe.exr.manifest.json" "$results/pipe_splat.manifest.json"
fi

# The GPU producer: its own work, its stream (byte-identical to the CPU's: docs/gpu.md), and
# the pipe into the first splat backend.
if [ "$gpu_producer" = yes ]; then
  stage produce_gpu_count "${produce[@]}" --backend gpu --sink count -o "$results/produce_gpu_count.json"
  cp "$results/produce_gpu_count.json.manifest.json" "$results/produce_gpu_count.manifest.json"
  stage produce_gpu_file "${produce[@]}" --backend gpu -o "$work/events-gpu.sle"
  cp "$work/events-gpu.sle.manifest.json" "$results/produce_gpu_file.manifest.json"
  if cmp -s "$stream" "$work/events-gpu.sle"; then echo identical; else echo DIFFERENT; fi \
    >"$results/gpu_producer_stream"
  rm -f "$work/events-gpu.sle" "$work/events-gpu.sle.manifest.json"
  if [ "$pipe" = yes ]; then
    piped_gpu() {
      "${produce[@]}" --backend gpu -o - --manifest "$results/pipe_gpu_produce.manifest.json" |
        "${splat[@]}" --backend "${backends%% *}" -i - -o "$work/frame-pipe-gpu.exr"
    }
    stage pipe_gpu piped_gpu
    cp "$work/frame-pipe-gpu.exr.manifest.json" "$results/pipe_gpu_splat.manifest.json"
  fi
fi

for backend in $backends; do
  stage "splat_$backend" "${splat[@]}" --backend "$backend" -i "$stream" -o "$work/frame-$backend.exr"
  cp "$work/frame-$backend.exr.manifest.json" "$results/splat_$backend.manifest.json"
done
[ "$keep_stream" = yes ] || rm -f "$stream" "$stream.manifest.json"

compare_status=skipped
if [[ " $backends " == *" gpu "* && " $backends " == *" cpu "* ]]; then
  if "$tools/compare/starlens-compare" "$work/frame-gpu.exr" "$work/frame-cpu.exr" --budget "$budget" \
    --report "$results/compare.json" >"$results/compare.stdout" 2>&1; then
    compare_status=within
  else
    compare_status="OVER (exit $?)"
  fi
fi
echo "$compare_status" >"$results/compare_status"

python3 "$here/table.py" "$results"
echo "raw output: $results"
