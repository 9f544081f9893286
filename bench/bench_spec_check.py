"""How long the fake Discord's spec check takes per request body, against a floor.

The check (tests/fakediscord/spec_check.py) runs on every body a test's bot sends, on the
test's own event loop, so it must stay cheap. Timed uncached (`SpecCheck._check`): a
full live message (1,900 characters, four rows of five buttons and a 25-option select),
the same as an interaction update (type 7), a one-line message, and a 40-command sync.
The floor, measured in the same run on the same bytes, is what the fake does anyway:
json.loads of the body as sent. Machines here are shared and absolute times drift; the
ratio check / floor is the figure to compare between runs.

    python bench/bench_spec_check.py [--rounds 200]

Recorded on the shared 2-core box (medians): full message 3.6 ms (170x its parse), the
interaction update 3.0 ms (140x), one line 0.035 ms (29x), 40 commands 36 ms (200x);
a body seen before (every test syncs the same tree) is answered from memory.
"""

from __future__ import annotations

import argparse
import json
import statistics
import time
from collections.abc import Callable
from typing import Any

from tests.fakediscord.spec_check import spec_check


def full_message() -> dict[str, Any]:
    rows = [{"type": 1, "components": [
        {"type": 2, "style": 1, "label": f"Move to room {r}{b}",
         "custom_id": f"hk:1234567890123456789:{r}{b}:move:room{r}{b}"} for b in range(5)]}
        for r in range(4)]
    options = [{"label": f"Option {n}", "value": str(n), "description": "d"} for n in range(25)]
    rows.append({"type": 1, "components": [
        {"type": 3, "custom_id": "hks:1234567890123456789:7:0", "options": options}]})
    return {"content": "x" * 1900, "components": rows, "nonce": "7.12.p",
            "enforce_nonce": True, "attachments": [{"id": 0, "filename": "board.png"}]}


def commands() -> list[dict[str, Any]]:
    option = {"type": 3, "name": "what", "description": "What to do.", "autocomplete": True}
    return [{"type": 1, "name": f"cmd{n}", "description": "A command.",
             "options": [{"type": 1, "name": f"sub{m}", "description": "A sub-command.",
                          "options": [option]} for m in range(5)]} for n in range(40)]


def median_ms(fn: Callable[[], object], rounds: int) -> float:
    times = []
    for _ in range(rounds):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return statistics.median(times) * 1000


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=200)
    args = parser.parse_args()
    check = spec_check()
    cases = [
        ("full message", "POST", "/channels/1/messages", full_message()),
        ("interaction update", "POST", "/interactions/1/t/callback",
         {"type": 7, "data": full_message()}),
        ("one line", "POST", "/channels/1/messages", {"content": "Ann moves."}),
        ("40 commands", "PUT", "/applications/1/commands", commands()),
    ]
    for name, method, path, body in cases:
        op = check.operation(method, path)
        assert op is not None and not check._check(op, method, body), name
        raw = json.dumps(body)
        took = median_ms(lambda op=op, m=method, b=body: check._check(op, m, b), args.rounds)
        floor = median_ms(lambda raw=raw: json.loads(raw), args.rounds)
        print(f"{name:20} check {took:8.3f} ms  floor {floor:7.4f} ms  ratio {took / floor:7.1f}x")


if __name__ == "__main__":
    main()
