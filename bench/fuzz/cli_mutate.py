#!/usr/bin/env python3
"""Mutates the tools' inputs and runs the tools on them, checking the command-line contract.

The inputs are the ones fuzz/make_seeds.sh makes (in a kept work folder, so that manifests name
a folder that exists). Each mutation takes one input of one kind (catalogue files, stores, lens
maps, event streams, frames, budgets, manifests), applies bit flips, a truncation, an inserted
or deleted range, or an extreme value written over a header field or a number, and runs the
tool that reads it. A run passes when:
  - it exits 0, 1 or 2 (no signal, no timeout),
  - stderr holds no sanitizer report,
  - a failing run (1 or 2; not compare's verdict "over budget") prints exactly one stderr line, and exit 2 names the mutated file
    (for a manifest, or a file that the manifest's replayed argv or inputs name),
  - a failing run leaves nothing under its output's final name (nor its manifest),
  - its peak resident memory stays under --max-rss-mb.
Every failure is kept (input, command, stderr) under OUT/findings/; OUT/summary.json counts the
exit statuses per kind and the findings by check.

usage: bench/fuzz/cli_mutate.py BUILD_DIR OUT_DIR [--mutations N] [--jobs J] [--seed S]
"""
import argparse
import collections
import concurrent.futures
import gzip
import json
import os
import random
import shutil
import signal
import struct
import subprocess
import sys
import threading
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent.parent

# Values written over a field: the extremes of the integer widths and the doubles that readers
# must refuse or bound (sizes of 2^22 and 2^24 pixels among them).
EXTREME_INTEGERS = [0, 1, 0x7F, 0xFF, 0x7FFF, 0xFFFF, 1 << 22, 1 << 24, 0x7FFFFFFF, 0x80000000,
                    0xFFFFFFFF, (1 << 63) - 1, 1 << 63, (1 << 64) - 1]
EXTREME_DOUBLES = [0.0, -0.0, 1e-308, 5e-324, 1e308, -1e308, float("inf"), float("-inf"),
                   float("nan"), -1.0, 1e19]
EXTREME_TEXT = [b"0", b"-1", b"1e308", b"-1e308", b"1e-308", b"nan", b"inf", b"-inf",
                b"4294967296", b"18446744073709551616", b"99999999999999999999999", b"\xff",
                b"\"\xff\"", b"[]", b"{}", b"null", b"[1,2,3]", b"\"\""]


def mutate_binary(data, rng):
    data = bytearray(data)
    kind = rng.choice(["flip", "flip", "truncate", "insert", "delete", "extreme", "extreme"])
    if not data:
        return bytes(rng.randbytes(rng.randint(1, 64))), "insert"
    if kind == "flip":
        for _ in range(rng.randint(1, 8)):
            data[rng.randrange(len(data))] ^= 1 << rng.randrange(8)
    elif kind == "truncate":
        del data[rng.randrange(len(data)):]
    elif kind == "insert":
        at = rng.randrange(len(data) + 1)
        data[at:at] = rng.randbytes(rng.randint(1, 256))
    elif kind == "delete":
        at = rng.randrange(len(data))
        del data[at:at + rng.randint(1, 256)]
    else:
        # Headers hold the fields: aim at the first KiB most of the time.
        limit = min(len(data), 1024) if rng.random() < 0.7 else len(data)
        at = rng.randrange(limit) & ~3
        if rng.random() < 0.6:
            width = rng.choice([4, 8])
            value = rng.choice(EXTREME_INTEGERS) & ((1 << (8 * width)) - 1)
            packed = value.to_bytes(width, "little")
        else:
            packed = struct.pack("<d", rng.choice(EXTREME_DOUBLES))
        data[at:at + len(packed)] = packed
    return bytes(data), kind


def mutate_text(data, rng):
    if rng.random() < 0.5:
        return mutate_binary(data, rng)
    # Replace one number-like or quoted token with an extreme one.
    tokens = [i for i in range(len(data)) if data[i:i + 1].isdigit() and (i == 0 or not data[i - 1:i].isdigit())]
    if not tokens:
        return mutate_binary(data, rng)
    start = rng.choice(tokens)
    end = start
    while end < len(data) and (data[end:end + 1].isalnum() or data[end:end + 1] in b".-+"):
        end += 1
    return data[:start] + rng.choice(EXTREME_TEXT) + data[end:], "extreme"


class Kinds:
    """The inputs of each kind in the work folder and the command that reads a mutated one."""

    def __init__(self, build, work):
        tool = lambda stage: str(build / "tools" / stage / f"starlens-{stage}")
        self.catalog, self.trace, self.produce = tool("catalog"), tool("trace"), tool("produce")
        self.splat, self.compare = tool("splat"), tool("compare")
        self.work = work
        psf = ["--psf-cache-radius", "3", "--psf-phases", "2", "--psf-max-radius", "8"]
        w = lambda name: str(work / name)
        budget = w("budget.json")
        # kind -> (inputs, suffix, text?, command(mutated, out) -> (argv, output or None))
        self.table = {
            "csv": (["stars_teff.csv", "stars_bv.csv"], ".csv", True,
                    lambda m, o: ([self.catalog, "ingest", m, "--band", "V", "-o", o + ".h5", "--quiet"], o + ".h5")),
            "stellarium": (sorted(p.name for p in work.glob("stars_*.cat")), ".cat", False,
                           lambda m, o: ([self.catalog, "ingest", m, "-o", o + ".h5", "--quiet"], o + ".h5")),
            "twomass": (["psc_rows.txt"], ".gz", True,
                        lambda m, o: ([self.catalog, "ingest", m, "-o", o + ".h5", "--quiet"], o + ".h5")),
            "store_info": (["teff.h5", "psc.h5", "synth.h5", "stellarium.h5"], ".h5", False,
                           lambda m, o: ([self.catalog, "info", m, "--json", "--quiet"], None)),
            "store_produce": (["teff.h5", "bv.h5"], ".h5", False,
                              lambda m, o: ([self.produce, "-l", w("hole.h5"), "-c", m, "-o", o + ".sle", "--quiet"] + psf, o + ".sle")),
            "lensmap": (["hole.h5", "flat.h5", "fisheye.h5"], ".h5", False,
                        lambda m, o: ([self.produce, "-l", m, "-c", w("teff.h5"), "-o", o + ".sle", "--quiet"] + psf, o + ".sle")),
            "events": (["hole.sle", "flat.sle"], ".sle", False,
                       lambda m, o: ([self.splat, "-i", m, "-o", o + ".exr", "--quiet"], o + ".exr")),
            "exr": (["hole.exr", "flat.exr"], ".exr", False,
                    lambda m, o: ([self.compare, m, w("hole.exr"), "--budget", budget, "--report", o + ".json"], o + ".json")),
            "budget": (["budget.json", "per_channel.json"], ".json", True,
                       lambda m, o: ([self.compare, w("hole.exr"), w("hole.exr"), "--budget", m, "--report", o + ".json"], o + ".json")),
            "manifest": (sorted(p.name for p in work.glob("*.manifest.json")), ".manifest.json", True,
                         lambda m, o: ([self.tool_of_manifest(m), "--from-manifest", m, "--quiet"], None)),
        }

    def tool_of_manifest(self, path):
        # The stage named in the original manifest (the mutated one may name none).
        stem = Path(path).name.split(".mut")[0]
        original = json.loads((self.work / stem).read_text())
        return str(Path(self.catalog).parent.parent / original["tool"][len("starlens-"):] / original["tool"])


def names_replayed_file(kind, stderr, mutated):
    """A replay of a mutated manifest may fail on a file its (mutated) argv or inputs name."""
    if kind != "manifest" or ": error: " not in stderr:
        return False
    named = stderr.split(": error: ", 1)[1].split(": ", 1)[0].strip()
    return bool(named) and named.encode() in mutated


def run_one(kinds, kind, index, seed, out, max_rss_mb, timeout):
    rng = random.Random(seed * 1000003 + index)
    inputs, suffix, text, command = kinds.table[kind]
    source = rng.choice(inputs)
    data = (kinds.work / source).read_bytes()
    mutated, how = (mutate_text if text else mutate_binary)(data, rng)
    if kind == "twomass" and not (rng.random() < 0.2):
        mutated = gzip.compress(mutated, 1)  # the rows mutated, then compressed as psc files are
    folder = out / "runs" / f"{index % 64}"
    folder.mkdir(parents=True, exist_ok=True)
    if kind == "manifest":
        path = kinds.work / f"{source}.mut{index}.manifest.json"
    else:
        path = folder / f"in{index}{suffix}"
    path.write_bytes(mutated)
    output = str(folder / f"out{index}")
    argv, final = command(str(path), output)
    start = time.monotonic()
    process = subprocess.Popen(argv, cwd=folder, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                               env=dict(os.environ, ASAN_OPTIONS="detect_leaks=1:abort_on_error=1",
                                        UBSAN_OPTIONS="halt_on_error=1:print_stacktrace=1"))
    stderr_chunks = []
    reader = threading.Thread(target=lambda: stderr_chunks.append(process.stderr.read()))
    reader.start()
    timed_out = False
    while True:
        pid, status, usage = os.wait4(process.pid, os.WNOHANG)
        if pid:
            break
        if time.monotonic() - start > timeout:
            process.kill()
            timed_out = True
        time.sleep(0.005)
    reader.join()
    process.returncode = os.waitstatus_to_exitcode(status)
    stderr = b"".join(stderr_chunks).decode("utf-8", "replace")
    code = process.returncode
    problems = []
    if timed_out:
        problems.append("timeout")
    elif code < 0:
        problems.append(f"signal {signal.Signals(-code).name}")
    elif code not in (0, 1, 2):
        problems.append(f"exit {code}")
    if "Sanitizer" in stderr or "runtime error:" in stderr:
        problems.append("sanitizer report")
    lines = [line for line in stderr.splitlines() if line.strip()]
    # compare's exit 1 with its "over budget" lines and report is a verdict, not a failure.
    verdict = kind in ("exr", "budget") and code == 1 and "over budget" in stderr
    if code in (1, 2) and len(lines) != 1 and not verdict:
        problems.append(f"{len(lines)} stderr lines on exit {code}")
    if code == 2 and path.name not in stderr and not names_replayed_file(kind, stderr, mutated):
        problems.append("exit 2 without the file's name")
    if code != 0 and not verdict and final and (os.path.exists(final) or os.path.exists(final + ".manifest.json")):
        problems.append("output left under its final name")
    rss_mb = usage.ru_maxrss / 1024
    if rss_mb > max_rss_mb:
        problems.append(f"peak RSS {rss_mb:.0f} MB")
    if problems:
        finding = out / "findings" / f"{kind}-{index}"
        finding.mkdir(parents=True, exist_ok=True)
        shutil.copy(path, finding / path.name)
        (finding / "command.txt").write_text(" ".join(argv) + "\n")
        (finding / "stderr.txt").write_text(stderr)
        (finding / "problems.txt").write_text("\n".join(problems) + "\n")
    # Nothing stays but the findings.
    path.unlink(missing_ok=True)
    for leftover in folder.glob(f"out{index}*"):
        shutil.rmtree(leftover) if leftover.is_dir() else leftover.unlink()
    if kind == "manifest":
        for replay in kinds.work.glob("*.replay*"):
            replay.unlink(missing_ok=True)
    return kind, how, "timeout" if timed_out else code, problems


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("build", type=Path, help="build folder with the tools")
    parser.add_argument("out", type=Path, help="results folder")
    parser.add_argument("--mutations", type=int, default=1000)
    parser.add_argument("--jobs", type=int, default=os.cpu_count())
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--max-rss-mb", type=float, default=1024)
    parser.add_argument("--timeout", type=float, default=60)
    parser.add_argument("--kinds", default="", help="comma-separated subset of the kinds")
    args = parser.parse_args()
    out = args.out.resolve()
    work = out / "inputs"
    if not (work / "hole.sle").exists():
        shutil.rmtree(work, ignore_errors=True)
        subprocess.run(["bash", str(ROOT / "fuzz" / "make_seeds.sh"), str(args.build), str(out / "seeds")],
                       env=dict(os.environ, STARLENS_SEEDS_WORK=str(work)), check=True,
                       stdout=subprocess.DEVNULL)
        (work / "psc_rows.txt").write_bytes(gzip.decompress(b"".join(p.read_bytes() for p in sorted((work / "psc").glob("*.gz")))))
        shutil.copy(out / "seeds" / "budget" / "tight.json", work / "budget.json")
        shutil.copy(out / "seeds" / "budget" / "per_channel.json", work / "per_channel.json")
    kinds = Kinds(args.build.resolve(), work)
    names = args.kinds.split(",") if args.kinds else list(kinds.table)
    # The manifest replays run in the inputs' folder: one at a time, after the others.
    order = [(names[i % len(names)], i) for i in range(args.mutations)]
    statuses = collections.defaultdict(collections.Counter)
    problems = collections.Counter()
    findings = 0
    start = time.monotonic()
    parallel = [item for item in order if item[0] != "manifest"]
    serial = [item for item in order if item[0] == "manifest"]
    def account(result):
        nonlocal findings
        kind, how, code, found = result
        statuses[kind][str(code)] += 1
        for problem in found:
            problems[problem.split(" MB")[0] if "RSS" in problem else problem] += 1
        findings += bool(found)
    with concurrent.futures.ThreadPoolExecutor(args.jobs) as pool:
        for result in pool.map(lambda item: run_one(kinds, item[0], item[1], args.seed, out,
                                                    args.max_rss_mb, args.timeout), parallel):
            account(result)
    for item in serial:
        account(run_one(kinds, item[0], item[1], args.seed, out, args.max_rss_mb, args.timeout))
    summary = {"mutations": args.mutations, "seed": args.seed, "jobs": args.jobs,
               "seconds": round(time.monotonic() - start, 1), "build": str(args.build),
               "exit_statuses": {k: dict(v) for k, v in sorted(statuses.items())},
               "findings": findings, "problems": dict(problems)}
    (out / "summary.json").write_text(json.dumps(summary, indent=2) + "\n")
    print(json.dumps(summary, indent=2))
    return 1 if findings else 0


if __name__ == "__main__":
    sys.exit(main())
