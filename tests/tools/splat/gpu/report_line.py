"""One line from a starlens-compare report: the worst relative pixel and total-flux errors
over the channels, and any limit exceeded."""
import json
import sys

report = json.load(open(sys.argv[1]))
worst_rel = max(c["max_rel"]["value"] for c in report["channels"].values())
worst_total = max(abs(c["total"]["rel_diff"] or 0.0) for c in report["channels"].values())
line = f"max_rel {worst_rel:.2e}  total_rel {worst_total:.2e}"
for item in report.get("over_budget", []):
    line += f"  OVER {item['channel']} {item['limit']} {item['value']}"
print(line)
