"""The tree hash (docs/formats/manifest.md) of the file, buffer and stream APIs against an
independent implementation with Python's hashlib, for sizes around the 4 MiB block, with one
and several hash threads. Usage: tree_hash_hashlib.py PROBE"""
import hashlib
import random
import subprocess
import sys
import tempfile
from pathlib import Path

BLOCK = 4 << 20


def tree_sha256(data: bytes) -> str:
    digests = b"".join(hashlib.sha256(data[i:i + BLOCK]).digest()
                       for i in range(0, len(data), BLOCK))
    return hashlib.sha256(digests).hexdigest()


def main() -> int:
    probe = sys.argv[1]
    failures = 0
    checks = 0
    generator = random.Random(20261201)
    sizes = [0, 1, BLOCK - 1, BLOCK, BLOCK + 1, 3 * BLOCK + 17, 9 * BLOCK + 5]
    with tempfile.TemporaryDirectory(prefix="tree-hash-") as folder:
        for size in sizes:
            data = generator.randbytes(size)
            path = Path(folder) / f"data-{size}.bin"
            path.write_bytes(data)
            expected = tree_sha256(data)
            # The definition's special cases, stated independently of the loop above.
            if size == 0:
                assert expected == hashlib.sha256(b"").hexdigest()
            if size == 1:
                assert expected == hashlib.sha256(hashlib.sha256(data).digest()).hexdigest()
            for mode in ("file", "buffer", "stream"):
                for threads in (1, 3):
                    result = subprocess.run([probe, mode, str(threads), str(path)],
                                            capture_output=True, text=True)
                    got = result.stdout.strip()
                    checks += 1
                    if result.returncode != 0 or got != expected:
                        failures += 1
                        print(f"FAIL {mode} threads={threads} size={size}: got {got!r} "
                              f"(exit {result.returncode}, {result.stderr.strip()}), "
                              f"expected {expected}")
                    if mode == "stream":
                        sunk = path.with_name(path.name + ".sunk").read_bytes()
                        checks += 1
                        if sunk != data:
                            failures += 1
                            print(f"FAIL stream sink threads={threads} size={size}: "
                                  f"{len(sunk)} bytes passed on, not the {size} fed")
    print(f"{checks - failures} passed, {failures} failed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
