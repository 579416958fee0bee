#!/usr/bin/env python3
"""One line per finding of a fuzz/run_all.sh run: harness, reproducer, what was reported
(exception, sanitizer or libFuzzer error) and the top frames outside the sanitizer, libFuzzer,
the C++ runtime and the allocator, tab-separated. With DEST, copies each reproducer to
DEST/<harness>/.

usage: bench/fuzz/triage.py RUNS_DIR [DEST]
"""
import pathlib
import re
import shutil
import sys

NOISE = re.compile(r"__sanitizer|fuzzer::|libFuzzer|__cxa|std::terminate|__gnu_cxx|abort|raise|"
                   r"malloc|calloc|realloc|operator new|libc\.so|__interceptor|pthread_kill")


def main():
    runs = pathlib.Path(sys.argv[1])
    dest = pathlib.Path(sys.argv[2]) if len(sys.argv) > 2 else None
    for log in sorted(runs.glob("*.log")):
        chunks = re.split(r"Test unit written to (\S+)\n", log.read_text(errors="replace"))
        for i in range(1, len(chunks), 2):
            body, unit = chunks[i - 1], pathlib.Path(chunks[i])
            start = max(body.rfind(marker) for marker in
                        ("==ERROR", "terminate called", "ERROR: libFuzzer", "runtime error"))
            report = body[max(0, start - 300):]
            what = re.findall(r"(terminate called after throwing an instance of '[^']+'|what\(\): "
                              r"[^\n]{0,140}|ERROR: [^\n]{0,160}|runtime error: [^\n]{0,160})", report)
            frames = [re.sub(r" \(/.*|\s+/.*", "", f)[:150]
                      for f in re.findall(r"#\d+ 0x[0-9a-f]+ in ([^\n]+)", report) if not NOISE.search(f)]
            if dest and unit.exists():
                (dest / log.stem).mkdir(parents=True, exist_ok=True)
                shutil.copy(unit, dest / log.stem / unit.name)
            print("\t".join([log.stem, unit.name, " | ".join(dict.fromkeys(what))[:300],
                             " <- ".join(frames[:3])]))


if __name__ == "__main__":
    main()
