#!/usr/bin/env python3
"""The SisFall paper's C8 (Sucerquia et al. 2017) as a detectord external detector.

Protocol 1 of docs/external-detectors.md. C8 is the standard deviation, over 1 s windows, of the
acceleration low-passed at 5 Hz (4th-order Butterworth) in the horizontal plane: sqrt(var x +
var y). It is sent as levels, 20 values a second; detectord finds the upward crossings of the
threshold and fits that threshold on the grid below, exactly as for its built-in c8.

    detectord bench --protocol online --root DIR --detector external \\
        --external-command 'python3 Examples/detectors/c8.py'
"""
import json
import sys

import numpy as np
from numpy.lib.stride_tricks import sliding_window_view
from scipy.signal import butter, sosfilt, sosfilt_zi


def c8(t, a, rate):
    """C8 at every (rate // 20)-th sample once a whole window is in, with those samples' times."""
    window, stride = max(1, round(rate)), max(1, int(rate) // 20)
    if len(a) < window:
        return [], []
    sos = butter(4, 5, fs=rate, output="sos")
    x = a.astype(np.float64)  # detectord filters float32 samples in double...
    zi = sosfilt_zi(sos)[:, :, None] * x[0]  # ...starting as if the first reading had lasted forever
    f = sosfilt(sos, x, axis=0, zi=zi)[0].astype(np.float32)  # ...and keeps float32 output
    idx = np.arange(window - 1, len(f))
    idx = idx[idx % stride == 0]
    windows = sliding_window_view(f[:, :2].astype(np.float64), window, axis=0)[idx - window + 1]
    var = windows.var(axis=2).astype(np.float32)  # population variance, per axis, as float32
    return [t[i] for i in idx], np.sqrt(var[:, 0] + var[:, 1])


def send(message):
    sys.stdout.write(json.dumps(message) + "\n")


send({"type": "hello", "protocol": 1, "name": "c8.py", "output": "levels",
      "thresholds": {"from": 0.2, "to": 1.5, "step": 0.005}})
sys.stdout.flush()
for line in sys.stdin:
    m = json.loads(line)
    if m["type"] == "recording":
        rate, t, a = m["rate_hz"], [], []
    elif m["type"] == "sample":
        t.append(m["t"])
        a.append(m["a"])
    elif m["type"] == "samples":
        t += m["t"]
        a += m["a"]
    elif m["type"] == "end":
        times, levels = c8(t, np.asarray(a, dtype=np.float32).reshape(-1, 3), rate)
        send({"type": "levels", "t": times, "score": [float(v) for v in levels]})
        send({"type": "done"})
        sys.stdout.flush()
