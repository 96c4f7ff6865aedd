#!/usr/bin/env python3
"""Reference outputs of PyPI imufusion (x-io Fusion's C core) for detectord's AHRS tests.

Writes, into --out, for each case NAME (sisfall, synthetic):
  NAME_input.f32   float32 rows [dt_s, gx, gy, gz (deg/s), ax, ay, az (g)] in the body frame
  NAME_quat.f64    float64 rows [w, x, y, z] after each update
  NAME_earth.f64   float64 rows of earth acceleration (g) after each update
  NAME_flags.u8    uint8 rows [startup, overrange_recovery, acceleration_recovery, accelerometer_ignored]
and bias_input.f32 / bias_output.f64 for imufusion.Bias, plus meta.json with the settings.
The Swift side feeds the same float32 values to our filter (imufusion converts its float64 arguments
to float, and float32 -> float64 -> float is exact) and compares.
"""
import argparse
import json
import os
import sys

import numpy as np
import imufusion

SETTINGS = dict(sample_rate=200.0, gain=0.5, gyroscope_range=2000.0, acceleration_rejection=10.0,
                rejection_timeout=5.0)


def sisfall_rows(root, subject, limit):
    """Body-frame float32 samples from consecutive trials of one subject, `limit` rows in all."""
    folder = os.path.join(root, subject)
    names = sorted(n for n in os.listdir(folder) if n.endswith(".txt"))
    # Two long daily-living trials (walking, 100 s each), then falls (15 s each): the run holds both.
    names = [n for n in names if n[:3] in ("D01", "D02")] + [n for n in names if n.startswith("F")]
    chunks, total, used = [], 0, []
    for name in names:
        with open(os.path.join(folder, name)) as f:
            text = f.read().replace(";", "")
        raw = np.array([[int(v) for v in line.split(",")] for line in text.splitlines() if line.strip()],
                       dtype=np.int64)
        chunks.append(raw)
        used.append(name)
        total += len(raw)
        if total >= limit:
            break
    raw = np.concatenate(chunks)[:limit]
    acc = raw[:, 0:3].astype(np.float32) / np.float32(256.0)
    gyr = raw[:, 3:6].astype(np.float32) / np.float32(14.375)  # ITG-3200 datasheet sensitivity
    # AxisMapping.sisFall: body x = +sensor z, y = -sensor x, z = -sensor y.
    def body(v):
        return np.stack([v[:, 2], -v[:, 0], -v[:, 1]], axis=1).astype(np.float32)
    dt = np.full((len(raw), 1), 1.0 / SETTINGS["sample_rate"], dtype=np.float32)
    return np.hstack([dt, body(gyr), body(acc)]).astype(np.float32), used


def synthetic_rows(n, seed):
    """Smooth rotations, noise, impacts (accelerometer rejection), gyroscope clipping (overrange),
    missing accelerometer readings (zeros) and a jittery sample period."""
    rng = np.random.default_rng(seed)
    t = np.arange(n) / SETTINGS["sample_rate"]
    gyr = np.stack([120 * np.sin(2 * np.pi * 0.31 * t), 80 * np.sin(2 * np.pi * 0.17 * t + 1),
                    60 * np.cos(2 * np.pi * 0.23 * t)], axis=1) + rng.normal(0, 2, (n, 3))
    acc = np.stack([0.2 * np.sin(2 * np.pi * 0.5 * t), 0.3 * np.cos(2 * np.pi * 0.4 * t),
                    np.ones(n)], axis=1) + rng.normal(0, 0.02, (n, 3))
    for start in range(3000, n, 7000):  # impacts of 0.3 s, 3-8 g
        k = slice(start, start + 60)
        acc[k] += rng.normal(0, 3, (60, 3))
    for start in range(5000, n, 11000):  # gyroscope clipping
        gyr[start:start + 5, 1] = 1999.0
    acc[::997] = 0.0  # no accelerometer reading this update
    dt = (1.0 / SETTINGS["sample_rate"]) * (1 + rng.uniform(-0.05, 0.05, n))
    return np.hstack([dt[:, None], gyr, acc]).astype(np.float32)


def run_ahrs(rows, use_period):
    ahrs = imufusion.Ahrs()
    ahrs.set_settings(imufusion.AhrsSettings(convention=imufusion.CONVENTION_NWU, magnetic_rejection=0.0,
                                             **SETTINGS))
    n = len(rows)
    quat = np.empty((n, 4))
    earth = np.empty((n, 3))
    flags = np.empty((n, 4), dtype=np.uint8)
    data = rows.astype(np.float64)
    for i in range(n):
        if use_period:
            ahrs.set_sample_period(float(data[i, 0]))
        ahrs.update_no_magnetometer(data[i, 1:4], data[i, 4:7])
        quat[i] = ahrs.get_quaternion()
        earth[i] = ahrs.get_earth_acceleration()
        f = ahrs.get_flags()
        flags[i] = (f.startup, f.overrange_recovery, f.acceleration_recovery,
                    ahrs.get_internal_states().accelerometer_ignored)
    return quat, earth, flags


def write(out, name, rows, use_period):
    quat, earth, flags = run_ahrs(rows, use_period)
    rows.tofile(os.path.join(out, name + "_input.f32"))
    quat.tofile(os.path.join(out, name + "_quat.f64"))
    earth.tofile(os.path.join(out, name + "_earth.f64"))
    flags.tofile(os.path.join(out, name + "_flags.u8"))
    return {"rows": len(rows), "use_period": use_period,
            "accelerometer_ignored": int(flags[:, 3].sum()), "acceleration_recovery": int(flags[:, 2].sum()),
            "overrange_recovery": int(flags[:, 1].sum())}


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--out", required=True)
    p.add_argument("--sisfall", help="SisFall_dataset folder; the sisfall case is skipped without it")
    p.add_argument("--subject", default="SA01")
    p.add_argument("--rows", type=int, default=100_000)
    a = p.parse_args()
    os.makedirs(a.out, exist_ok=True)
    meta = {"settings": SETTINGS, "imufusion": getattr(imufusion, "__version__", "unknown"), "cases": {}}
    if a.sisfall:
        rows, used = sisfall_rows(a.sisfall, a.subject, a.rows)
        meta["cases"]["sisfall"] = write(a.out, "sisfall", rows, False)
        meta["cases"]["sisfall"]["files"] = used
    meta["cases"]["synthetic"] = write(a.out, "synthetic", synthetic_rows(a.rows, 7), True)

    # Bias: a still gyroscope with an offset, then motion, then still again.
    rng = np.random.default_rng(3)
    n = 6000
    g = np.tile(np.array([0.8, -1.2, 0.5]), (n, 1)) + rng.normal(0, 0.2, (n, 3))
    g[2000:2500] += 40.0
    g = g.astype(np.float32)
    bias = imufusion.Bias()
    bias.set_settings(imufusion.BiasSettings(sample_rate=100.0, stationary_threshold=3.0, stationary_period=3.0))
    out = np.empty((n, 6))
    for i in range(n):
        out[i, 0:3] = bias.update(g[i].astype(np.float64))
        out[i, 3:6] = bias.get_offset()
    g.tofile(os.path.join(a.out, "bias_input.f32"))
    out.tofile(os.path.join(a.out, "bias_output.f64"))
    with open(os.path.join(a.out, "meta.json"), "w") as f:
        json.dump(meta, f, indent=1)
    print(json.dumps(meta))


if __name__ == "__main__":
    sys.exit(main())
