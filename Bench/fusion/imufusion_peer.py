#!/usr/bin/env python3
"""imufusion (PyPI) on the benchmark input: one Python call per sample, rows pre-split into numpy
arrays (the fastest way to drive it from Python). Prints one JSON line."""
import json
import sys
import time

import numpy as np
import imufusion
from importlib.metadata import version

path, repeats = sys.argv[1], int(sys.argv[2]) if len(sys.argv) > 2 else 3
rows = np.fromfile(path, dtype=np.float32).reshape(-1, 7).astype(np.float64)
gyro = [r[1:4].copy() for r in rows]
accel = [r[4:7].copy() for r in rows]
best = float("inf")
for _ in range(repeats):
    ahrs = imufusion.Ahrs()
    ahrs.set_settings(imufusion.AhrsSettings(sample_rate=200, convention=imufusion.CONVENTION_NWU, gain=0.5,
                                             gyroscope_range=2000, acceleration_rejection=10, magnetic_rejection=0,
                                             rejection_timeout=5))
    update = ahrs.update_no_magnetometer
    t0 = time.perf_counter()
    for g, a in zip(gyro, accel):
        update(g, a)
    best = min(best, time.perf_counter() - t0)
q = ahrs.get_quaternion()
print(json.dumps({"name": "imufusion", "updates_per_s": len(rows) / best, "ns_per_update": 1e9 * best / len(rows),
                  "checksum": float(q.sum()), "version": version("imufusion")}))
