"""Feed the record reader and the engine protocol mutated real input, and count what
comes back.

Records: records of random games of every game (variations, comments with brackets and
backslashes, setup positions, passes and swaps, clocks and the times left), each mutated
one to four times: a bit
of a character flipped, a digit of another script put after a letter or in place of a
digit, brackets, parentheses, backslashes, huge numbers or pieces of properties inserted,
a stretch deleted or repeated, the text cut short. Each is read with `Record.from_sgf`:
- `refused`: a `RecordError` of one line naming the line of the fault;
- `read`: a record, which then writes SGF that reads back to the same SGF;
- anything else is a failure: another exception (a traceback in the app), an error
  message that is not one line naming its line, a record that does not read back, a
  clock whose faces cannot be drawn, or more than --bound seconds.

Clocks: real time control specs (`5m+3s`, `10m+3x30s`, `3d`), mutated the same way and
read as the command line, the selection screen and the room form read them:
- `refused`: one sentence (`ClockSpecError`);
- `read`: a time control within the bounds whose spec reads back the same;
- anything else is a failure.

Protocol: real sessions (games played, positions set and read, the AI asked with a few
playouts), a line in three mutated the same way, sent to one engine per session in
order; every line is counted, mutated or not:
- `answered` (`=`), `refused` (`?` and a message);
- failures: `? internal error`, an answer that breaks the framing, an exception out of
  the engine, more than --bound seconds. A few sessions also go to the real
  `abstracts-tui engine` process as bytes (invalid UTF-8 included).

    python scripts/fuzz.py                      # 100,000 records, clocks and lines
    python scripts/fuzz.py --records 2000 --clocks 2000 --lines 2000 --seed 3
"""

from __future__ import annotations

import argparse
import os
import random
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from abstracts_tui.clock import (
    MAX_DAYS_PER_MOVE,
    MAX_INCREMENT,
    MAX_MAIN,
    MAX_PERIOD,
    MAX_PERIODS,
    Clock,
    ClockSpecError,
    TimeControl,
)
from abstracts_tui.clocks import sides_at
from abstracts_tui.engine.protocol import Engine
from abstracts_tui.records import Record, RecordError
from abstracts_tui.records.timing import TimeLeft
from abstracts_tui.rules import GAMES, new_game

SIZES = {"petrify": 6, "pilo": 6, "egotzi": 5, "linage": 5, "partitions": 5}
OTHER_DIGITS = ["\u00b2", "\u00b3", "\u2460", "\u0661", "\u0969", "\uff12", "\U0001d7da"]
PIECES = [
    "(", ")", "[", "]", "\\", ";", "(;", ")(", "[]", "\\]", "\n", "\r\n", " ", "/", ",",
    "=", "-", ".", "é", "\u2028", "\0", "9" * 40, "9" * 309, "9" * 4301, "9" * 5000,
    "-1", "1e999", "1e308", "nan", "1_0", "B[", "W[", "O[", "SP[", "C[", "GA[", "SZ[",
    "KM[", "AI[", "TM[", "OT[", "BL[", "OB[", "x30s", "d", "h", "+", "pass", "swap",
    "b2", "x", "size=", "komi=", *OTHER_DIGITS,
]  # fmt: skip
CLOCKS = ["5m+3s", "10m+3x30s", "3d", "1h30m", "90", "2m+1x10s", "100d+1d", "1m+100x1d"]
QUICK = {"ABSTRACTS_TUI_PLAYOUTS": "8", "ABSTRACTS_TUI_SEED": "1"}
"""Searches of a few playouts: genmove and analyze answer at once."""


def mutate(text: str, rng: random.Random) -> str:
    for _ in range(rng.randint(1, 4)):
        at = rng.randint(0, len(text))
        kind = rng.choice(["flip", "digit", "digit", "insert", "delete", "repeat", "cut"])
        if kind == "digit":
            places = [i for i, char in enumerate(text) if char.isalnum()]
            if places:
                at = rng.choice(places)
                digit = rng.choice([*OTHER_DIGITS, "0", "7"])
                after = at + 1 if text[at].isalpha() else at
                text = text[:after] + digit + text[at + 1 :]
        elif kind == "flip" and at < len(text):
            text = text[:at] + chr(ord(text[at]) ^ (1 << rng.randrange(8))) + text[at + 1 :]
        elif kind == "insert":
            text = text[:at] + rng.choice(PIECES) + text[at:]
        elif kind == "delete":
            text = text[:at] + text[at + rng.randint(1, 20) :]
        elif kind == "repeat":
            end = at + rng.randint(1, 200)
            text = text[:end] + text[at:end] * rng.randint(1, 50) + text[end:]
        elif kind == "cut":
            text = text[:at]
    return text


def maybe_mutate(line: str, rng: random.Random) -> str:
    """A protocol line mutated one time in three: the session mostly goes on, so that
    the mutated lines meet games in every state."""
    return mutate(line, rng) if rng.random() < 1 / 3 else line


def real_records(rng: random.Random, count: int = 40) -> list[str]:
    """Records of random games; one in two with a clock and the time left at each move."""
    texts = []
    names = list(SIZES)
    for index in range(count):
        name = names[index % len(names)]
        game = new_game(name, SIZES[name])
        record = Record.from_game(game, players=("Ann", "Bob"), date="2026-01-01")
        if index % 2:
            record.clock = TimeControl.parse(rng.choice(CLOCKS))
        node = record.root
        for ply in range(rng.randint(4, 40)):
            moves = game.legal_moves()
            if not moves:
                break
            for other in rng.sample(moves, min(rng.randint(0, 2), len(moves))):
                node.add(game.move_name(other)).comment = rng.choice(["", "why [not] \\ ?"])
            move = rng.choice(moves)
            mover = game.turn
            game.play(move)
            node = node.add(game.move_name(move))
            if record.clock is not None:
                periods = rng.randint(0, record.clock.periods)
                node.time_left = TimeLeft(mover, rng.uniform(0, record.clock.main), periods)
            if ply % 9 == 5:
                node = node.add(setup=game.position())
        texts.append(record.to_sgf())
    return texts


def real_sessions(rng: random.Random, count: int = 20) -> list[list[str]]:
    sessions = []
    names = list(GAMES)
    for index in range(count):
        name = names[index % len(names)]
        game = new_game(name, SIZES[name])
        lines = [f"1 newgame {name} size={SIZES[name]}", "list_games", "time_per_move 0.01"]
        for _ in range(rng.randint(4, 30)):
            if game.is_over():
                break
            move = game.move_name(rng.choice(game.legal_moves()))
            game.play(move)
            lines += [f"play {move}", rng.choice(["legal_moves", "side_to_move", "scores"])]
        lines += [f"setposition {game.position()}", "position", "showboard", "2 winner"]
        lines += ["undo", "genmove", "analyze 0.01", "gogui-rules_final_result", "moves"]
        sessions.append(lines)
    return sessions


def fuzz_records(count: int, rng: random.Random, bound: float) -> Counter[str]:
    bases = real_records(rng)
    found: Counter[str] = Counter()
    for _ in range(count):
        text = mutate(rng.choice(bases), rng)
        start = time.perf_counter()
        try:
            record = Record.from_sgf(text)
            written = record.to_sgf()
            outcome = "read" if Record.from_sgf(written).to_sgf() == written else "not read back"
            if record.clock is not None:  # the faces the app draws on loading it
                clock = Clock(record.clock, sides_at(record.clock, record.opening_node()))
                clock.start(0, now=0.0)
                clock.moved(now=1.0, next_side=1)
                for side in (0, 1):
                    clock.face(side, now=2.0)
        except RecordError as error:
            message = str(error)
            line = getattr(error, "line", None)
            clear = line is not None and message.startswith(f"line {line}")
            clear = clear and "\n" not in message and len(message) < 400
            outcome = "refused" if clear else "unclear message"
        except Exception as error:  # the failure counted: the app would show a traceback
            outcome = f"traceback {type(error).__name__}"
            print(f"  {outcome}: {error!s:.200} in {text[:300]!r}", file=sys.stderr)
        if time.perf_counter() - start > bound:
            outcome = f"over {bound:g} s"
        found[outcome] += 1
    return found


def within_bounds(control: TimeControl) -> bool:
    if control.main == 0 and control.periods == 1:
        return 0 < control.period <= MAX_DAYS_PER_MOVE
    return (
        0 <= control.main <= MAX_MAIN
        and 0 <= control.increment <= MAX_INCREMENT
        and 0 <= control.periods <= MAX_PERIODS
        and 0 <= control.period <= MAX_PERIOD
    )


def fuzz_clocks(count: int, rng: random.Random, bound: float) -> Counter[str]:
    found: Counter[str] = Counter()
    for _ in range(count):
        spec = mutate(rng.choice(CLOCKS), rng)
        start = time.perf_counter()
        try:
            control = TimeControl.parse(spec)
            if control is None:
                outcome = "read"
            elif not within_bounds(control):
                outcome = "over its bounds"
                print(f"  {outcome}: {spec[:200]!r}", file=sys.stderr)
            else:
                outcome = "read" if TimeControl.parse(control.spec) == control else "not read back"
        except ClockSpecError as error:
            message = str(error)
            outcome = "refused" if "\n" not in message and len(message) < 200 else "unclear message"
        except Exception as error:  # the failure counted: a traceback in the app
            outcome = f"traceback {type(error).__name__}"
            print(f"  {outcome}: {error!s:.200} in {spec[:200]!r}", file=sys.stderr)
        if time.perf_counter() - start > bound:
            outcome = f"over {bound:g} s"
        found[outcome] += 1
    return found


def fuzz_lines(count: int, rng: random.Random, bound: float) -> Counter[str]:
    bases = real_sessions(rng)
    found: Counter[str] = Counter()
    sent = 0
    while sent < count:
        lines = [maybe_mutate(line, rng) for line in rng.choice(bases)][: count - sent]
        engine = Engine(QUICK)
        for line in lines:
            start = time.perf_counter()
            try:
                answer = engine.handle(line)
            except Exception as error:
                outcome = f"traceback {type(error).__name__}"
            else:
                if answer is None:
                    outcome = "ignored"
                elif "internal error" in answer:
                    outcome = "internal error"
                    print(f"  {answer.strip()} for {line[:200]!r}", file=sys.stderr)
                elif answer[0] not in "=?" or not answer.endswith("\n\n") or "\n\n" in answer[:-2]:
                    outcome = "broken framing"
                else:
                    outcome = "answered" if answer[0] == "=" else "refused"
            if time.perf_counter() - start > bound:
                outcome = f"over {bound:g} s"
            found[outcome] += 1
        sent += len(lines)
    return found


def fuzz_process(sessions: int, rng: random.Random) -> Counter[str]:
    """Mutated sessions as bytes (invalid UTF-8 too) to the real engine process."""
    script = Path(sys.executable).parent / "abstracts-tui"
    command = [str(script)] if script.exists() else [sys.executable, "-m", "abstracts_tui"]
    bases = real_sessions(rng)
    found: Counter[str] = Counter()
    for _ in range(sessions):
        lines = [maybe_mutate(line, rng).replace("quit", "qu1t") for line in rng.choice(bases)]
        data = "\n".join(lines).encode() + b"\n\xff\xfe name\nname\n"
        done = subprocess.run(
            [*command, "engine"],
            input=data,
            capture_output=True,
            timeout=600,
            env={**os.environ, **QUICK},
        )
        output = done.stdout.decode()
        healthy = (
            done.returncode == 0 and not done.stderr and output.endswith("= abstracts-tui\n\n")
        )
        found["process ok" if healthy else "process failed"] += 1
        found["internal error answers"] += output.count("internal error")
    return found


def show(title: str, found: Counter[str], good: tuple[str, ...]) -> int:
    total = sum(found.values())
    print(f"{title}: {total:,}")
    for outcome, number in sorted(found.items(), key=lambda item: -item[1]):
        mark = "" if outcome in good or not number else "   <- failure"
        print(f"  {outcome:<28}{number:>9,}{number / max(total, 1):>9.2%}{mark}")
    return sum(number for outcome, number in found.items() if outcome not in good)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--records", type=int, default=100_000)
    parser.add_argument("--clocks", type=int, default=100_000)
    parser.add_argument("--lines", type=int, default=100_000)
    parser.add_argument("--processes", type=int, default=20, help="sessions to the process")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--bound", type=float, default=2.0, help="seconds one input may take")
    args = parser.parse_args()
    start = time.perf_counter()
    failures = show(
        "mutated records",
        fuzz_records(args.records, random.Random(args.seed), args.bound),
        ("refused", "read"),
    )
    failures += show(
        "mutated clocks",
        fuzz_clocks(args.clocks, random.Random(args.seed + 3), args.bound),
        ("refused", "read"),
    )
    failures += show(
        "mutated protocol lines",
        fuzz_lines(args.lines, random.Random(args.seed + 1), args.bound),
        ("answered", "refused", "ignored"),
    )
    processed = fuzz_process(args.processes, random.Random(args.seed + 2))
    failures += show("sessions to the engine process", processed, ("process ok",))
    print(f"failures: {failures}  ({time.perf_counter() - start:.0f} s)")
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
