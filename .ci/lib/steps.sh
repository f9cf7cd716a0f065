# Step runner of .ci/run, sourced by it (and by test/ci/steps.test.ts). Needs WORK (a temporary directory).
#
# `step "name" command…` prints `==> name`, runs the command in a subshell with errexit on, prints how long
# it took, and stops the run at the first failure (CI_KEEP_GOING=1 runs every step and fails at the end).
# A command may qualify its success by writing one word to "$CI_STEP_NOTE" (e.g. `unavailable` when the
# audit service gave no report): the summary shows that word instead of `ok`.
# `summary` prints the table of steps, seconds and results.

STEP_NAMES=() STEP_SECONDS=() STEP_RESULTS=() FAILED=0
RUN_START=$SECONDS

summary() {
  local i total=$((SECONDS - RUN_START))
  printf '\n%-44s %8s  %s\n' 'step' 'seconds' 'result'
  printf '%-44s %8s  %s\n' '--------------------------------------------' '--------' '------'
  for i in "${!STEP_NAMES[@]}"; do
    printf '%-44s %8s  %s\n' "${STEP_NAMES[$i]}" "${STEP_SECONDS[$i]}" "${STEP_RESULTS[$i]}"
  done
  printf '%-44s %8s  %s\n' 'total' "$total" "$([ "$FAILED" -eq 0 ] && echo ok || echo FAILED)"
}

# Each step runs in a subshell with errexit on, so a failing command inside a
# helper function fails the step (bash ignores `set -e` in `cmd || …` contexts).
# Steps therefore share state through files in $WORK, not through variables.
step() {
  local name=$1 start=$SECONDS status elapsed result
  shift
  echo
  echo "==> $name"
  export CI_STEP_NOTE="$WORK/.step-note"
  rm -f "$CI_STEP_NOTE"
  set +e
  (set -euo pipefail; "$@") </dev/null
  status=$?
  set -e
  elapsed=$((SECONDS - start))
  STEP_NAMES+=("$name") STEP_SECONDS+=("$elapsed")
  if [ "$status" -eq 0 ]; then
    result=ok
    # Only the first word of the note counts, so a stray write cannot garble the table.
    [ ! -s "$CI_STEP_NOTE" ] || result="$(head -c 40 "$CI_STEP_NOTE" | tr -cs 'A-Za-z0-9_-' ' ' | awk '{print $1}')"
    STEP_RESULTS+=("${result:-ok}")
    echo "<== $name: ${result:-ok} in ${elapsed}s"
  else
    STEP_RESULTS+=("FAILED (exit $status)") FAILED=1
    echo "<== $name: FAILED (exit $status) after ${elapsed}s" >&2
    [ "${CI_KEEP_GOING:-0}" = 1 ] || exit "$status"
  fi
  rm -f "$CI_STEP_NOTE"
}

# A step that only applies once the files it needs exist (they are being written).
skip() {
  STEP_NAMES+=("$1") STEP_SECONDS+=(0) STEP_RESULTS+=("skipped: $2")
  echo
  echo "==> $1: skipped ($2)"
}
