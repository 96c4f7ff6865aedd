#!/usr/bin/env bash
# Runs libFuzzer on each target named (all of them when none is), FUZZ_SECONDS each, from the
# seeds in Fuzz/corpus/TARGET; what it learns is kept in .cache/fuzz/TARGET, findings land in
# Fuzz/findings/TARGET. Prints a table and writes Bench/results/fuzz.json. Exit 1 on a finding.
# FUZZ_RUNS stops a target after that many executions (the issue's aim is 10^7) if FUZZ_SECONDS
# has not stopped it first. FUZZ_BIN: a detectord built by `make fuzz`. Targets run one after another; to use more cores,
# run this script once per target (each keeps its own corpus and log; the last writes the JSON).
set -euo pipefail
cd "$(dirname "$0")/.."
: "${FUZZ_BIN:?set FUZZ_BIN to a detectord built by make fuzz}"
FUZZ_SECONDS=${FUZZ_SECONDS:-60}
FUZZ_RUNS=${FUZZ_RUNS:--1}
targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=(sisfall recording csv drill configuration dataset-description model modem att advertising api-body)
mkdir -p .cache/fuzz Bench/results
# Crashes go to libFuzzer and ASan, not to Swift's interactive backtracer (which waits 30 s).
# malloc_context_size=0: ASan records no stack per allocation (a fifth of the modem target's
# time); a finding's report then lacks where its memory was allocated, which running the saved
# input again with ASAN_OPTIONS=abort_on_error=1 shows.
export SWIFT_BACKTRACE=enable=no
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=0:abort_on_error=1:symbolize=1:malloc_context_size=0}
[[ $ASAN_OPTIONS == *detect_leaks=0* ]] && detect_leaks=0 || detect_leaks=1
status=0
rows=()
for target in "${targets[@]}"; do
  work=.cache/fuzz/$target findings=Fuzz/findings/$target log=.cache/fuzz/$target.log
  mkdir -p "$work" "$findings"
  seeds=(Fuzz/corpus/$target)
  [ -d Fuzz/crashes/$target ] && seeds+=(Fuzz/crashes/$target)
  # -timeout: an input that takes 10 s is a hang; -rss_limit_mb: one that takes 2 GiB a leak.
  # libFuzzer's -detect_leaks follows ASAN_OPTIONS: otherwise it runs every input whose mallocs
  # and frees differ a second time to look for a leak (TOMLKit leaks on each rejected text, and
  # Swift caches allocate once), which halved the TOML targets' speed for a check that is off.
  if ! "$FUZZ_BIN" fuzz "$target" "$work" "${seeds[@]}" -max_total_time="$FUZZ_SECONDS" -runs="$FUZZ_RUNS" -timeout=10 \
      -detect_leaks="$detect_leaks" -rss_limit_mb=2048 -max_len=65536 -print_final_stats=1 -artifact_prefix="$findings/" >"$log" 2>&1; then
    status=1
    echo "fuzz: $target: a finding, see $log and $findings/" >&2
  fi
  runs=$(awk '/stat::number_of_executed_units/ {print $2}' "$log" | tail -1)
  rate=$(awk '/stat::average_exec_per_sec/ {print $2}' "$log" | tail -1)
  corpus=$(find "$work" -type f | wc -l)
  found=$(find "$findings" -type f | wc -l)
  printf '%-20s %12s runs %8s exec/s %6s corpus %3s findings\n' "$target" "${runs:-?}" "${rate:-?}" "$corpus" "$found"
  rows+=("{\"target\": \"$target\", \"seconds\": $FUZZ_SECONDS, \"runs\": ${runs:-null}, \"exec_per_s\": ${rate:-null}, \"corpus\": $corpus, \"findings\": $found}")
done
{ echo "{\"fuzz\": ["; (IFS=$'\n'; echo "${rows[*]}" | sed '$!s/$/,/'); echo "]}"; } > Bench/results/fuzz.json
exit $status
