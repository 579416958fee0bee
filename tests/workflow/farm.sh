#!/usr/bin/env bash
# workflow/Snakefile on a tiny sequence (3 frames at 64x36): snakemake --cores 2 renders every
# frame and the movie with the stage commands of pipeline.mk, one exposure for all (the
# reference frame's, in every frame's manifest), and a second dry run has nothing to do.
# Then workflow/slurm/submit_array.sh on a single-node Slurm cluster that the test starts
# (slurm_cluster.sh): the frames come as a 2-task array of 2-frame batches after the prepare
# job, the movie after them, each frame job asks for one GPU, and the frames match the local run's;
# then the Snakemake Slurm profile (workflow/profiles/slurm) on the same cluster.
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
# A circular orbit: frame 0 traced once (orbit-map.h5), every frame's map turned from it.
python3 -c '
import json
for n in range(3):
    c = json.load(open(f"local/{n:05d}/lensmap.h5.manifest.json"))["counts"]
    assert c["traced_rays"] == 0 and c["orbit_map"]["source_frame"] == 0, c
' || fail "the orbit's frames were traced, not turned from orbit-map.h5"
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

# The Slurm array on a single-node Slurm cluster of its own (slurm_cluster.sh): the real sbatch,
# scheduler and slurmd run the jobs.
conf=$(bash "$source_root/tests/workflow/slurm_cluster.sh" start "$work/slurm") ||
  { echo "FAIL: the Slurm cluster did not start"; exit 1; }
trap 'bash "$source_root/tests/workflow/slurm_cluster.sh" stop "$work/slurm"; rm -rf "$work"' EXIT
export SLURM_CONF=$conf
SBATCH_FLAGS="--output=$work/slurm-%A_%a.log" BACKEND=cpu \
  "$source_root/workflow/slurm/submit_array.sh" path.json 2 out=farm "${config[@]:1}" >submit.log 2>&1 ||
  { cat submit.log; fail "submit_array"; }
read -r prepare frames movie < <(sed -E 's/^prepare ([0-9]+), frames ([0-9]+) .*, movie ([0-9]+)$/\1 \2 \3/' submit.log)
job() { scontrol -o show job "$1" 2>/dev/null; }
for _ in $(seq 600); do
  job "$movie" | grep -qE 'JobState=(PENDING|RUNNING|CONFIGURING|COMPLETING)' || break
  sleep 0.5
done
states=$(squeue -h -t all -o '%i %j %T %b' 2>/dev/null | sort)
[ "$(echo "$states" | grep -c COMPLETED)" = 4 ] ||
  { cat "$work"/slurm-*.log 2>/dev/null | tail -n 20; fail "not every job completed: $states"; }
[ "$(job "$frames" | grep -c 'ArrayTaskId=')" = 2 ] || fail "frames not a 2-task array: $(job "$frames")"
for id in "$prepare" "$frames"; do
  job "$id" | grep -q 'TresPerNode=gres:gpu:1' || fail "job $id does not ask for one GPU: $(job "$id")"
done
job "$movie" | grep -q 'TresPerNode=gres:gpu' && fail "the movie job asks for a GPU"
# Each job started after the ones it waits for ended.
field() { job "$1" | grep -o "$2=[^ ]*" | cut -d= -f2 | sort; }
for pair in "$(field "$prepare" EndTime | tail -n 1) $(field "$frames" StartTime | head -n 1)" \
  "$(field "$frames" EndTime | tail -n 1) $(field "$movie" StartTime | head -n 1)"; do
  read -r before after <<<"$pair"
  [[ "$before" < "$after" || "$before" == "$after" ]] ||
    fail "a job started ($after) before the one it waits for ended ($before)"
done
# The same frames: identical lens maps and pictures (the EXR headers name their inputs' paths).
for id in 00000 00001 00002; do
  cmp -s farm/$id/lensmap.h5 local/$id/lensmap.h5 || fail "array lens map $id differs from the local run's"
  cmp -s farm/$id.png local/$id.png || fail "array frame $id differs from the local run's"
done
[ -s farm/movie.mp4 ] || fail "array run made no movie"

# The Snakemake profile on the same cluster: every job through sbatch, frames packed two to a
# group job (the node has 2 cores; a group of N frames asks for N), the same frames again.
snakemake -s "$source_root/workflow/Snakefile" --profile "$source_root/workflow/profiles/slurm" \
  --group-components events=2 frame=2 -q --config out=profile backend=cpu "${config[@]}" \
  >profile.log 2>&1 || { tail -n 20 profile.log; fail "the Slurm profile's run"; }
[ "$(squeue -h -t all -n starlens-GROUP -o %T | grep -c COMPLETED)" = 4 ] ||
  fail "the profile did not run the frames as 4 group jobs: $(squeue -h -t all -o '%i %j %T')"
for id in 00000 00001 00002; do
  cmp -s profile/$id.png local/$id.png || fail "profile frame $id differs from the local run's"
done
[ -s profile/movie.mp4 ] || fail "the profile's run made no movie"

echo "farm: $failures failure(s)"
[ "$failures" = 0 ]
