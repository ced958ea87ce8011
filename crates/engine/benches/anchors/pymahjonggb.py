#!/usr/bin/env python3
"""The anchor of the Guobiao bench: the golden hands through PyMahjongGB's calculator.

PyMahjongGB (`pip install PyMahjongGB==1.4.0`) wraps a C++ Guobiao calculator in a Python
module. This script reads `conformance/mcr/golden_public.jsonl`, turns every line into the
module's arguments once, up front, then makes `N` calls, stepping through the hands, so that
under `valgrind --tool=callgrind` the cost of one call is

    (Ir of `pymahjonggb.py score N` - Ir of `pymahjonggb.py score 0`) / N

with the interpreter's start, the import and the conversion cancelling out. The mode `loop`
runs the same loop with the call left out: its figure is the Python loop's own share of the
`score` figure. The C++ calculator alone is callgrind's inclusive cost of
`mahjong::calculate_fan` over the run, divided by N (the base run makes no call).

`pymahjonggb.py check` scores every hand once and compares the totals with the golden ones
(the conventions of `conformance/mcr/README.md` differ from the module's in a few places).

Usage: pymahjonggb.py (score|loop) N | pymahjonggb.py check
"""

import json
import os
import sys

GOLDEN = os.path.join(
    os.path.dirname(os.path.abspath(__file__)),
    "../../../../conformance/mcr/golden_public.jsonl",
)

# The module's tile names: W (万), B (筒), T (条) with a rank; F1..F4 the winds east to north;
# J1 red, J2 green, J3 white (our 7z, 6z, 5z).
SUIT = {"m": "W", "p": "B", "s": "T"}
HONOR = {1: "F1", 2: "F2", 3: "F3", 4: "F4", 5: "J3", 6: "J2", 7: "J1"}
WIND = {"E": 0, "S": 1, "W": 2, "N": 3}


def tiles(text):
    """Our notation (`123m55z`) as the module's tile names, in order."""
    out, pending = [], []
    for ch in text:
        if ch.isdigit():
            pending.append(int(ch))
        else:
            for rank in pending:
                out.append(HONOR[rank] if ch == "z" else SUIT[ch] + str(rank))
            pending = []
    return out


def pack(meld):
    """A declared meld as the module's pack: (kind, tile, offer). A chow names its middle
    tile; offer 0 is a concealed kong, any other a claimed set (here from the next seat)."""
    t = tiles(meld["tiles"])
    if meld["kind"] == "chow":
        return ("CHI", t[1], 1)
    if meld["kind"] == "pung":
        return ("PENG", t[0], 1)
    return ("GANG", t[0], 0 if meld.get("concealed") else 1)


def arguments(line):
    """The positional arguments of `MahjongFanCalculator` for one golden line."""
    return (
        tuple(pack(m) for m in line.get("melds", [])),
        tuple(tiles(line["concealed"])),
        tiles(line["win_tile"])[0],
        line.get("flowers", 0),
        line.get("self_drawn", False),
        line.get("last_of_kind", False),
        line.get("kong_win", False),
        line.get("last_tile", False),
        WIND[line["seat_wind"]],
        WIND[line["round_wind"]],
    )


def main():
    args = sys.argv[1:]
    if args not in (["check"],) and not (len(args) == 2 and args[0] in ("score", "loop")):
        sys.exit(__doc__.strip().splitlines()[-1])
    from MahjongGB import MahjongFanCalculator

    with open(GOLDEN, encoding="utf-8") as f:
        lines = [json.loads(l) for l in f if l.strip()]
    hands = [arguments(l) for l in lines]

    if args == ["check"]:
        same = 0
        for line, hand in zip(lines, hands):
            fans = MahjongFanCalculator(*hand, verbose=True)
            total = sum(points * count for points, count, _, _ in fans)
            same += total == line["total"]
        print(f"{len(hands)} hands, {same} with the golden total")
        return

    mode, calls = args[0], int(args[1])
    n = len(hands)
    i = 0
    checksum = 0
    if mode == "score":
        for _ in range(calls):
            i = i + 1 if i + 1 < n else 0
            checksum += len(MahjongFanCalculator(*hands[i]))
    else:
        for _ in range(calls):
            i = i + 1 if i + 1 < n else 0
            checksum += len(hands[i])
    print(f"{mode} x {calls}: checksum {checksum}")


if __name__ == "__main__":
    main()
