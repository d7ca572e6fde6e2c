#!/usr/bin/env python3
"""Rate three-stone Gomoku openings with Master through the brain protocol.

Every opening is black at the centre, white at an offset `w` and black at an offset `b`
(white to move), up to the board's eight symmetries. Each is given to `tengen brain` with
`INFO timeout_turn MS`; the score Master reports for white (the side to move) is printed
from black's side, sorted by its size, as `score depth dx,dy dx,dy dx,dy`.

    python3 scripts/rate-openings.py [--tengen target/release/tengen] [--ms 2000] [--jobs 2]
        [--white-within 2] [--black-within 3] [--rule freestyle|standard|renju] [--from FILE]

`--from FILE` rates only the openings listed in FILE (this script's own output format, e.g.
the first lines of an earlier run) instead of every candidate.
"""

import argparse
import re
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor

SYMMETRIES = [
    lambda x, y: (x, y),
    lambda x, y: (-x, y),
    lambda x, y: (x, -y),
    lambda x, y: (-x, -y),
    lambda x, y: (y, x),
    lambda x, y: (-y, x),
    lambda x, y: (y, -x),
    lambda x, y: (-y, -x),
]


def canonical(white, black):
    """The smallest image of the opening under the eight symmetries."""
    images = []
    for f in SYMMETRIES:
        images.append((f(*white), f(*black)))
    return min(images)


def candidates(white_within, black_within):
    seen = set()
    out = []
    for wx in range(-white_within, white_within + 1):
        for wy in range(-white_within, white_within + 1):
            if (wx, wy) == (0, 0):
                continue
            for bx in range(-black_within, black_within + 1):
                for by in range(-black_within, black_within + 1):
                    if (bx, by) in ((0, 0), (wx, wy)):
                        continue
                    key = canonical((wx, wy), (bx, by))
                    if key not in seen:
                        seen.add(key)
                        out.append(key)
    return sorted(out)


DEBUG = re.compile(r"DEBUG depth (\d+) .*score (\S+)")


# Gomocup's `INFO rule` values.
RULES = {"freestyle": 0, "standard": 1, "renju": 4}


def rate(tengen, ms, opening, rule="freestyle", size=15):
    (wx, wy), (bx, by) = opening
    c = size // 2
    board = [
        f"{c},{c},2",
        f"{c + wx},{c + wy},1",
        f"{c + bx},{c + by},2",
    ]
    script = (
        f"START {size}\nINFO rule {RULES[rule]}\nINFO timeout_turn {ms}\nBOARD\n"
        + "\n".join(board)
        + "\nDONE\n"
    )
    proc = subprocess.Popen(
        [tengen, "brain"], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True
    )
    proc.stdin.write(script)
    proc.stdin.flush()
    depth, score = None, None
    for line in proc.stdout:
        m = DEBUG.match(line)
        if m:
            depth, score = int(m.group(1)), m.group(2)
        if re.match(r"^\d+,\d+$", line.strip()):
            break
    proc.stdin.write("END\n")
    proc.stdin.close()
    proc.wait()
    return opening, depth, score


def black_score(text):
    """Master's score for white as a number from black's side (wins as +-100000)."""
    m = re.match(r"Eval\((-?\d+)\)", text or "")
    if m:
        return -int(m.group(1))
    m = re.match(r"(Win|Loss)\w*\((\d+)\)", text or "")
    if m:
        return -100000 if m.group(1) == "Win" else 100000
    return None


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--tengen", default="target/release/tengen")
    ap.add_argument("--ms", type=int, default=2000)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--white-within", type=int, default=2)
    ap.add_argument("--black-within", type=int, default=3)
    ap.add_argument("--rule", choices=sorted(RULES), default="freestyle")
    ap.add_argument("--from", dest="source")
    args = ap.parse_args()
    if args.source:
        openings = []
        for line in open(args.source):
            if line.startswith("#") or not line.strip():
                continue
            _, _, _, w, b = line.split()
            openings.append(
                (tuple(map(int, w.split(","))), tuple(map(int, b.split(","))))
            )
    else:
        openings = candidates(args.white_within, args.black_within)
    print(f"# {len(openings)} openings, {args.ms} ms each, {args.rule}", file=sys.stderr)
    with ThreadPoolExecutor(args.jobs) as pool:
        results = list(
            pool.map(lambda o: rate(args.tengen, args.ms, o, args.rule), openings)
        )
    rows = []
    for opening, depth, score in results:
        rows.append((black_score(score), depth, opening, score))
    rows.sort(key=lambda r: (abs(r[0]) if r[0] is not None else 10**9, r[2]))
    for value, depth, ((wx, wy), (bx, by)), raw in rows:
        print(f"{value if value is not None else raw} {depth} 0,0 {wx},{wy} {bx},{by}")


if __name__ == "__main__":
    main()
