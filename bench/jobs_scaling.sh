#!/bin/sh
# Scaling of `adsem campaign --jobs N`: the same fixed amount of work (--trials, a fixed seed, no
# corpus, no config) at N = 1, 2, ... up to the cores this shell may use; prints trials per wall
# second and the speed-up over N = 1 (docs/performance.md "Using every core").
#
#   bench/jobs_scaling.sh [-a ADSEM] [-n TRIALS] [-j "N ..."] [-r REPEATS] [SELECTION...]
#
# SELECTION: calculi and campaign flags (default: `all`). Each N runs REPEATS times (default 3)
# and the best wall time counts: on a busy machine the best run is the one least disturbed.
set -u
adsem=build/release/cli/adsem
trials=200
repeats=3
cores=$(nproc)
jobs_list=$(seq 1 "$cores")
while getopts a:n:j:r: option; do
  case $option in
  a) adsem=$OPTARG ;;
  n) trials=$OPTARG ;;
  j) jobs_list=$OPTARG ;;
  r) repeats=$OPTARG ;;
  *) echo "usage: $0 [-a ADSEM] [-n TRIALS] [-j \"N ...\"] [-r REPEATS] [SELECTION...]" >&2; exit 2 ;;
  esac
done
shift $((OPTIND - 1))
[ $# -gt 0 ] || set -- all
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
printf '%-6s %10s %10s %12s %9s\n' jobs trials seconds trials/s speed-up
base=
for n in $jobs_list; do
  best=
  for r in $(seq 1 "$repeats"); do
    start=$(date +%s.%N)
    "$adsem" campaign "$@" --trials "$trials" --seed 1 --no-corpus --no-config --jobs "$n" \
      --json >"$tmp/out.json" 2>/dev/null
    end=$(date +%s.%N)
    best=$(awk -v s="$start" -v e="$end" -v b="$best" 'BEGIN { t = e - s; print (b == "" || t < b) ? t : b }')
  done
  total=$(python3 -c 'import json,sys; print(sum(p["trials"] for p in json.load(open(sys.argv[1]))["properties"]))' "$tmp/out.json")
  rate=$(awk -v t="$total" -v s="$best" 'BEGIN { print t / s }')
  [ -n "$base" ] || base=$rate
  printf '%-6s %10s %10.2f %12.0f %8.2fx\n' "$n" "$total" "$best" "$rate" \
    "$(awk -v r="$rate" -v b="$base" 'BEGIN { print r / b }')"
done
