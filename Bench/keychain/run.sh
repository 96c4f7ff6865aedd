#!/usr/bin/env bash
# The keychain path (`detectord bench --keychain 30`): a fake iTag on a socket pair pressed through
# the daemon's ATT client, press classifier, keychain and workflow services on a real SQLite
# store. Press-to-decision p50/p99 with a single press decided at once (the default) and after
# the pattern window; reconnect time after a drop; the same presses at the event level (no ATT)
# as the peer. Prints one metric object per line.
set -euo pipefail
cd "$(dirname "$0")/../.."
BIN="$(swift build -c release --show-bin-path)/detectord"
json="$(mktemp)"
trap 'rm -f "$json"' EXIT
"$BIN" bench --keychain 30 --json "$json" >&2
python3 - "$json" <<'PY'
import json, sys
rows = json.load(open(sys.argv[1]))
peer = rows[-1]
names = {"ATT, single decided at once": "keychain_press_to_decision_ms", "reconnect after a drop (connect, discovery, subscribe)": "keychain_reconnect_ms"}
for r in rows[:-1]:
    name = names.get(r["path"], "keychain_press_to_decision_after_window_ms")
    out = {"name": name, "unit": "ms (lower is better)", "ours": round(r["p50_microseconds"] / 1000, 3),
           "p99": round(r["p99_microseconds"] / 1000, 3), "count": r["count"]}
    if name == "keychain_press_to_decision_ms":
        out.update({"peer": "the same presses at the event level, no ATT", "peer_value": round(peer["p50_microseconds"] / 1000, 3),
                    "ratio": round(peer["p50_microseconds"] / r["p50_microseconds"], 2)})
    print(json.dumps(out))
PY
