"""One JSON line per benchmark run, from a starlens-splat manifest (median timings)."""
import json
import sys

manifest_path, distribution, backend, strategy, wall = sys.argv[1:6]
m = json.load(open(manifest_path))
counts, timings = m["counts"], m["timings_s"]
gpu = m.get("gpu", {})
line = {
    "distribution": distribution,
    "backend": backend,
    "strategy": strategy if backend in ("gpu", "vulkan") else "-",
    "events": counts["events"],
    "events_direct": counts.get("events_direct", 0),
    "contributions": counts["contributions"],
    "contributions_direct": counts.get("contributions_direct"),
    "repeat": m["parameters"].get("repeat", 1),
    "timings_s": timings,
    "process_wall_s": float(wall),
    "threads": m.get("threads"),
    "peak_rss_bytes": m.get("host", {}).get("peak_rss_bytes"),
}
vulkan = m.get("vulkan", {})
if vulkan:
    line["gpu"] = {"name": vulkan.get("device", {}).get("name"), "batch_events": vulkan.get("batch_events"),
                   "strategy_used": vulkan.get("strategy_used"),
                   "device_memory_peak_bytes": vulkan.get("device_memory_peak_bytes")}
if gpu:
    line["gpu"] = {k: gpu.get(k) for k in ("name", "batch_events", "batches_submitted", "strategy_choices",
                                           "device_memory_peak_bytes", "pinned_memory_peak_bytes")}
    # Batch sizes other than the backend's default (splat_engine.h) are named in the table.
    line["strategy"] += f"/b{gpu.get('batch_events')}" if gpu.get("batch_events") != 4194304 else ""
print(json.dumps(line))
