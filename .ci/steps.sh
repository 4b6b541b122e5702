# Sourced by .ci/run: `step NAME COMMAND…` runs one step and adds the counts of its closing line
# `tests: N passed, M failed`; `finish` prints the sum as the last line and exits non-zero when
# anything failed.
passed=0
failed=0
finish() {
  echo "tests: $passed passed, $failed failed"
  [ "$failed" -eq 0 ]
  exit
}

# Runs one step ($1 names it, the rest is the command), shows its output with its closing line
# renamed, and adds that line's counts; a step that prints none counts as one failed test.
step() {
  local name=$1 log line status
  shift
  log=$(mktemp)
  "$@" 2>&1 | tee "$log" | sed -E "s/^(tests: [0-9]+ passed, [0-9]+ failed)$/ci: $name: \\1/"
  status=${PIPESTATUS[0]}
  line=$(grep -E '^tests: [0-9]+ passed, [0-9]+ failed$' "$log" | tail -n 1)
  rm -f "$log"
  if [ -z "$line" ]; then
    echo "ci: $name: exited with $status without a closing tests line"
    failed=$((failed + 1))
    return
  fi
  local p f
  p=$(sed -E 's/^tests: ([0-9]+) passed.*/\1/' <<<"$line")
  f=$(sed -E 's/.* ([0-9]+) failed$/\1/' <<<"$line")
  passed=$((passed + p))
  failed=$((failed + f))
  if [ "$status" -ne 0 ] && [ "$f" -eq 0 ]; then
    echo "ci: $name: exited with $status although no test failed"
    failed=$((failed + 1))
  fi
}
