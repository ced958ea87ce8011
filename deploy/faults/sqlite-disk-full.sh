#!/usr/bin/env bash
# Run as root from the repository after `cargo build --release -p mahjong-cli`; figures and logs
# go to $OUT (default /tmp/mahjong-faults). docs/PERFORMANCE.md and the closing notes cite them.
# The SQLite file's disk fills up mid-play (a 64 MiB tmpfs, filled by another file at 15 s,
# freed at 35 s): readiness, the failures counted, nothing lost, play resumes.
set -uo pipefail
M="${MAHJONG:-target/release/mahjong}"
HERE="$(cd "$(dirname "$0")" && pwd)"
OUT="${OUT:-/tmp/mahjong-faults}"; mkdir -p "$OUT"
D=$OUT/full; umount $D 2>/dev/null; rm -rf $D; mkdir -p $D
mount -t tmpfs -o size=64m tmpfs $D
DATABASE_URL=sqlite:$D/db.sqlite RUST_LOG=warn $M serve --port 18095 --http-rate 1000000 --claim-window-ms 0 > $OUT/full-server.log 2>&1 &
sleep 2
python3 "$HERE/readyz.py" 127.0.0.1:18095 62 > $OUT/full-readyz.log &
$M loadtest --addr 127.0.0.1:18095 --tables 20 --rate 0 --seconds 55 --warmup-seconds 1 --json > $OUT/full-load.json 2>$OUT/full-load.err &
LPID=$!
sleep 15; echo "$(date +%T.%3N) filling the disk"; dd if=/dev/zero of=$D/filler bs=1M count=100 2>/dev/null; df -h $D | tail -1
sleep 20; echo "$(date +%T.%3N) freeing it"; rm -f $D/filler
wait $LPID
sleep 3
curl -s localhost:18095/metrics | grep -E "^mahjong_(hands_total|hand_store_failures_total|store_failures_total|actions_total|ready) "
echo "hands in the database: $(python3 -c "import sqlite3;print(sqlite3.connect('file:$D/db.sqlite?mode=ro', uri=True).execute('select count(*) from hands').fetchone()[0])")"
echo "tables with a gap: $(python3 -c "import sqlite3;print(sqlite3.connect('file:$D/db.sqlite?mode=ro', uri=True).execute('select count(*) from (select table_id, max(hand_no)+1 n, count(*) c from hands group by table_id) where n<>c').fetchone()[0])")"
echo "log lines: $(grep -c . $OUT/full-server.log)"
pkill -f "serve --port 18095"; while pgrep -f "serve --port 18095" >/dev/null; do sleep 0.2; done
umount $D
