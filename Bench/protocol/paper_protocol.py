"""The SisFall paper's trial protocol for C8, written the straightforward way with numpy, scipy and
pandas: the peer that `detectord bench --detector c8` is timed against (Bench/protocol/run.sh).

Per trial: ADXL345 in g, 4th-order Butterworth low-pass at 5 Hz (causal, started at the first
reading), 1 s windows ending at every sample, C8 = sqrt(var_x + var_z) of the sensor axes, the
trial's score its maximum. Then 10 folds by subject (sorted codes dealt round-robin), the AC-maximising
threshold on the training folds, every trial tested once. Prints one JSON line.
"""
import json
import os
import sys
import time

import numpy as np
import pandas as pd
import scipy
from scipy.signal import butter, lfilter, lfilter_zi

root, folds = sys.argv[1], int(sys.argv[2]) if len(sys.argv) > 2 else 10
start = time.perf_counter()
b, a = butter(4, 5 / 100)
zi = lfilter_zi(b, a)
scores, names, samples = [], [], 0
raw = os.path.join(root, "SisFall_dataset")
for subject in sorted(os.listdir(raw)):
    folder = os.path.join(raw, subject)
    if not os.path.isdir(folder):
        continue
    for name in sorted(os.listdir(folder)):
        if not name.endswith(".txt") or name.count("_") != 2:
            continue
        rows = pd.read_csv(os.path.join(folder, name), header=None, usecols=[0, 2], skipinitialspace=True).to_numpy(dtype=float) / 256
        samples += len(rows)
        filtered = np.column_stack([lfilter(b, a, rows[:, k], zi=zi * rows[0, k])[0] for k in range(2)])
        if len(filtered) < 200:
            continue
        std = pd.DataFrame(filtered).rolling(200).std(ddof=0).to_numpy()[199:]
        scores.append(np.sqrt((std ** 2).sum(axis=1)).max())
        names.append(name[:-4])
scores = np.array(scores)
falls = np.array([n.startswith("F") for n in names])
subjects = sorted({n.split("_")[1] for n in names})
fold_of = {s: i % folds for i, s in enumerate(subjects)}
fold = np.array([fold_of[n.split("_")[1]] for n in names])


def best_threshold(s, f):
    order = np.argsort(s)
    s, f = s[order], f[order]
    best, cut = -1.0, s[0]
    for i in range(len(s) + 1):
        if 0 < i < len(s) and s[i - 1] == s[i]:
            continue
        se = f[i:].sum() / f.sum()
        sp = (~f[:i]).sum() / (~f).sum()
        if (se + sp) / 2 > best:
            best = (se + sp) / 2
            cut = s[i] if i < len(s) else np.nextafter(s[-1], np.inf)
            if 0 < i < len(s):
                cut = (s[i - 1] + s[i]) / 2
    return cut


flagged = np.zeros(len(scores), dtype=bool)
for k in range(folds):
    train, test = fold != k, fold == k
    flagged[test] = scores[test] >= best_threshold(scores[train], falls[train])
se = (flagged & falls).sum() / falls.sum()
sp = (~flagged & ~falls).sum() / (~falls).sum()
seconds = time.perf_counter() - start
print(json.dumps({"name": "numpy+scipy+pandas", "versions": f"numpy {np.__version__}, scipy {scipy.__version__}, pandas {pd.__version__}",
                  "trials": len(scores), "samples": samples, "seconds": seconds, "sensitivity": se, "specificity": sp}))
