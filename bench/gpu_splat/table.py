"""The benchmark table from results.jsonl. Cached-event kernels (binning + accumulate + merge
on the GPU; binning + accumulate_cache on the CPU) and the direct events' quadrature
(accumulate_direct) are timed apart; their contribution counts come from the GPU runs of the
same stream (the CPU's are equal: tests/tools/splat/gpu/run_on_device.sh). "total" is the replay from file
to frame in memory (read, validate, accumulate, download), without writing the EXR. Memory, in
GB: the process's peak resident memory (rss) and, on the GPU, the engine's peak device and
pinned host memory (from the manifest; "-" where an older manifest has none)."""
import json
import sys


def gigabytes(value):
    return f"{value / 1e9:5.2f}" if value else f"{'-':>5}"


rows = [json.loads(line) for line in open(sys.argv[1]) if line.strip()]
direct_of = {}
for r in rows:
    if "error" not in r and r["backend"] == "gpu":
        direct_of[(r["distribution"], r["events"])] = r.get("contributions_direct") or 0

print(f"{'dist':8} {'events':>10} {'backend':8} {'strategy':12} {'contrib':>11} {'cached_s':>9} "
      f"{'Gc/s':>7} {'direct_s':>8} {'Gc/s':>7} {'total_s':>7} {'Mev/s':>7} {'read':>6} {'upload':>6} "
      f"{'binning':>7} {'accum':>6} {'merge':>6} {'download':>8} {'write':>5} {'rss':>5} {'dev':>5} "
      f"{'pin':>5}  adaptive choices")
for r in rows:
    if "error" in r:
        print(f"{r['run']}: ERROR {r['error'].strip()}")
        continue
    t = r["timings_s"]
    gpu = r["backend"] in ("gpu", "vulkan")
    cached_s = t.get("binning", 0) + (t.get("accumulate", 0) + t.get("merge", 0) if gpu else t.get("accumulate_cache", 0))
    direct_s = t.get("accumulate_direct", 0)
    direct_contrib = direct_of.get((r["distribution"], r["events"]), 0)
    cached_rate = (r["contributions"] - direct_contrib) / cached_s / 1e9 if cached_s > 0 else 0
    direct_rate = direct_contrib / direct_s / 1e9 if direct_s > 0 else 0
    choices = ""
    if r["backend"] == "gpu" and r["strategy"].startswith("adaptive"):
        c = r["gpu"]["strategy_choices"]
        names = ("atomic", "tile16", "tile32", "scatter16")
        choices = " ".join(f"{name} {c[name]}" for name in names if name in c)
        choices += f" density p50 {c['centre_tile_density']['p50']:.1f}"
    print(f"{r['distribution']:8} {r['events']:>10} {r['backend']:8} {r['strategy']:12} {r['contributions']:>11} "
          f"{cached_s:9.4f} {cached_rate:7.2f} {direct_s:8.4f} {direct_rate:7.3f} {t['total']:7.3f} "
          f"{r['events'] / t['total'] / 1e6:7.2f} {t.get('read', 0):6.3f} {t.get('upload', 0):6.3f} "
          f"{t.get('binning', 0):7.4f} {t.get('accumulate', 0):6.3f} {t.get('merge', 0):6.3f} "
          f"{t.get('download', 0):8.3f} {t.get('write_exr', 0):5.2f} {gigabytes(r.get('peak_rss_bytes'))} "
          f"{gigabytes(r.get('gpu', {}).get('device_memory_peak_bytes'))} "
          f"{gigabytes(r.get('gpu', {}).get('pinned_memory_peak_bytes'))}  {choices}")
