"""The benchmark table from results.jsonl: rates over device time (binning + accumulate +
merge: the kernels) and over the whole replay (read to frame in memory), per-phase times."""
import json
import sys

rows = [json.loads(line) for line in open(sys.argv[1]) if line.strip()]
header = (f"{'dist':8} {'events':>10} {'backend':8} {'strategy':9} {'contrib':>12} {'kernel_s':>9} "
          f"{'Gcontrib/s':>10} {'total_s':>8} {'Mevents/s':>9} {'read':>7} {'upload':>7} {'binning':>7} "
          f"{'accum':>7} {'merge':>7} {'download':>8} {'write':>6}  adaptive choices")
print(header)
for r in rows:
    if "error" in r:
        print(f"{r['run']}: ERROR {r['error'].strip()}")
        continue
    t = r["timings_s"]
    kernel = t.get("binning", 0) + t.get("accumulate", 0) + t.get("merge", 0)
    rate = r["contributions"] / kernel / 1e9 if kernel > 0 else 0
    events_rate = r["events"] / t["total"] / 1e6 if t.get("total") else 0
    choices = ""
    if r.get("gpu") and r["strategy"] == "adaptive":
        c = r["gpu"]["strategy_choices"]
        choices = (f"atomic {c['atomic']} tile16 {c['tile16']} tile32 {c['tile32']} "
                   f"density p50 {c['centre_tile_density']['p50']:.1f}")
    print(f"{r['distribution']:8} {r['events']:>10} {r['backend']:8} {r['strategy']:9} {r['contributions']:>12} "
          f"{kernel:9.4f} {rate:10.3f} {t['total']:8.3f} {events_rate:9.2f} {t.get('read', 0):7.3f} "
          f"{t.get('upload', 0):7.3f} {t.get('binning', 0):7.3f} {t.get('accumulate', 0):7.3f} "
          f"{t.get('merge', 0):7.3f} {t.get('download', 0):8.3f} {t.get('write_exr', 0):6.2f}  {choices}")
