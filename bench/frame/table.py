"""The table of bench/frame/run.sh: every stage's wall time, peak memory and phases (from its
manifest), the stream's rate through each stage, the frames' totals, and the GPU-against-CPU
verdict. usage: table.py RESULTS_DIR"""
import json
import os
import sys

results = sys.argv[1]
walls = {}
with open(os.path.join(results, "walls")) as f:
    for line in f:
        name, seconds = line.split()
        walls[name] = float(seconds)


def manifest(name):
    path = os.path.join(results, name + ".manifest.json")
    return json.load(open(path)) if os.path.exists(path) else None


def rss_mb(m):
    return m["host"].get("peak_rss_bytes", 0) / 2**20 if m else float("nan")


def phases(m, limit=6):
    if not m:
        return ""
    t = {k: v for k, v in m.get("timings_s", {}).items()
         if k not in ("total", "produce_cpu") and not k.endswith("_cpu") and v >= 0.05}
    top = sorted(t.items(), key=lambda kv: -kv[1])[:limit]
    return ", ".join(f"{k} {v:.1f}" for k, v in top)


produced = manifest("produce_file") or manifest("produce_count")
counts = produced["counts"] if produced else {}
stream_bytes = counts.get("stream_bytes", 0)
print()
if counts:
    print(f'events {counts["events"]:,} (direct {counts.get("events_direct", 0):,}), '
          f'stars read {counts.get("stars_read", 0):,}, stream {stream_bytes / 1e9:.2f} GB')
splat = manifest("splat_gpu") or manifest("splat_cpu")
if splat:
    c = splat["counts"]
    print(f'contributions {c.get("contributions", 0) / 1e9:.2f} G '
          f'(direct {c.get("contributions_direct", 0) / 1e9:.3f} G)')

rows = [
    ("catalog", "catalog", "catalogue synth (prepared once)"),
    ("trace", "trace", "lens map"),
    ("produce_count", "produce_count", "produce --sink count (the producer's own work)"),
    ("produce_file", "produce_file", "produce to a file"),
    ("splat_gpu", "splat_gpu", "splat gpu from the file"),
    ("splat_cpu", "splat_cpu", "splat cpu from the file"),
    ("pipe", "pipe_splat", "produce | splat, one pipe"),
    ("produce_gpu_count", "produce_gpu_count", "produce --backend gpu --sink count"),
    ("produce_gpu_file", "produce_gpu_file", "produce --backend gpu to a file"),
    ("pipe_gpu", "pipe_gpu_splat", "produce --backend gpu | splat, one pipe"),
]
print()
print(f'{"stage":<48} {"wall_s":>8} {"GB/s":>6} {"rss_MB":>8}  phases (s)')
for key, manifest_name, label in rows:
    if key not in walls:
        continue
    m = manifest(manifest_name)
    rate = ""
    if key in ("produce_file", "splat_gpu", "splat_cpu", "pipe", "produce_gpu_file",
               "pipe_gpu") and stream_bytes:
        rate = f"{stream_bytes / walls[key] / 1e9:6.2f}"
    rss = rss_mb(m)
    if key in ("pipe", "pipe_gpu"):
        rss = max(rss, rss_mb(manifest(key + "_produce")))
    print(f"{label:<48} {walls[key]:8.2f} {rate:>6} {rss:8.0f}  {phases(m)}")
    if key in ("pipe", "pipe_gpu") and manifest(key + "_produce"):
        print(f'{"  of it, produce":<48} {"":>8} {"":>6} {rss_mb(manifest(key + "_produce")):8.0f}  '
              f'{phases(manifest(key + "_produce"))}')
    gpu = (m or {}).get("gpu") if key.startswith("produce_gpu") else None
    if gpu:
        print(f'{"  GPU memory (device, pinned host)":<48} {"":>8} {"":>6} '
              f'{gpu["device_bytes_peak"] / 2**20:8.0f}  pinned {gpu["pinned_bytes_peak"] / 2**20:.0f} MB, '
              f'index {gpu["index_bytes"] / 2**20:.0f} MB on {gpu["device"]}')

print()
trace = walls.get("trace", 0.0)
frames = []
if "pipe" in walls:
    frames.append(("frame, trace + produce | splat (pipe)", trace + walls["pipe"]))
if "pipe_gpu" in walls:
    frames.append(("frame, trace + produce gpu | splat (pipe)", trace + walls["pipe_gpu"]))
for backend in ("gpu", "cpu"):
    if "produce_file" in walls and f"splat_{backend}" in walls:
        frames.append((f"frame, trace + produce file + splat {backend}",
                       trace + walls["produce_file"] + walls[f"splat_{backend}"]))
for label, seconds in frames:
    print(f"{label:<48} {seconds:8.2f} s")

identity_path = os.path.join(results, "gpu_producer_stream")
if os.path.exists(identity_path):
    print(f"GPU producer's stream against the CPU producer's: {open(identity_path).read().strip()}")

status_path = os.path.join(results, "compare_status")
if os.path.exists(status_path):
    status = open(status_path).read().strip()
    detail = ""
    report_path = os.path.join(results, "compare.json")
    if os.path.exists(report_path):
        report = json.load(open(report_path))
        y = report.get("channels", {}).get("Y", {})
        if y:
            detail = (f' (Y: max relative {y["max_rel"]["value"]:.3g}, '
                      f'total relative {y["total"]["rel_diff"]:.3g})')
    print(f"GPU frame against CPU frame, GPU-vs-CPU budget: {status}{detail}")
