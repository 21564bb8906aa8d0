#!/usr/bin/env bash
# The real terraform for every subcommand it runs offline (state list/rm/pull, version, get, ...); only
# `import` and `plan`, which need the provider, are stubbed:
#   import ADDRESS ID   adds a root-module resource entry to ./terraform.tfstate (stub-import.mjs)
#   plan ...            exits with $TF_PLAN_EXIT (default 0: no changes); with TF_PLAN_DETAILED_OUT=FILE,
#                       `plan -detailed-exitcode` prints FILE and exits 2 (a plan with changes)
#   state rm ...        with TF_RM_NOOP=1 (not -dry-run): succeeds without removing anything
# Kill hook for the kill-at-every-step tests: with TF_COUNTER=FILE each invocation counts itself, and the
# invocation numbered $TF_KILL_AT sends SIGKILL to its whole process group, before running
# (TF_KILL_WHEN=before, the default) or after (TF_KILL_WHEN=after).
set -u
REAL="${REAL_TERRAFORM:-/usr/local/bin/terraform}"
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
n=0
if [ -n "${TF_COUNTER:-}" ]; then
  n=$(($(cat "$TF_COUNTER" 2>/dev/null || echo 0) + 1))
  echo "$n" >"$TF_COUNTER"
fi
if [ -n "${TF_ARGV_LOG:-}" ]; then printf '%s\n' "$*" >>"$TF_ARGV_LOG"; fi
kill_group() {
  local pgid
  pgid="$(ps -o pgid= -p $$ | tr -d ' ')"
  kill -KILL -- "-$pgid"
  sleep 10
}
if [ "$n" -gt 0 ] && [ "${TF_KILL_AT:-0}" = "$n" ] && [ "${TF_KILL_WHEN:-before}" = before ]; then kill_group; fi
case "${1:-}" in
  state)
    # TF_RM_NOOP=1: a real `state rm` that reports success but removes nothing (tests of the step-6 guard).
    if [ "${2:-}" = rm ] && [ "${3:-}" != -dry-run ] && [ "${TF_RM_NOOP:-}" = 1 ]; then rc=0; else "$REAL" "$@"; rc=$?; fi ;;
  import) node "$HERE/stub-import.mjs" "${@:2}"; rc=$? ;;
  plan)
    rc="${TF_PLAN_EXIT:-0}"
    if [ -n "${TF_PLAN_DETAILED_OUT:-}" ] && [[ " $* " == *" -detailed-exitcode "* ]]; then cat "$TF_PLAN_DETAILED_OUT"; rc=2; fi ;;
  *) "$REAL" "$@"; rc=$? ;;
esac
if [ "$n" -gt 0 ] && [ "${TF_KILL_AT:-0}" = "$n" ] && [ "${TF_KILL_WHEN:-before}" = after ]; then kill_group; fi
exit "$rc"
