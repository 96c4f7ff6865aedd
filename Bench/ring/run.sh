#!/usr/bin/env bash
# Builds and runs the ring benchmark: cfusion_ring against boost::lockfree::spsc_queue (Debian's
# libboost-dev), same process, same run. Prints one JSON line per metric on stdout (name, unit,
# ours, peer, peer_value, ratio); per-run figures go to stderr.
# Environment: CXX (default g++), CC (default gcc, for the ring's set-up functions), RING_BENCH_RUNS, RING_BENCH_SINGLE_ITEMS, RING_BENCH_BATCH_ITEMS.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../.." && pwd)"
out="$root/Bench/.build/ring"
cxx="${CXX:-g++}"
cc="${CC:-gcc}"

if [ ! -f /usr/include/boost/lockfree/spsc_queue.hpp ]; then
    echo "ring bench: boost::lockfree not found; install it with: apt-get install libboost-dev" >&2
    exit 1
fi

mkdir -p "$out"
# -O2 as the issue asks; -DNDEBUG is checked by the source. No -march=native: the figures should
# describe code that also runs on the Pi's baseline.
"$cc" -std=c11 -O2 -DNDEBUG -Wall -Wextra -I "$root/Sources/CFusion/include" \
    -c "$root/Sources/CFusion/cfusion_ring.c" -o "$out/cfusion_ring.o"
"$cxx" -std=c++17 -O2 -DNDEBUG -pthread -Wall -Wextra \
    -I "$root/Sources/CFusion/include" \
    "$here/ring_bench.cpp" "$out/cfusion_ring.o" -o "$out/ring_bench"

exec "$out/ring_bench"
