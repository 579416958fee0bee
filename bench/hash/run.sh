#!/usr/bin/env bash
# bench/hash: GB/s of the content hash and of the event stream's three paths, each alone:
#   tree hash of a large file (warm page cache, and cold where the cache can be dropped),
#   plain single-core SHA-256 of the same file for comparison,
#   a stream written to a file (EventWriter: 4 MiB writes, tree hash of the bytes written),
#   the file read back as splat reads it (PrefetchingReader: validated, tree-hashed),
#   writer | reader through a pipe (both ends enlarge it),
# with each process's peak RSS. The digests of one content must agree across the paths.
# usage: bench/hash/run.sh [SIZE_GB] [BUILD_DIR] [WORK_DIR] [THREADS]
#   defaults: 1 GB, build, /tmp/starlens-bench-hash, all hardware threads (0)
#   2 cores: bench/hash/run.sh 0.5 (well under a minute); 16 cores: bench/hash/run.sh 16
set -euo pipefail
size_gb=${1:-1}
build=${2:-build}
work=${3:-/tmp/starlens-bench-hash}
threads=${4:-0}
bench=$build/bench/hash/starlens-bench-hash
mkdir -p "$work"
stream=$work/stream.sle
bytes=$(python3 -c "print(int(float('$size_gb') * 1e9))")
log=$work/results.jsonl
: >"$log"

echo "machine: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs), $(nproc) cores, $(free -g | awk '/Mem:/{print $2}') GiB"
echo "load before: $(cut -d' ' -f1-3 /proc/loadavg)"
echo "pipe-max-size: $(cat /proc/sys/fs/pipe-max-size) bytes; stream: $size_gb GB in $work; hash threads: $threads (0: all)"

"$bench" write "$stream" "$bytes" "$threads" 2>>"$log"
"$bench" read "$stream" "$threads" 2>>"$log"
"$bench" tree "$stream" "$threads" 2>>"$log"
"$bench" tree "$stream" 1 2>>"$log"
"$bench" plain "$stream" 2>>"$log"
# Cold: the file's pages dropped from the page cache (posix_fadvise DONTNEED after fdatasync;
# other processes' caches are left alone).
"$bench" evict "$stream"
cold="fadvise"
"$bench" tree "$stream" "$threads" 2>&1 >/dev/null | sed 's/"tree_hash_file"/"tree_hash_file_cold"/' >>"$log"
"$bench" write - "$bytes" "$threads" 2>>"$log" | "$bench" read - "$threads" 2>>"$log"
rm -f "$stream"

python3 - "$log" "$cold" <<'PY'
import json, sys
rows = [json.loads(line) for line in open(sys.argv[1]) if line.startswith("{")]
print(f"{'what':<28} {'threads':>7} {'GB':>7} {'s':>7} {'GB/s':>7} {'peak RSS MiB':>12}")
for r in rows:
    label = r["what"] + (" (" + sys.argv[2] + ")" if r["what"].endswith("cold") else "")
    print(f"{label:<28} {r['threads']:>7} {r['bytes'] / 1e9:>7.2f} {r['seconds']:>7.2f} "
          f"{r['GBps']:>7.2f} {r['peak_rss_MiB']:>12.0f}")
    if r["what"] == "write_stream_file":
        before = r["seconds"] - r["finish_seconds"]
        print(f"{'  of which finish (fsync)':<28} {'':>7} {'':>7} {r['finish_seconds']:>7.2f}"
              f"   (before it: {r['bytes'] / 1e9 / before:.2f} GB/s)")
by = {r["what"]: r["digest"] for r in rows}
tree = {by[k] for k in by if k != "plain_sha256_file"}
print("digests agree:" if len(tree) == 1 else "DIGESTS DIFFER:", ", ".join(sorted(by)))
sys.exit(0 if len(tree) == 1 else 1)
PY
