#!/usr/bin/env python3
"""Random Gomoku openings for self-play data (engine/examples/fit_gomoku_eval/main.rs).

Usage: random-openings.py SEED COUNT > openings.txt

Each opening is black's stone at the centre of 15x15 (h8) and then 2 to 4 more stones
(one in four has 3 stones, two in four 4, one in four 5), alternating colours, each within
three lines of the centre; no opening twice. One opening per line in board notation, as
`tengen arena --openings` reads it.
"""
import random
import sys


def main():
    seed, count = int(sys.argv[1]), int(sys.argv[2])
    random.seed(seed)
    cols = "abcdefghijklmno"
    seen, out = set(), []
    while len(out) < count:
        n = random.choice([3, 4, 4, 5])
        stones = [(7, 7)]
        while len(stones) < n:
            p = (7 + random.randint(-3, 3), 7 + random.randint(-3, 3))
            if p not in stones:
                stones.append(p)
        key = tuple(stones)
        if key in seen:
            continue
        seen.add(key)
        out.append(" ".join(f"{cols[x]}{y + 1}" for x, y in stones))
    print("\n".join(out))


if __name__ == "__main__":
    main()
