#!/usr/bin/env python3
"""Peers for parse-bench: numpy.loadtxt and pandas.read_csv on the same input.

Usage: peers.py <SisFall text file> [repeats]        the 20 MB SisFall case
       peers.py --csv <folder> [repeats]             every .csv in the folder (HAPT: header row,
                                                     eight columns), each file read in turn
Prints one JSON line per peer (best of N, page cache warm), the same fields as parse-bench:
mb_per_s counts 1e6 bytes of input per second.
"""
import json
import os
import sys
import time

csv_folder = sys.argv[2] if sys.argv[1] == "--csv" else None
args = sys.argv[3:] if csv_folder else sys.argv[2:]
repeats = int(args[0]) if args else 5
if csv_folder:
    paths = [os.path.join(csv_folder, n) for n in sorted(os.listdir(csv_folder)) if n.endswith(".csv")]
    case = "hapt-csv"
else:
    paths = [sys.argv[1]]
    case = "sisfall-20mb"
path = paths[0]
size = sum(os.path.getsize(p) for p in paths)


def best_of(fn):
    best, rows = float("inf"), 0
    for _ in range(repeats):
        start = time.perf_counter()
        rows = fn()
        best = min(best, time.perf_counter() - start)
    return best, rows


def report(name, version, fn):
    best, rows = best_of(fn)
    print(json.dumps({"name": name, "case": case, "version": version, "files": len(paths), "bytes": size, "rows": rows, "repeat": repeats,
                      "best_s": best, "mb_per_s": size / best / 1e6, "rows_per_s": rows / best}), flush=True)


import numpy  # noqa: E402
import pandas  # noqa: E402

if csv_folder:
    # Float64 arrays of all columns, the header row skipped (numpy) or read as names (pandas).
    report("numpy.loadtxt", numpy.__version__,
           lambda: sum(numpy.loadtxt(p, delimiter=",", skiprows=1).shape[0] for p in paths))
    report("pandas.read_csv", pandas.__version__,
           lambda: sum(pandas.read_csv(p).shape[0] for p in paths))
else:
    # ';' ends every SisFall row, so treating it as a comment start drops it.
    report("numpy.loadtxt", numpy.__version__,
           lambda: numpy.loadtxt(path, delimiter=",", comments=";", dtype=numpy.int16).shape[0])
    report("pandas.read_csv", pandas.__version__,
           lambda: pandas.read_csv(path, header=None, comment=";").shape[0])
