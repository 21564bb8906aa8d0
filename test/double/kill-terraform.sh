#!/usr/bin/env bash
# The real terraform, with a kill hook for the kill-at-every-step tests: with TF_COUNTER=FILE each
# invocation counts itself, and the invocation numbered $TF_KILL_AT sends SIGKILL to its whole process
# group (the tool or migrate.sh, terraform and its provider plugins) before running (TF_KILL_WHEN=before,
# the default) or after it finished (TF_KILL_WHEN=after). TF_ARGV_LOG=FILE: one line of arguments per call.
set -u
REAL="${REAL_TERRAFORM:-/usr/local/bin/terraform}"
n=0
if [ -n "${TF_COUNTER:-}" ]; then
  n=$(($(cat "$TF_COUNTER" 2>/dev/null || echo 0) + 1))
  echo "$n" >"$TF_COUNTER"
fi
if [ -n "${TF_ARGV_LOG:-}" ]; then printf '%s\n' "$*" >>"$TF_ARGV_LOG"; fi
kill_group() {
  kill -KILL -- "-$(ps -o pgid= -p $$ | tr -d ' ')"
  sleep 10
}
if [ "$n" -gt 0 ] && [ "${TF_KILL_AT:-0}" = "$n" ] && [ "${TF_KILL_WHEN:-before}" = before ]; then kill_group; fi
"$REAL" "$@"
rc=$?
if [ "$n" -gt 0 ] && [ "${TF_KILL_AT:-0}" = "$n" ] && [ "${TF_KILL_WHEN:-before}" = after ]; then kill_group; fi
exit "$rc"
