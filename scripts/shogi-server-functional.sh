#!/usr/bin/env bash
# Runs shogi-server's own functional tests (test/TC_*.rb, GPL, not in this
# repository) against `boardwire csa serve`, one fresh server per file, as
# csa-protocol/README.md ("Running shogi-server's functional tests")
# describes. By hand, not in CI (CI cannot fetch shogi-server).
#
#   scripts/shogi-server-functional.sh SHOGI_SERVER_CHECKOUT [BOARDWIRE]
#
# Needs Debian's ruby, ruby-webrick and ruby-test-unit. BOARDWIRE defaults
# to target/release/boardwire. Prints one line per file (tests, assertions,
# failures, errors) and exits 1 when any file failed or timed out.
set -uo pipefail
dir=${1:?usage: $0 SHOGI_SERVER_CHECKOUT [BOARDWIRE]}
dir=$(cd "$dir" && pwd)
bw=${2:-target/release/boardwire}
bw=$(cd "$(dirname "$bw")" && pwd)/$(basename "$bw")
port=${PORT:-4000}
status=0
for tc in TC_functional TC_before_agree TC_fork TC_max_moves_draw TC_not_sennichite \
          TC_oute_sennichite TC_uchifuzume TC_jishogi_kachi; do
    # Old records would be read instead of ours (TC_functional reads the newest).
    rm -rf "$dir"/[0-9][0-9][0-9][0-9]
    extra=()
    [ "$tc" = TC_jishogi_kachi ] && extra=(--max-moves 0)
    "$bw" csa serve --listen 127.0.0.1:"$port" --records "$dir" --rating-ids md5 "${extra[@]}" \
        > /tmp/shogi-server-functional-"$tc".log 2>&1 &
    pid=$!
    for _ in $(seq 50); do
        (exec 3<>/dev/tcp/127.0.0.1/"$port") 2>/dev/null && break
        sleep 0.1
    done
    out=$(cd "$dir/test" && timeout 180 ruby "$tc.rb" 2>&1)
    rc=$?
    kill "$pid" 2>/dev/null
    wait "$pid" 2>/dev/null
    summary=$(printf '%s\n' "$out" | grep -E '^[0-9]+ tests, ' | tail -1)
    if [ $rc -ne 0 ]; then
        status=1
        echo "$tc: FAILED (exit $rc) ${summary:-no summary}"
        printf '%s\n' "$out" | tail -20
    else
        echo "$tc: $summary"
    fi
done
exit $status
