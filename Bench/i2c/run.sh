#!/usr/bin/env bash
# The I2C driver path on the simulated bus (`detectord bench --i2c all`): bus transfers, wire bytes
# and CPU per second of data at 200 and 1000 Hz, FIFO drains against one sample at a time on
# data-ready. Transfer counts are exact (simulated time), so they are also what CI checks; CPU is
# reported as the ratio polled / FIFO from the same run. Prints one metric object per line.
set -euo pipefail
cd "$(dirname "$0")/../.."
BIN="$(swift build -c release --show-bin-path)/detectord"
json="$(mktemp)"
trap 'rm -f "$json"' EXIT
"$BIN" bench --i2c all --i2c-seconds 30 --json "$json" >&2
python3 - "$json" <<'PY'
import json, sys
rows = json.load(open(sys.argv[1]))
by = {}
for r in rows:
    by.setdefault((r["chip"], r["rate_hz"]), {})[r["mode"]] = r
for (chip, rate), modes in by.items():
    fifo, polled = modes.get("fifo"), modes.get("polled")
    if not fifo or not polled:
        continue
    key = chip.lower().replace(" ", "").replace("+", "_").replace("-", "")
    print(json.dumps({"name": f"i2c_transfers_per_s_{key}_{int(rate)}hz", "unit": "transfers/s", "ours": round(fifo["transactions_per_second"], 1),
                      "peer": "the same driver polling data-ready", "peer_value": round(polled["transactions_per_second"], 1),
                      "ratio": round(polled["transactions_per_second"] / fifo["transactions_per_second"], 2),
                      "wire_bytes_per_s": round(fifo["wire_bytes_per_second"]), "peer_wire_bytes_per_s": round(polled["wire_bytes_per_second"])}))
    print(json.dumps({"name": f"i2c_cpu_us_per_s_{key}_{int(rate)}hz", "unit": "µs CPU per s of data", "ours": round(fifo["cpu_microseconds_per_second"], 1),
                      "peer": "the same driver polling data-ready", "peer_value": round(polled["cpu_microseconds_per_second"], 1),
                      "ratio": round(polled["cpu_microseconds_per_second"] / fifo["cpu_microseconds_per_second"], 2)}))
PY
