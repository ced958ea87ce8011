#!/usr/bin/env bash
# A rolling restart: three nodes on loopback share one PostgreSQL database and NATS while
# `mahjong loadtest` plays TABLES tables through all of them; each node in turn is stopped
# (SIGTERM: its rooms stop between two actions, its lease ends, another node adopts its
# tables) and started again. Prints the load test's JSON report, then what the database
# holds: hands stored, and any stored twice (there must be none).
#
#   cargo build --release -p mahjong-cli
#   deploy/cluster/rolling-restart.sh            # TABLES=200 PLAY_SECONDS=90 RATE=1 by default
#   RESTART=0 deploy/cluster/rolling-restart.sh  # the same load, no restart (the control run)
#
# The nodes read MAHJONG_* settings from the environment (MAHJONG_CLAIM_WINDOW_MS=0 lets hands
# finish sooner).
# Needs psql, a PostgreSQL server (PG_ADMIN) and NATS (NATS_URL).
set -euo pipefail
cd "$(dirname "$0")/../.."
M="${M:-./target/release/mahjong}"
PG_ADMIN="${PG_ADMIN:-postgres://postgres@127.0.0.1:5432/postgres}"
NATS_URL="${NATS_URL:-nats://127.0.0.1:4222}"
TABLES="${TABLES:-200}"
RATE="${RATE:-1}"
RESTART="${RESTART:-1}"
# Not SECONDS: bash sets that itself (the seconds since the shell started), so its default
# would never apply.
SECONDS_PLAYED="${PLAY_SECONDS:-90}"
PORTS=(${PORTS:-18301 18302 18303})
DB="mahjong_roll_$$"
URL="${PG_ADMIN%/*}/$DB"
LOGS="$(mktemp -d /tmp/mahjong-roll.XXXXXX)"
psql -q "$PG_ADMIN" -c "CREATE DATABASE $DB"
declare -A PID
start() {
    local port="$1"
    DATABASE_URL="$URL" RUST_LOG=warn MAHJONG_HTTP_RATE=100000000 "$M" serve --port "$port" \
        --nats-url "$NATS_URL" --cluster-name "$DB" --node-name "node-$port" \
        >>"$LOGS/node-$port.log" 2>&1 &
    PID[$port]=$!
    for _ in $(seq 100); do
        curl -fs "http://127.0.0.1:$port/healthz" >/dev/null 2>&1 && return 0
        sleep 0.1
    done
    echo "node $port did not come up" >&2
    return 1
}
stop_all() {
    for p in "${!PID[@]}"; do kill "${PID[$p]}" 2>/dev/null || true; done
    wait 2>/dev/null || true
}
trap stop_all EXIT
# CPU seconds of a process (user + system), from /proc.
cpu() { awk -v t="$(getconf CLK_TCK)" '{ printf "%.2f", ($14 + $15) / t }' "/proc/$1/stat" 2>/dev/null || echo 0; }
NATS_PID="$(pgrep -o nats-server || true)"
NATS_CPU0="$( [ -n "$NATS_PID" ] && cpu "$NATS_PID" || echo 0)"
for p in "${PORTS[@]}"; do start "$p"; done
ADDRS="$(printf '127.0.0.1:%s,' "${PORTS[@]}")"
"$M" loadtest --addr "${ADDRS%,}" --tables "$TABLES" --seconds "$SECONDS_PLAYED" --rate "$RATE" \
    --warmup-seconds 10 --json >"$LOGS/report.json" 2>"$LOGS/loadtest.err" &
LOAD=$!
# Once the tables play, each node in turn: SIGTERM, wait for it to exit, start it again.
sleep 25
for p in "${PORTS[@]}"; do
    [ "$RESTART" = 1 ] || break
    echo "== restarting node-$p" >&2
    kill -TERM "${PID[$p]}"
    wait "${PID[$p]}" || true
    start "$p"
    sleep 15
done
wait "$LOAD" || true
tail -1 "$LOGS/report.json"
# The whole run's cost (set-up and warm-up included; since each node's last start when nodes
# restarted): every node's CPU and NATS's, and the actions the nodes accepted.
NODES_CPU=0; ACTIONS=0
for p in "${PORTS[@]}"; do
    NODES_CPU="$(echo "$NODES_CPU + $(cpu "${PID[$p]}")" | bc)"
    A="$(curl -fs "http://127.0.0.1:$p/metrics" | awk '$1 == "mahjong_actions_total" { print $2 }')"
    ACTIONS="$(echo "$ACTIONS + ${A:-0}" | bc)"
done
NATS_CPU="$( [ -n "$NATS_PID" ] && echo "$(cpu "$NATS_PID") - $NATS_CPU0" | bc || echo 0)"
echo "cpu: nodes ${NODES_CPU} s, nats ${NATS_CPU} s; actions accepted ${ACTIONS}"
psql -qtA "$URL" -c "SELECT 'hands stored: ' || count(*) FROM hands"
psql -qtA "$URL" -c "SELECT 'hands stored twice: ' || count(*) FROM \
    (SELECT table_id, hand_no FROM hands GROUP BY table_id, hand_no HAVING count(*) > 1) d"
echo "logs: $LOGS" >&2
stop_all
trap - EXIT
psql -q "$PG_ADMIN" -c "DROP DATABASE $DB WITH (FORCE)"
