#!/usr/bin/env bash
# Run as root from the repository after `cargo build --release -p mahjong-cli`; figures and logs
# go to $OUT (default /tmp/mahjong-faults). docs/PERFORMANCE.md and the closing notes cite them.
# The SQLite file's filesystem turns read-only under the running server, as ext4 mounted
# `errors=remount-ro` does on a disk error (here triggered through ext4's sysfs): readiness,
# the failures counted, nothing already stored lost. The server is then stopped, the
# filesystem checked and mounted again, and a new server restores the unfinished tables.
set -uo pipefail
M="${MAHJONG:-target/release/mahjong}"
HERE="$(cd "$(dirname "$0")" && pwd)"
OUT="${OUT:-/tmp/mahjong-faults}"; mkdir -p "$OUT"
D=$OUT/ro; IMG=$OUT/ro.img; PORT=18096
stamp() { date +%T.%3N; }
metrics() { curl -s localhost:$PORT/metrics | grep -E "^mahjong_(hands_total|hand_store_failures_total|store_failures_total|actions_total|ready|rooms\{phase=\"playing\"\}) "; }
count() { python3 -c "import sqlite3;print(sqlite3.connect('file:$D/db.sqlite?mode=ro', uri=True).execute(\"$1\").fetchone()[0])"; }
umount $D 2>/dev/null; rm -rf $D $IMG; mkdir -p $D
truncate -s 256M $IMG && mkfs.ext4 -q $IMG && mount -o loop,errors=remount-ro $IMG $D || exit 1
DEV=$(basename "$(findmnt -no SOURCE $D)")

DATABASE_URL=sqlite:$D/db.sqlite RUST_LOG=warn $M serve --port $PORT --http-rate 1000000 --claim-window-ms 0 > $OUT/ro-server.log 2>&1 &
SPID=$!
sleep 2
python3 "$HERE/readyz.py" 127.0.0.1:$PORT 30 > $OUT/ro-readyz.log &
$M loadtest --addr 127.0.0.1:$PORT --tables 20 --rate 0 --seconds 25 --warmup-seconds 1 --json > $OUT/ro-load.json 2>$OUT/ro-load.err &
LPID=$!
sleep 15; echo "$(stamp) the filesystem turns read-only"; echo "injected by sqlite-read-only.sh" > /sys/fs/ext4/$DEV/trigger_fs_error
findmnt -no OPTIONS $D
sleep 8; echo "$(stamp) after 8 s read-only:"; metrics
wait $LPID
echo "$(stamp) stopping the server (SIGTERM)"; kill -TERM $SPID
for _ in $(seq 1 100); do kill -0 $SPID 2>/dev/null || break; sleep 0.1; done
if kill -0 $SPID 2>/dev/null; then echo "$(stamp) still running after 10 s: SIGKILL"; kill -KILL $SPID; fi
wait $SPID 2>/dev/null; echo "$(stamp) server exited"
STORED=$(grep -oE "^mahjong_hands_total [0-9]+" $OUT/ro-server.metrics 2>/dev/null | awk '{print $2}')
umount $D && e2fsck -fy $IMG > $OUT/ro-fsck.log 2>&1; echo "e2fsck exit: $? (0 or 1: clean or mended)"
mount -o loop,errors=remount-ro $IMG $D || exit 1
echo "hands in the database: $(count 'select count(*) from hands')"
echo "tables with a gap: $(count 'select count(*) from (select table_id, max(hand_no)+1 n, count(*) c from hands group by table_id) where n<>c')"
echo "$(stamp) a new server on the mended file"
DATABASE_URL=sqlite:$D/db.sqlite RUST_LOG=info $M serve --port $PORT --http-rate 1000000 --claim-window-ms 0 > $OUT/ro-restart.log 2>&1 &
SPID=$!
sleep 5
echo "readyz after the restart: $(curl -s -o /dev/null -w '%{http_code}' localhost:$PORT/readyz)"
grep -E "restored|ERROR" $OUT/ro-restart.log | cut -c1-200 | head -5
metrics
kill -TERM $SPID; wait $SPID 2>/dev/null
echo "hands in the database after the restart: $(count 'select count(*) from hands')"
echo "log lines of the first server: $(grep -c . $OUT/ro-server.log)"
umount $D
