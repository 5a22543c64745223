#!/usr/bin/env bash
# Runs libFuzzer targets of a fuzz build (cmake --preset fuzz) from their seed corpora.
#   fuzz/run.sh [-t SECONDS] [-n RUNS] [-s SEED] [TARGET...]   (default: every target, 10 s each)
# TARGET is a name under fuzz/ without .cpp (parse_simple_diff, eval_pullback, read_reports...).
# -t and -n may be combined: a target stops at whichever comes first. -s fixes libFuzzer's seed
# (default: a new one each run). `make fuzz-ci` uses -s and -n with an empty work corpus, so CI
# replays a fixed sequence of inputs (on a slower machine -t may cut it short: a prefix of it)
# and the gate cannot turn red by luck; random exploration is `fuzz/run.sh` without -s.
# New corpus entries go to $FUZZ_WORK/corpus/TARGET (default build/fuzz/work), never into the
# seed corpus; a crash leaves its input in $FUZZ_WORK/artifacts/ and makes the script fail.
set -euo pipefail
cd "$(dirname "$0")/.."
build=${FUZZ_BUILD:-build/fuzz}
work=${FUZZ_WORK:-$build/work}
limit=()
while getopts "t:n:s:" opt; do
  case $opt in
  t) limit+=(-max_total_time="$OPTARG") ;;
  n) limit+=(-runs="$OPTARG") ;;
  s) limit+=(-seed="$OPTARG") ;;
  *) exit 2 ;;
  esac
done
[[ " ${limit[*]} " == *-max_total_time=* || " ${limit[*]} " == *-runs=* ]] ||
  limit+=(-max_total_time=10)
shift $((OPTIND - 1))
targets=("$@")
if [ ${#targets[@]} -eq 0 ]; then
  for f in fuzz/*.cpp; do targets+=("$(basename "$f" .cpp)"); done
fi
# UB aborts (the build uses -fno-sanitize-recover); LeakSanitizer stays on (a shared_ptr cycle in
# a term or environment is a finding too).
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1}
status=0
for t in "${targets[@]}"; do
  mkdir -p "$work/corpus/$t" "$work/artifacts"
  log="$work/$t.log"
  if "$build/fuzz/fuzz_$t" "$work/corpus/$t" "fuzz/corpus/$t" "${limit[@]}" -timeout=10 \
    -max_len=4096 -rss_limit_mb=2048 -print_final_stats=1 \
    -artifact_prefix="$work/artifacts/$t-" >"$log" 2>&1; then
    echo "$t: ok, $(grep -m1 'stat::number_of_executed_units' "$log" | awk '{print $2}') runs" \
      "in $(grep -m1 'Done' "$log" | sed 's/.* in //')"
  else
    echo "$t: FAILED (log: $log)"
    grep -E 'ERROR|SUMMARY|invariant|Test unit written' "$log" | head -20 || true
    status=1
  fi
done
exit $status
