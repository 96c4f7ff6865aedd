#!/usr/bin/env bash
# The live daemon's footprint at 200 and 1000 Hz, and the dispatch time of an alert (footprint.py).
# Needs the release build; takes about three minutes, mostly real time the replays must take.
set -euo pipefail
cd "$(dirname "$0")/../.."
BIN="$(swift build -c release --show-bin-path)/detectord"
python3 Bench/daemon/footprint.py "$BIN"
