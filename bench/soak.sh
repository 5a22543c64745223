#!/bin/sh
# Soak: `adsem campaign all` on the unmodified calculi over a fixed list of seeds. Any
# counterexample (or error) on code nobody changed is a false alarm, to be fixed at its cause
# (docs/reliability.md "Soak"). Exit 0 when every campaign held, 1 otherwise.
#
#   bench/soak.sh [-a ADSEM] [-s "SEED ..."] [-t SECONDS | -n TRIALS] [-o DIR]
#
# -t: the wall-clock budget of each campaign (default 300); -n instead: non-discarded trials per
# property (a fixed amount of work: the same trials on every machine). Reports go to
# DIR/seed-SEED (default soak-report/).
set -u
adsem=build/release/cli/adsem
seeds="1 2 3 4 5 6 7 8 9 10"
budget="--time 300"
out=soak-report
while getopts a:s:t:n:o: option; do
  case $option in
  a) adsem=$OPTARG ;;
  s) seeds=$OPTARG ;;
  t) budget="--time $OPTARG" ;;
  n) budget="--trials $OPTARG" ;;
  o) out=$OPTARG ;;
  *) echo "usage: $0 [-a ADSEM] [-s \"SEED ...\"] [-t SECONDS | -n TRIALS] [-o DIR]" >&2; exit 2 ;;
  esac
done
status=0
for seed in $seeds; do
  dir=$out/seed-$seed
  mkdir -p "$dir"
  # No corpus and no adsem.toml: the soak runs the calculi as shipped, from the seed alone.
  # shellcheck disable=SC2086
  "$adsem" campaign all --seed "$seed" $budget --no-corpus --no-config --report "$dir" \
    >"$dir/campaign.txt" 2>&1
  rc=$?
  echo "seed $seed ($budget): exit $rc; $(grep -c 'counterexample' "$dir/campaign.txt") lines \
mention a counterexample; report $dir"
  if [ $rc -ne 0 ]; then
    status=1
    grep -E 'fail|error|counterexample' "$dir/campaign.txt" | head -20
  fi
done
exit $status
