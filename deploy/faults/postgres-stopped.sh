#!/usr/bin/env bash
# Run as root from the repository after `cargo build --release -p mahjong-cli`; figures and logs
# go to $OUT (default /tmp/mahjong-faults). docs/PERFORMANCE.md and the closing notes cite them.
# PostgreSQL stopped 30 s mid-play: a throwaway cluster, the release server on it, 50 tables of
# load clients for 100 s; PostgreSQL stopped at 30 s and started again at 60 s.
set -euo pipefail
M="${MAHJONG:-target/release/mahjong}"
HERE="$(cd "$(dirname "$0")" && pwd)"
OUT="${OUT:-/tmp/mahjong-faults}"; mkdir -p "$OUT"
D=$OUT/pg; rm -rf $D; mkdir -p $D; chown postgres:postgres $D
BIN=$(ls -d /usr/lib/postgresql/*/bin | sort -V | tail -1)
PORT=55433
runuser -u postgres -- $BIN/initdb -D $D/data -A trust -U postgres >/dev/null
pgctl() { runuser -u postgres -- $BIN/pg_ctl -D $D/data -l $D/log -w -t 60 -o "-c listen_addresses=127.0.0.1 -p $PORT -k $D" "$@" >/dev/null; }
pgctl start
URL=postgres://postgres@127.0.0.1:$PORT/postgres
DATABASE_URL=$URL RUST_LOG=warn $M serve --port 18092 --http-rate 1000000 --claim-window-ms 0 > $OUT/server.log 2>&1 &
SPID=$!
sleep 2
python3 "$HERE/readyz.py" 127.0.0.1:18092 105 > $OUT/readyz.log &
$M loadtest --addr 127.0.0.1:18092 --tables 50 --rate 0 --seconds 95 --warmup-seconds 2 --server-pid $SPID --json > $OUT/load.json 2>$OUT/load.err &
LPID=$!
sleep 30; echo "$(date +%T.%3N) stopping PostgreSQL"; pgctl stop -m fast
sleep 30; echo "$(date +%T.%3N) starting PostgreSQL"; pgctl start
wait $LPID || true
sleep 6
curl -s localhost:18092/metrics | grep -E "^mahjong_(hands_total|hand_store_failures_total|store_failures_total|actions_total) " 
echo "hands in the database: $(psql -tA $URL -c 'select count(*) from hands')"
echo "tables with a gap in their hands: $(psql -tA $URL -c 'select count(*) from (select table_id, max(hand_no)+1 as n, count(*) as c from hands group by table_id) t where n <> c')"
grep -c ERROR $OUT/server.log || true
grep -c WARN $OUT/server.log || true
kill $SPID; wait $SPID 2>/dev/null || true
pgctl stop -m fast
