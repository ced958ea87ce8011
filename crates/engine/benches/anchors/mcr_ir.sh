#!/usr/bin/env bash
# Instructions per Guobiao hand under callgrind: ours in process, ours through `mahjong score`,
# and the anchor (PyMahjongGB's C++ calculator), on the same 3,000 golden hands.
#
# Each figure is (Ir of a run with N calls - Ir of the same run with 0 calls) / N, so start-up,
# reading the file and building tables cancel out (the CLI's base run scores the file once). The anchor's C++ part is callgrind's
# inclusive cost of `mahjong::calculate_fan` in its N-call run, divided by N; its whole Python
# call and the Python loop alone are given beside it.
#
# Usage: crates/engine/benches/anchors/mcr_ir.sh [N]   (default 30000; needs valgrind, python3
# with `pip install PyMahjongGB==1.4.0`). Run from anywhere inside the repository.
set -euo pipefail

N=${1:-30000}
ROOT=$(git -C "$(dirname "$0")" rev-parse --show-toplevel)
cd "$ROOT"
GOLDEN=conformance/mcr/golden_public.jsonl
OUT=$(mktemp -d)
trap 'rm -rf "$OUT"' EXIT

cargo bench -q -p mahjong-engine --bench mcr_callgrind --no-run 2>/dev/null
cargo build -q --release -p mahjong-cli
BENCH=$(ls -t target/release/deps/mcr_callgrind-* | grep -v '\.d$' | head -1)
CLI=target/release/mahjong

# Total Ir of one command under callgrind; the profile stays in $OUT/$1.out.
ir() {
    local name=$1
    shift
    valgrind --tool=callgrind --callgrind-out-file="$OUT/$name.out" "$@" >/dev/null 2>"$OUT/$name.err"
    awk '/^(summary|totals):/ { print $2; exit }' "$OUT/$name.out"
}

per() { # per <Ir with N> <Ir with 0> <N>
    awk -v a="$1" -v b="$2" -v n="$3" 'BEGIN { printf "%.0f", (a - b) / n }'
}

echo "commit $(git rev-parse --short HEAD)$(git diff --quiet || echo '+dirty'), N=$N"

for k in score line loop; do
    full=$(ir "ours-$k" "$BENCH" "$k" "$N")
    base=$(ir "ours-$k-0" "$BENCH" "$k" 0)
    echo "ours in process ($k): $(per "$full" "$base" "$N") Ir/hand"
done

# The CLI reads whole files. Its first line builds the shape tables, so the base run is not an
# empty file but the golden file once, and the full run the golden file 1 + N/3000 times: the
# difference is N/3000 whole passes over the hands.
reps=$(( (N + 2999) / 3000 ))
cp "$GOLDEN" "$OUT/base.jsonl"
for _ in $(seq $((reps + 1))); do cat "$GOLDEN"; done >"$OUT/lines.jsonl"
lines=$(( $(grep -c . "$OUT/lines.jsonl") - $(grep -c . "$OUT/base.jsonl") ))
full=$(ir cli "$CLI" score "$OUT/lines.jsonl" -o /dev/null)
base=$(ir cli-0 "$CLI" score "$OUT/base.jsonl" -o /dev/null)
echo "ours via mahjong score: $(per "$full" "$base" "$lines") Ir/line ($lines lines)"

PY=crates/engine/benches/anchors/pymahjonggb.py
# The interpreter itself: a launcher such as pyenv's shim would be all callgrind measured. A
# fixed hash seed makes the interpreter's start the same in every run, so that it cancels out.
export PYTHONHASHSEED=0
PYTHON=$(python3 -c 'import sys; print(sys.executable)')
full=$(ir py "$PYTHON" "$PY" score "$N")
base=$(ir py-0 "$PYTHON" "$PY" score 0)
loop=$(ir py-loop "$PYTHON" "$PY" loop "$N")
loop0=$(ir py-loop-0 "$PYTHON" "$PY" loop 0)
cxx=$(callgrind_annotate --inclusive=yes --threshold=100 "$OUT/py.out" 2>/dev/null \
    | awk '/mahjong::calculate_fan\(/ && !found { gsub(",", "", $1); print $1; found = 1 }')
echo "anchor PyMahjongGB, whole Python call: $(per "$full" "$base" "$N") Ir/hand"
echo "anchor Python loop alone: $(per "$loop" "$loop0" "$N") Ir/hand"
echo "anchor C++ (calculate_fan inclusive): $(per "$cxx" 0 "$N") Ir/hand"

if [ -n "${MCR_IR_KEEP:-}" ]; then
    mkdir -p "$MCR_IR_KEEP"
    cp "$OUT"/*.out "$MCR_IR_KEEP"/
    echo "profiles kept in $MCR_IR_KEEP"
fi
