#!/usr/bin/env python3
"""Peers for parse-bench: numpy.loadtxt and pandas.read_csv on the same SisFall text file.

Usage: peers.py <file> [repeats]. Prints one JSON line per peer (best of N, page cache warm),
the same fields as parse-bench: mb_per_s counts 1e6 bytes of input per second.
"""
import json
import os
import sys
import time

path = sys.argv[1]
repeats = int(sys.argv[2]) if len(sys.argv) > 2 else 5
size = os.path.getsize(path)


def best_of(fn):
    best, rows = float("inf"), 0
    for _ in range(repeats):
        start = time.perf_counter()
        rows = fn()
        best = min(best, time.perf_counter() - start)
    return best, rows


def report(name, version, fn):
    best, rows = best_of(fn)
    print(json.dumps({"name": name, "version": version, "bytes": size, "rows": rows, "repeat": repeats,
                      "best_s": best, "mb_per_s": size / best / 1e6, "rows_per_s": rows / best}), flush=True)


import numpy  # noqa: E402

# ';' ends every SisFall row, so treating it as a comment start drops it.
report("numpy.loadtxt", numpy.__version__,
       lambda: numpy.loadtxt(path, delimiter=",", comments=";", dtype=numpy.int16).shape[0])

import pandas  # noqa: E402

report("pandas.read_csv", pandas.__version__,
       lambda: pandas.read_csv(path, header=None, comment=";").shape[0])
