#!/usr/bin/python3
"""How evenly the CPU backend's cached pass divides among threads, modelled from a stream.

usage: bench/splat_cpu/band_balance.py STREAM THREADS [--height H --cache-radius RC]

The cached events are split into passes of 2^18 events (one batch a pass) and of 2^22 (the
backend's pass of 16 batches, tools/splat/cpu_backend.cpp); in each pass the work on each frame
row (2 ceil(s) + 1 pixels for every row of a cached event of support s <= Rc) is summed over the
backend's bands (16 rows while that leaves >= 8 bands a thread, else 8), and the bands are taken
busiest first by THREADS threads, each taking the next band when it is free. The modelled
efficiency is the passes' work over THREADS times the last thread's finish, summed over the
passes. A model: it leaves out the passes' fixed costs (waking the threads, the binning's
barriers), which the backend's timings measure.
"""
import argparse
import heapq
import struct

import numpy as np



def stream_chunks(path):
    data = np.memmap(path, dtype=np.uint8, mode="r")
    position = 256  # the file header
    while True:
        count = struct.unpack_from("<I", data, position + 4)[0]
        position += 32  # the chunk header
        if count == 0:
            return
        yield np.frombuffer(data, dtype=np.float64, count=count * 7, offset=position).reshape(count, 7)
        position += count * 56


def finish_time(works, threads):
    free = [0.0] * threads
    for work in sorted((w for w in works if w > 0), reverse=True):
        heapq.heappush(free, heapq.heappop(free) + work)
    return max(free)


def fixed_bands(row_work, threads):
    rows = 16 if len(row_work) // 16 >= 8 * threads else 8
    return [row_work[b:b + rows].sum() for b in range(0, len(row_work), rows)]


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("stream")
    parser.add_argument("threads", type=int)
    parser.add_argument("--height", type=int, default=1080)
    parser.add_argument("--cache-radius", type=float, default=16)
    args = parser.parse_args()
    height = args.height
    totals = {1 << 18: [0.0, 0.0], 1 << 22: [0.0, 0.0]}

    def add_pass(events, size):
        y, support = events[:, 1], events[:, 6]
        cached = support <= args.cache_radius
        y, support = y[cached], support[cached]
        top, bottom = np.floor(y - support), np.floor(y + support)
        inside = (bottom >= 0) & (top < height)
        first = np.maximum(0, top[inside]).astype(np.int64)
        last = np.minimum(height - 1, bottom[inside]).astype(np.int64)
        pixels = 2 * np.ceil(support[inside]) + 1
        steps = np.zeros(height + 1)
        np.add.at(steps, first, pixels)
        np.add.at(steps, last + 1, -pixels)
        row_work = np.cumsum(steps)[:height]
        totals[size][0] += row_work.sum()
        totals[size][1] += args.threads * finish_time(fixed_bands(row_work, args.threads), args.threads)

    for size in totals:
        pending, held = [], 0
        for chunk in stream_chunks(args.stream):
            pending.append(chunk)
            held += len(chunk)
            while held >= size:
                events = np.concatenate(pending)
                add_pass(events[:size], size)
                pending, held = [events[size:]], len(events) - size
        if held:
            add_pass(np.concatenate(pending), size)
    for size, (work, capacity) in totals.items():
        print(f"passes of {size} events: modelled efficiency {work / capacity:.3f} on {args.threads} threads")


if __name__ == "__main__":
    main()
