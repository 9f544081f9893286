"""`python -m bot demo`: AI seats play a whole game through the real sessions layer.

The demo opens a lobby like a player would, adds AI seats, starts, and then plays every
decision with the game's AI (the host's seat too), saving each step to a real SQLite
file. DIR receives transcript.txt and one PNG of the board per turn.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from pathlib import Path

from bot import games
from bot import table as table_rules
from bot.core.actions import Action
from bot.sessions import Outcome, Post, Sessions
from bot.store import OVER, Table, open_store

DEMO_CHANNEL = 1
DEMO_GUILD = 1
DEMO_HOST = 1


@dataclass
class FileOutlet:
    """Writes what Discord would show: the public lines, and a PNG per post."""

    out: Path
    lines: list[str] = field(default_factory=list)
    images: int = 0

    async def publish(self, table: Table, post: Post) -> None:
        self.lines.extend(post.lines)
        self.lines.extend(post.documents)
        if post.image is not None:
            self.images += 1
            name = f"turn_{self.images:04d}.png"
            (self.out / name).write_bytes(post.image)
            self.lines.append(f"    [board: {name}]")

    async def whisper(self, table: Table, user_id: int, text: str, *, key: str = "") -> bool:
        self.lines.append(f"    (DM to <@{user_id}>) {text}")
        return True

    async def team(self, table: Table, team: str, user_ids: list[int], text: str, *,
                   key: str = "") -> list[int]:
        members = ", ".join(f"<@{u}>" for u in user_ids)
        self.lines.append(f"    (to the {team}: {members}) {text}")
        return []

    async def remind(self, table: Table, user_id: int, text: str, *, key: str = "") -> None:
        self.lines.append(text)


def note_private(outlet: FileOutlet, table: Table, outcome: Outcome | None) -> None:
    """AI seats get no DMs; the transcript still shows their secrets, marked private
    (a team's lines too, when no human of the team got them)."""
    if outcome is None:
        return
    game = games.get(table.kind)
    teams = game.teams(game.load(table.state)) if table.state is not None else {}
    for event in outcome.events:
        if event.audience.kind == "player":
            seat = table.seats[int(event.audience.ref)]
            if seat.ai:
                outlet.lines.append(f"    (private to {seat.name}) {event.text}")
        elif event.audience.kind == "team":
            seats = teams.get(event.audience.ref, [])
            if not any(table.seats[s].is_human for s in seats):
                outlet.lines.append(f"    (private to the {event.audience.ref}) {event.text}")


EXPANSION = "expansion"  # the setup option naming an expansion (the game's setup_choices)


def demo_options(kind: str, expansion: str | None) -> dict[str, str]:
    """The lobby options of the demo: an expansion, checked against what the game offers."""
    if expansion is None:
        return {}
    game = games.get(kind)
    offered = [value for value, _ in game.setup_choices().get(EXPANSION, [])]
    if expansion not in offered:
        raise ValueError(f"{game.title} has no expansion {expansion!r}"
                         + (f" (choose from: {', '.join(offered)})." if offered else "."))
    return {EXPANSION: expansion}


async def run_demo(kind: str, players: int, seed: int, out: Path,
                   expansion: str | None = None) -> tuple[Table, FileOutlet]:
    game = games.get(kind)
    if not game.min_players <= players <= game.max_players:
        raise ValueError(f"{game.title} takes {game.min_players}-{game.max_players} players.")
    options = demo_options(kind, expansion)
    try:
        out.mkdir(parents=True, exist_ok=True)
    except OSError as exc:  # --out is the user's to fix: one line, not a traceback
        raise ValueError(f"cannot make the demo's folder {out}: {exc.strerror or exc}") from exc
    db = out / "demo.sqlite3"
    for stale in out.glob("demo.sqlite3*"):
        stale.unlink()
    for old in out.glob("turn_*.png"):
        old.unlink()
    store = await open_store(db)
    outlet = FileOutlet(out)
    sessions = Sessions(store, outlet, ai_chain=False)
    host = table_rules.Actor(DEMO_HOST, "Host")
    try:
        await sessions.open(DEMO_CHANNEL, DEMO_GUILD, host, kind, seed, options)
        for _ in range(players - 1):
            await sessions.act(DEMO_CHANNEL, host, Action(table_rules.ADD_AI))
        outcome: Outcome | None = await sessions.act(DEMO_CHANNEL, host,
                                                     Action(table_rules.START))
        while outcome is not None and outcome.table.status != OVER:
            note_private(outlet, outcome.table, outcome)
            table = outcome.table
            if table_rules.ai_due(table):
                outcome = await sessions.ai_step(DEMO_CHANNEL)
            else:  # the host's seat: the same AI decides, through the player's door
                seat = table_rules.to_act_seat(table)
                assert seat is not None and table.state is not None
                action = game.ai_action(game.load(table.state), seat)
                outcome = await sessions.act(DEMO_CHANNEL, host, action,
                                             version=table.version)
        note_private(outlet, outcome.table if outcome else table, outcome)
        final = await store.load_latest(DEMO_CHANNEL)
        assert final is not None
        (out / "transcript.txt").write_text("\n".join(outlet.lines) + "\n", encoding="utf-8")
        return final, outlet
    finally:
        await store.close()


async def main(kind: str, players: int, seed: int, out: Path,
               expansion: str | None = None) -> int:
    started = time.perf_counter()
    final, outlet = await run_demo(kind, players, seed, out, expansion)
    seconds = time.perf_counter() - started
    game = games.get(kind)  # the box played, as the lobby names it (an expansion's own)
    title = game.title_of(game.edition_of(demo_options(kind, expansion)))
    print(f"{title}: {players} AI players, seed {seed}: "
          f"{final.version} saved actions, {outlet.images} board images, {seconds:.1f}s.")
    for line in outlet.lines[-6:]:
        print(line)
    print(f"Transcript and images in {out}/")
    return 0
