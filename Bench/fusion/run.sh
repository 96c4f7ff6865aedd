#!/usr/bin/env bash
# AHRS benchmarks: one stream and 16-lane SIMD blocks, against x-io Fusion's C (built here from
# the imufusion 1.3.3 sdist with the same flags) and PyPI imufusion, all in this one run; plus
# callgrind instruction counts per update (deterministic, for CI gates).
#
# Prints one JSON object per metric: name, unit, ours, peer, peer_value, ratio (higher is better:
# ours/peer for rates, peer/ours for instruction counts), detail.
# Env: FUSION_PYTHON (a python with imufusion, numpy and setuptools >= 77; default
#      Bench/.venv-oracle/bin/python),
#      FUSION_CC (default: the Swift toolchain's clang, the compiler SwiftPM uses for CFusion),
#      QUICK=1 for fewer repetitions; CHECK=1 to fail (exit 1) when the instruction count exceeds
#      thresholds.json (the only figure CI should gate on: it does not depend on machine load).
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
build="$here/.build"
# Its own variable: Bench/run.sh exports PYTHON for a venv without imufusion.
PYTHON="${FUSION_PYTHON:-$root/Bench/.venv-oracle/bin/python}"
# Clang only (ext_vector_type); its own variable so a global CC=gcc does not leak in.
CC="${FUSION_CC:-$(dirname "$(readlink -f "$(command -v swift)")")/clang}"
mkdir -p "$build"

# SwiftPM's release flags for C targets (swift build -c release -v): -O2 -fPIC -g
# -fno-omit-frame-pointer. No -march: x86-64 baseline, the lanes pick AVX2/AVX-512 at run time.
FLAGS=(-O2 -fPIC -g -fno-omit-frame-pointer -DNDEBUG)
ours_src=("$root/Sources/CFusion/cfusion_ahrs.c" "$root/Sources/CFusion/cfusion_ahrs_lanes.c")
"$CC" "${FLAGS[@]}" -I "$root/Sources/CFusion/include" "$here/bench_fusion.c" "${ours_src[@]}" -lm -o "$build/bench_fusion"
# valgrind 3.19 cannot read clang 21's DWARF 5; the code is identical with DWARF 4.
"$CC" "${FLAGS[@]}" -gdwarf-4 -I "$root/Sources/CFusion/include" "$here/bench_fusion.c" "${ours_src[@]}" -lm -o "$build/bench_fusion_dw4"

# The peer's C sources, through pip (needs setuptools >= 77 in PYTHON's environment to read the
# sdist's metadata; --no-build-isolation avoids fetching build dependencies).
if [ ! -f "$build/imufusion-1.3.3/Fusion/FusionAhrs.c" ]; then
    "$PYTHON" -m pip download -q --no-deps --no-binary :all: --no-build-isolation imufusion==1.3.3 -d "$build" >&2
    tar -xzf "$build/imufusion-1.3.3.tar.gz" -C "$build"
fi
fusion="$build/imufusion-1.3.3/Fusion"
for variant in normal fast; do
    def=(); [ "$variant" = normal ] && def=(-DFUSION_USE_NORMAL_SQRT)  # imufusion builds "normal"
    "$CC" "${FLAGS[@]}" -gdwarf-4 "${def[@]}" -I "$fusion" -I "$here" "$here/peer_fusion.c" "$fusion"/FusionAhrs.c "$fusion"/FusionConvention.c -lm -o "$build/peer_fusion_$variant"
done

n=1000000; reps=7; rounds=3
[ "${QUICK:-0}" = 1 ] && { n=300000; reps=3; rounds=2; }
"$build/bench_fusion" write-input "$build/input.f32" 200000

rate() { sed -E 's/.*"updates_per_s": ([0-9.e+]+).*/\1/'; }
best() { sort -g | tail -1; }
ours=(); batch=(); normal=(); fast=()
for _ in $(seq $rounds); do   # interleaved, best of each: the machine is shared and noisy
    ours+=("$("$build/bench_fusion" one $n $reps | rate)")
    batch+=("$("$build/bench_fusion" batch $n $reps | rate)")
    normal+=("$("$build/peer_fusion_normal" one $n $reps | rate)")
    fast+=("$("$build/peer_fusion_fast" one $n $reps | rate)")
done
o=$(printf '%s\n' "${ours[@]}" | best); ob=$(printf '%s\n' "${batch[@]}" | best); pn=$(printf '%s\n' "${normal[@]}" | best); pf=$(printf '%s\n' "${fast[@]}" | best)
py=$("$PYTHON" "$here/imufusion_peer.py" "$build/input.f32" 3 | rate)

lanes=()
for k in 1 2 3; do
    line=$("$build/bench_fusion" lanes $k 8 4096 $reps) || continue  # a kernel this CPU lacks
    lanes+=("$line")
done
lanes+=("$("$build/bench_fusion" streams 8 4096 $reps)")

count() { # instructions of one function (inclusive) per update, from callgrind
    local exe=$1 fn=$2 out="$build/callgrind.$3.out"
    valgrind --tool=callgrind --callgrind-out-file="$out" "$exe" count 100000 >/dev/null 2>&1
    callgrind_annotate --inclusive=yes "$out" 2>/dev/null | grep -E "[: ]$fn( |$)" | head -1 | awk '{gsub(",", "", $1); printf "%.1f", $1 / 100000}'
}
icount=""; pcount=""
if command -v valgrind >/dev/null; then
    icount=$(count "$build/bench_fusion_dw4" cfusion_ahrs_update ours)
    pcount=$(count "$build/peer_fusion_normal" FusionAhrsUpdateNoMagnetometer peer)
fi

"$PYTHON" - "$o" "$pn" "$pf" "$py" "$icount" "$pcount" "$n" "$ob" "${lanes[@]}" <<'PY'
import json, sys
o, pn, pf, py, ic, pc, n, ob = sys.argv[1:9]
lanes = [json.loads(l) for l in sys.argv[9:]]
o, pn, pf, py, ob = float(o), float(pn), float(pf), float(py), float(ob)
def emit(name, unit, ours, peer, peer_value, ratio, detail):
    print(json.dumps({"name": name, "unit": unit, "ours": ours, "peer": peer, "peer_value": peer_value,
                      "ratio": round(ratio, 3), "detail": detail}))
M = 1e6
emit("ahrs_one_stream", "M updates/s", round(o / M, 2), "x-io Fusion C 1.3.3, FUSION_USE_NORMAL_SQRT (as imufusion)",
     round(pn / M, 2), o / pn, f"best of interleaved runs, {n} updates, clang -O2 (SwiftPM release flags), x86-64 baseline")
emit("ahrs_one_stream_batch", "M updates/s", round(ob / M, 2), "x-io Fusion C 1.3.3, FUSION_USE_NORMAL_SQRT (as imufusion)",
     round(pn / M, 2), ob / pn, "cfusion_ahrs_update_samples over a cfusion_sample array (the daemon's span path)")
emit("ahrs_one_stream_vs_fast_inverse_sqrt", "M updates/s", round(o / M, 2), "x-io Fusion C 1.3.3, default fast inverse sqrt",
     round(pf / M, 2), o / pf, "same run")
emit("ahrs_one_stream_vs_imufusion", "M updates/s", round(o / M, 2), "imufusion 1.3.3 (Python, one call per sample)",
     round(py / M, 3), o / py, "200000 updates, rows pre-split into numpy arrays")
for l in lanes:
    streams = l["name"] == "ahrs_lanes_streams"
    emit("ahrs_16_lanes_from_recordings" if streams else f"ahrs_16_lanes_{l['kernel']}", "M updates/s",
         round(l["updates_per_s"] / M, 1), "ours, one stream (same run)", round(o / M, 2), l["updates_per_s"] / o,
         "8 blocks x 16 streams x 4096 updates, aggregate; " +
         ("from per-recording sample arrays, transposition included" if streams else "input already in SoA lanes"))
if ic and pc:
    emit("ahrs_one_stream_instructions", "instructions/update", float(ic), "x-io Fusion C 1.3.3 (normal sqrt)",
         float(pc), float(pc) / float(ic), "callgrind, 100000 updates, inclusive count of the update function; deterministic")
PY

if [ "${CHECK:-0}" = 1 ]; then
    limit=$("$PYTHON" -c 'import json,sys; print(json.load(open(sys.argv[1]))["ahrs_one_stream_instructions"])' "$here/thresholds.json")
    [ -n "$icount" ] || { echo "CHECK: no instruction count (valgrind missing?)" >&2; exit 1; }
    "$PYTHON" -c 'import sys; sys.exit(0 if float(sys.argv[1]) <= float(sys.argv[2]) else 1)' "$icount" "$limit" \
        || { echo "CHECK: $icount instructions/update > $limit (thresholds.json)" >&2; exit 1; }
fi
