#!/usr/bin/env python3
"""Brain-vs-brain match through the Gomocup protocol, timing every answer.

    python3 scripts/brain-timing.py --brain target/release/tengen --games 24 --turn 300
    python3 scripts/brain-timing.py --brain old/tengen --brain new/tengen --games 24

With several --brain binaries the games go to each in turn (so all see the same load), and
the summary is given for each.

Two `tengen brain` processes play each other as a manager would drive them (START, INFO,
BEGIN / TURN), freestyle on 15x15. Each answer is timed from the moment the command is
written to the moment the move line arrives. Prints the slowest answers and a summary; the
exit status is 1 if any answer came later than timeout_turn. Load the machine while it runs
(`yes > /dev/null &` once per core) to see the times a loaded tournament machine gives.
"""

import argparse
import subprocess
import sys
import time


class Brain:
    def __init__(self, cmd, seed, memory):
        self.p = subprocess.Popen(cmd + ["brain", "--seed", str(seed)], stdin=subprocess.PIPE,
                                  stdout=subprocess.PIPE, text=True, bufsize=1)
        self.memory = memory

    def send(self, line):
        self.p.stdin.write(line + "\n")
        self.p.stdin.flush()

    def answer(self):
        self.debug = ""
        while True:
            line = self.p.stdout.readline()
            if not line:
                raise RuntimeError("the brain ended")
            line = line.strip()
            if line.startswith("DEBUG"):
                self.debug = line
            elif line and not line.startswith("MESSAGE"):
                return line

    def timed(self, line):
        start = time.perf_counter()
        self.send(line)
        reply = self.answer()
        return reply, (time.perf_counter() - start) * 1000

    def close(self):
        try:
            self.send("END")
            self.p.wait(timeout=5)
        except Exception:
            self.p.kill()


def five(stones, x, y):
    for dx, dy in ((1, 0), (0, 1), (1, 1), (1, -1)):
        n = 1
        for s in (1, -1):
            cx, cy = x + s * dx, y + s * dy
            while (cx, cy) in stones:
                n += 1
                cx, cy = cx + s * dx, cy + s * dy
        if n >= 5:
            return True
    return False


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--brain", required=True, action="append",
                    help="path of a tengen binary (repeat to compare binaries)")
    ap.add_argument("--games", type=int, default=24)
    ap.add_argument("--turn", type=int, default=300, help="timeout_turn in ms")
    ap.add_argument("--memory", type=int, default=0, help="max_memory in bytes (0: none)")
    ap.add_argument("--max-moves", type=int, default=120)
    args = ap.parse_args()
    times = {b: [] for b in args.brain}  # binary: [(ms, game, move number, command)]
    for g in range(args.games):
        binary = args.brain[g % len(args.brain)]
        game_seed = g // len(args.brain)
        brains = [Brain([binary], 2 * game_seed + 1, args.memory),
                  Brain([binary], 2 * game_seed + 2, args.memory)]
        for b in brains:
            b.send(f"INFO timeout_turn {args.turn}")
            b.send(f"INFO max_memory {args.memory}")
            b.send("INFO rule 0")
            b.send("START 15")
            assert b.answer() == "OK"
        owner = {}
        side = game_seed % 2  # who begins alternates
        reply, ms = brains[side].timed("BEGIN")
        cmd = "BEGIN"
        for move in range(args.max_moves):
            times[binary].append((ms, g, move + 1, f"{cmd}; {brains[side].debug}"))
            if not reply[0].isdigit():
                print(f"game {g}: {reply!r}", file=sys.stderr)
                break
            x, y = map(int, reply.split(","))
            owner[(x, y)] = side
            mine = {p for p, s in owner.items() if s == side}
            if five(mine, x, y) or len(owner) == 225:
                break
            side ^= 1
            cmd = f"TURN {x},{y}"
            reply, ms = brains[side].timed(cmd)
        for b in brains:
            b.close()
        worst = max(t[0] for t in times[binary] if t[1] == g)
        print(f"game {g + 1} ({binary}): {len(owner)} stones, slowest answer {worst:.0f} ms",
              flush=True)
    any_over = False
    for binary, ts in times.items():
        ts.sort(reverse=True)
        over = [t for t in ts if t[0] > args.turn]
        any_over = any_over or bool(over)
        print(f"{binary}: {len(ts)} answers, timeout_turn {args.turn} ms, max_memory "
              f"{args.memory}: max {ts[0][0]:.0f} ms, over the limit {len(over)}")
        for ms, g, n, cmd in ts[:8]:
            print(f"  {ms:6.0f} ms  game {g + 1} move {n} ({cmd})")
        first = [t[0] for t in ts if t[2] <= 2]
        print(f"  first answers of each brain (book moves): max {max(first):.0f} ms")
    sys.exit(1 if any_over else 0)


if __name__ == "__main__":
    main()
