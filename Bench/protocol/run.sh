#!/usr/bin/env bash
# The paper's trial protocol for C8 over the whole SisFall development split: `detectord bench`
# (from text, then from its binary cache) against a straightforward numpy/scipy/pandas version of
# the same protocol, interleaved in ROUNDS rounds; each side's best round counts. Both print their
# SE and SP, so the two implementations are checked against each other too.
# Env: SHARED, PYTHON (with numpy, scipy, pandas), ROUNDS (default 2). Prints metric JSON lines.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
package="$(dirname "$(dirname "$here")")"
SHARED="${SHARED:-$(dirname "$package")/shared}"
PYTHON="${PYTHON:-python3}"
ROUNDS="${ROUNDS:-2}"
root="$package/.cache/datasets/sisfall"
[ -d "$root/SisFall_dataset" ] || { echo "protocol/run.sh: $root not found (make bench unpacks it)" >&2; exit 1; }
swift build -c release --package-path "$package" --product detectord >&2
bin="$(swift build -c release --package-path "$package" --show-bin-path)/detectord"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
for round in $(seq "$ROUNDS"); do
  rm -rf "$work/cache"
  for pass in text cache; do
    start=$(date +%s.%N)
    "$bin" bench --root "$root" --detector c8 --folds 10 --cache "$work/cache" --json "$work/ours.json" > /dev/null 2>&1
    end=$(date +%s.%N)
    "$PYTHON" - "$work/ours.json" "$pass" "$start" "$end" >> "$work/rows.jsonl" <<'PY'
import json, sys
r = json.load(open(sys.argv[1])); d = r["detectors"][0]
print(json.dumps({"name": "detectord", "pass": sys.argv[2], "seconds": float(sys.argv[4]) - float(sys.argv[3]),
                  "samples": d["samples"], "trials": r["trials"], "sensitivity": d["sensitivity"], "specificity": d["specificity"]}))
PY
  done
  "$PYTHON" "$here/paper_protocol.py" "$root" 10 >> "$work/rows.jsonl"
done
"$PYTHON" - "$work/rows.jsonl" <<'PY'
import json, sys
rows = [json.loads(l) for l in open(sys.argv[1]) if l.strip()]
peer = min((r for r in rows if r["name"] != "detectord"), key=lambda r: r["seconds"])
for p in ("text", "cache"):
    ours = min((r for r in rows if r.get("pass") == p), key=lambda r: r["seconds"])
    print(json.dumps({"name": f"sisfall_trial_protocol_c8_from_{p}_vs_numpy", "unit": "samples/s",
                      "ours": round(ours["samples"] / ours["seconds"]), "peer": peer["versions"],
                      "peer_value": round(peer["samples"] / peer["seconds"]),
                      "ratio": round(peer["seconds"] / ours["seconds"], 2),
                      "ours_seconds": round(ours["seconds"], 2), "peer_seconds": round(peer["seconds"], 2),
                      "ours_se_sp": [round(ours["sensitivity"], 4), round(ours["specificity"], 4)],
                      "peer_se_sp": [round(peer["sensitivity"], 4), round(peer["specificity"], 4)]}))
PY
