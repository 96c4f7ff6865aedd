#!/usr/bin/env python3
"""Reference outputs of scipy.signal and numpy for detectord's streaming feature kernels.

Input: a float32 signal (n x 3, g) written to --out/features_input.f32: SisFall body-frame
acceleration when --sisfall is given, else a synthetic walk-and-fall signal. Outputs (float64):
  butter_zero.f64    sosfilt(butter(4, fc, fs, 'sos'), x) per axis, zero initial state
  butter_steady.f64  the same with zi = sosfilt_zi(sos) * x[0]
  butter_sos.f64     the 2 x 6 sections
  stats.f64          rolling mean, population variance, std per axis (window W; partial windows at
                     the start cover the samples so far), n x 9
  extrema.f64        rolling max and min of |a| over W, n x 2
  jerk.f64           per-axis diff / dt (3), its norm, diff(|a|) / dt; zeros for the first row
  vvel.f64           lfilter([g0 dt], [1, -exp(-dt/tau)], z - 1) where z is the vertical axis
meta.json records fc, fs, W, tau.
"""
import argparse
import json
import os

import numpy as np
import scipy
import scipy.signal as sig
from numpy.lib.stride_tricks import sliding_window_view


def sisfall_signal(root, subject, limit):
    folder = os.path.join(root, subject)
    names = sorted(n for n in os.listdir(folder) if n.startswith("F") and n.endswith(".txt"))
    rows = []
    for name in names:
        with open(os.path.join(folder, name)) as f:
            for line in f:
                line = line.strip().rstrip(";")
                if line:
                    rows.append([int(v) for v in line.split(",")[:3]])
        if len(rows) >= limit:
            break
    raw = np.array(rows[:limit], dtype=np.float32) / np.float32(256.0)
    return np.stack([raw[:, 2], -raw[:, 0], -raw[:, 1]], axis=1).astype(np.float32)


def synthetic_signal(n):
    rng = np.random.default_rng(11)
    t = np.arange(n) / 200.0
    x = np.stack([0.2 * np.sin(2 * np.pi * 1.8 * t), 0.1 * np.cos(2 * np.pi * 0.9 * t),
                  1 + 0.25 * np.sin(2 * np.pi * 1.8 * t + 0.3)], axis=1) + rng.normal(0, 0.03, (n, 3))
    for s in range(2000, n, 5000):
        x[s:s + 30] += rng.normal(0, 2.5, (30, 3))
    return x.astype(np.float32)


def rolling(x, w, fn):
    """fn over the window ending at each sample; the first w-1 windows are partial."""
    out = np.empty(len(x))
    for i in range(min(w - 1, len(x))):
        out[i] = fn(x[: i + 1])
    if len(x) >= w:
        out[w - 1:] = fn(sliding_window_view(x, w), axis=-1) if fn is not None else None
    return out


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--out", required=True)
    p.add_argument("--sisfall")
    p.add_argument("--rows", type=int, default=30000)
    p.add_argument("--fc", type=float, default=5.0)
    p.add_argument("--fs", type=float, default=200.0)
    p.add_argument("--window", type=int, default=100)
    p.add_argument("--tau", type=float, default=1.0)
    a = p.parse_args()
    os.makedirs(a.out, exist_ok=True)
    x32 = sisfall_signal(a.sisfall, "SA01", a.rows) if a.sisfall else synthetic_signal(a.rows)
    x = x32.astype(np.float64)
    x32.tofile(os.path.join(a.out, "features_input.f32"))

    sos = sig.butter(4, a.fc, fs=a.fs, output="sos")
    sos.tofile(os.path.join(a.out, "butter_sos.f64"))
    sig.sosfilt(sos, x, axis=0).tofile(os.path.join(a.out, "butter_zero.f64"))
    zi = sig.sosfilt_zi(sos)
    steady = np.stack([sig.sosfilt(sos, x[:, c], zi=zi * x[0, c])[0] for c in range(3)], axis=1)
    steady.tofile(os.path.join(a.out, "butter_steady.f64"))

    w = a.window
    cols = []
    for fn in (np.mean, np.var, np.std):
        for c in range(3):
            cols.append(rolling(x[:, c], w, fn))
    np.stack(cols, axis=1).tofile(os.path.join(a.out, "stats.f64"))

    smv = np.sqrt((x32.astype(np.float32) ** 2).sum(axis=1, dtype=np.float32)).astype(np.float64)
    np.stack([rolling(smv, w, np.max), rolling(smv, w, np.min)], axis=1).tofile(os.path.join(a.out, "extrema.f64"))

    dt = 1.0 / a.fs
    d = np.vstack([np.zeros((1, 3)), np.diff(x, axis=0) / dt])
    ds = np.concatenate([[0.0], np.diff(smv) / dt])
    np.hstack([d, np.linalg.norm(d, axis=1)[:, None], ds[:, None]]).tofile(os.path.join(a.out, "jerk.f64"))

    vz = x[:, 2] - 1.0
    sig.lfilter([9.80665 * dt], [1.0, -np.exp(-dt / a.tau)], vz).tofile(os.path.join(a.out, "vvel.f64"))

    meta = {"rows": len(x), "fc": a.fc, "fs": a.fs, "window": w, "tau": a.tau, "scipy": scipy.__version__,
            "numpy": np.__version__, "source": "sisfall" if a.sisfall else "synthetic"}
    with open(os.path.join(a.out, "meta.json"), "w") as f:
        json.dump(meta, f)
    print(json.dumps(meta))


if __name__ == "__main__":
    main()
