#!/usr/bin/env bash
# Submits a camera path's sequence to Slurm as a job array: one job prepares the catalogue and
# the exposure, an array of BATCH-frame jobs (one GPU each, splatting on it as --gpu-device 0)
# renders the frames through workflow/Snakefile, and a last job makes the movie; each waits
# for the one before (afterok).
#   workflow/slurm/submit_array.sh PATH.json BATCH [key=value ...]
# The key=value pairs are the Snakefile's config (out=, width=, height=, catalog_command=...);
# SBATCH_FLAGS adds sbatch options (partition, account, time), SLURM_GPU_FLAGS replaces
# "--gres=gpu:1" and BACKEND "gpu".
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
snakefile="$here/../Snakefile"
path=$(realpath "$1") batch=$2
shift 2
read -r frames <<<"$(python3 -c 'import json, sys; p = json.load(open(sys.argv[1]))
print(p["frames"] if "frames" in p else round(p["duration"] * p["fps"]))' "$path")"
first=0 last=$((frames - 1))
for kv in "$@"; do
  case $kv in first=*) first=${kv#first=} ;; last=*) last=${kv#last=} ;; esac
done
count=$((last - first + 1))
batches=$(((count + batch - 1) / batch))
gpu=${SLURM_GPU_FLAGS:---gres=gpu:1}
config=(path="$path" backend="${BACKEND:-gpu}" gpu_device=0 exposure_frame="$first" "$@")
snake="snakemake -s $snakefile --cores \${SLURM_CPUS_PER_TASK:-1} --nolock --config ${config[*]@Q}"

prepare=$(sbatch --parsable ${SBATCH_FLAGS:-} $gpu --job-name=starlens-prepare \
  --wrap "$snake first=$first last=$last -- exposure_target")
array=$(sbatch --parsable ${SBATCH_FLAGS:-} $gpu --job-name=starlens-frames \
  --dependency=afterok:"$prepare" --array=0-$((batches - 1)) \
  --wrap "b=\$SLURM_ARRAY_TASK_ID; lo=\$(($first + b * $batch)); hi=\$((lo + $batch - 1)); \
[ \$hi -le $last ] || hi=$last; $snake first=\$lo last=\$hi -- frames")
movie=$(sbatch --parsable ${SBATCH_FLAGS:-} --job-name=starlens-movie \
  --dependency=afterok:"$array" --wrap "$snake first=$first last=$last -- all")
echo "prepare $prepare, frames $array (array of $batches x $batch frames), movie $movie"
