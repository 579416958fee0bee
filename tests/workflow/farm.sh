#!/usr/bin/env bash
# workflow/Snakefile on a tiny sequence (3 frames at 64x36): snakemake --cores 2 renders every
# frame and the movie with the stage commands of pipeline.mk, one exposure for all (the
# reference frame's, in every frame's manifest), and a second dry run has nothing to do.
# Then workflow/slurm/submit_array.sh against a stand-in sbatch that runs each job at once
# (array tasks one by one, SLURM_ARRAY_TASK_ID set): the frames come as a 2-task array of
# 2-frame batches, each job asks for one GPU, and the frames it renders match the local run's.
# usage: farm.sh SOURCE_ROOT BUILD_ROOT
set -uo pipefail
source_root=$1 build_root=$2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }
python3() { if [ -x /usr/bin/python3 ]; then /usr/bin/python3 "$@"; else command python3 "$@"; fi; }
cd "$work"
cat >path.json <<'JSON'
{"fps": 12, "frames": 3, "time_per_second": 600, "worldline": {"type": "orbit", "r": 12, "phi": 0}}
JSON
config=(path="$work/path.json" width=64 height=36 mesh_step=8 starlens_build="$build_root"
  "catalog_command=synth --count 3000 --seed 5")
snakemake -s "$source_root/workflow/Snakefile" --cores 2 -q --config out=local "${config[@]}" \
  >log 2>&1 || { cat log; fail "local run"; }
for id in 00000 00001 00002; do
  [ -s local/$id.png ] && [ -s local/$id.exr ] && [ -s local/$id/lensmap.h5 ] || fail "frame $id missing"
done
probe=$(ffprobe -v error -count_frames -select_streams v:0 \
  -show_entries stream=nb_read_frames,r_frame_rate -of csv=p=0 local/movie.mp4 2>&1)
[ "$probe" = "12/1,3" ] || fail "movie: $probe"
python3 - local <<'PY' || fail "one exposure"
import json, sys
e = json.load(open(f"{sys.argv[1]}/reference.exr.manifest.json"))["parameters"]["exposure"]
for n in range(3):
    m = json.load(open(f"{sys.argv[1]}/{n:05d}.exr.manifest.json"))
    assert m["parameters"]["exposure"] == e and m["parameters"].get("frame_number", n) == n, m["parameters"]
PY
snakemake -s "$source_root/workflow/Snakefile" --cores 2 -n --config out=local "${config[@]}" >log 2>&1
grep -q "Nothing to be done" log || fail "second dry run has work: $(cat log)"

# The Slurm array, against a stand-in sbatch.
mkdir bin
cat >bin/sbatch <<'SH'
#!/usr/bin/env bash
echo "$*" >>"$SBATCH_LOG"
array= wrap=
while [ $# -gt 0 ]; do
  case $1 in --array=*) array=${1#--array=} ;; --wrap) wrap=$2; shift ;; esac
  shift
done
id=$(( $(wc -l <"$SBATCH_LOG") + 100 ))
if [ -n "$array" ]; then
  for t in $(seq "${array%-*}" "${array#*-}"); do SLURM_ARRAY_TASK_ID=$t bash -c "$wrap" >>"$SBATCH_LOG.out" 2>&1 || exit 1; done
else
  bash -c "$wrap" >>"$SBATCH_LOG.out" 2>&1 || exit 1
fi
echo $id
SH
chmod +x bin/sbatch
PATH="$work/bin:$PATH" SBATCH_LOG="$work/sbatch.log" BACKEND=cpu \
  "$source_root/workflow/slurm/submit_array.sh" path.json 2 out=farm "${config[@]:1}" >submit.log 2>&1 ||
  { cat submit.log sbatch.log.out; fail "submit_array"; }
[ "$(wc -l <sbatch.log)" = 3 ] || fail "expected 3 submissions: $(cat sbatch.log)"
grep -q -- "--array=0-1 " sbatch.log || fail "frames not a 2-task array: $(cat sbatch.log)"
[ "$(grep -c -- '--gres=gpu:1' sbatch.log)" = 2 ] || fail "prepare and frame jobs do not ask for one GPU each"
grep -q -- "--dependency=afterok:" sbatch.log || fail "jobs do not wait for each other"
# The same frames: identical lens maps and pictures (the EXR headers name their inputs' paths).
for id in 00000 00001 00002; do
  cmp -s farm/$id/lensmap.h5 local/$id/lensmap.h5 || fail "array lens map $id differs from the local run's"
  cmp -s farm/$id.png local/$id.png || fail "array frame $id differs from the local run's"
done
[ -s farm/movie.mp4 ] || fail "array run made no movie"

echo "farm: $failures failure(s)"
[ "$failures" = 0 ]
