"""Who is on which side once the haunt has begun, and the order of play.

Seed 003: the traitor and the monsters are one side, every other explorer a hero.
Turns go: each hero, starting on the traitor's left (rising seats), then the traitor,
then the monsters (all played by the traitor's player). With no traitor (a cooperative
haunt: seed 000), the heroes play from the revealer's left, the revealer last, and the
house takes its own turns between theirs (haunting/house.py).
"""

from __future__ import annotations

from bot.games.betrayal import content
from bot.games.betrayal.state import BetrayalState, Monster

HERO, EVIL = "heroes", "traitor"
# The traitor's flag (explorer.flags) that attaches cards/haunt_cards.HouseIsHome: seed
# 003, "the house is their home" (set when the haunt begins, flow.start).
HOME = "house_is_home"


def traitor(state: BetrayalState) -> int | None:
    return state.haunt.traitor if state.haunt else None


def is_traitor(state: BetrayalState, seat: int) -> bool:
    return state.haunt is not None and state.haunt.traitor == seat


def traitor_at_home(state: BetrayalState, seat: int) -> bool:
    """The traitor of a haunt being played: the house is its home (seed 003), so what
    does it no harm passes it by, and an event it draws it may ignore."""
    return is_traitor(state, seat) and bool(state.haunt and state.haunt.key) \
        and not state.over


def unaffected(state: BetrayalState, seat: int, card: str, drawer: int | None) -> bool:
    """Seed 003, the haunt: the house is the traitor's home, and a card that does no
    damage (events.yaml `does_damage: false`) does not touch the traitor: the card as
    it reaches the traitor from another explorer's draw (Rotten's roll, Footsteps'
    nearest explorer), or a token it left (`drawer` None: Drip's dice). A traitor who
    draws the card chooses instead (seed 003: it may ignore the event, or resolve it
    and bear all of it, good and bad: cards/haunt_cards._traitor_event)."""
    return (seat != drawer and traitor_at_home(state, seat)
            and card in content.get().cards and not content.card(card).does_damage)


def side_of(state: BetrayalState, ref: str | int) -> str:
    """A fighter's side: a seat (int or digits) or a monster ("m<id>")."""
    if isinstance(ref, str) and ref.startswith("m"):
        return EVIL
    return EVIL if is_traitor(state, int(ref)) else HERO


def heroes(state: BetrayalState, *, alive: bool = True) -> list[int]:
    """The heroes in turn order (from the traitor's left, or with no traitor the
    revealer's)."""
    count = len(state.players)
    found = traitor(state)
    start = (found if found is not None else
             (state.haunt.revealer if state.haunt else -1))
    order = [(start + 1 + i) % count for i in range(count)]
    return [s for s in order if not is_traitor(state, s)
            and (state.explorers[s].alive or not alive)]


def monsters(state: BetrayalState, kind: str | None = None) -> list[Monster]:
    return [m for m in state.monsters if m.alive and (kind is None or m.kind == kind)]


def first_monster(state: BetrayalState, kind: str) -> Monster | None:
    """The living monster of a kind a haunt has one of (a boss: Pennywise)."""
    found = monsters(state, kind)
    return found[0] if found else None


def next_hero_left(state: BetrayalState, seat: int) -> int | None:
    """The next living explorer on this seat's left (rising seats), not the seat itself:
    who a card or token passes to when its holder dies."""
    count = len(state.players)
    return next((s for s in ((seat + i) % count for i in range(1, count))
                 if state.explorers[s].alive), None)


def monster(state: BetrayalState, ref: str) -> Monster | None:
    if not ref.startswith("m") or not ref[1:].isdigit():
        return None
    mid = int(ref[1:])
    return next((m for m in state.monsters if m.id == mid and m.alive), None)


def opponents_in(state: BetrayalState, tile_id: int, side: str) -> int:
    """How many figures of the other side are in this room and hinder leaving it
    (seed 003: one extra Speed each; a stunned monster does not hinder)."""
    count = 0
    for seat, explorer in enumerate(state.explorers):
        if explorer.alive and explorer.tile == tile_id and side_of(state, seat) != side:
            count += 1
    if side == HERO:
        count += sum(1 for m in monsters(state) if m.tile == tile_id and not m.stunned)
    return count


def slowing(state: BetrayalState, seat: int) -> int:
    """The extra Speed this explorer pays to leave its room (0 before the haunt)."""
    if state.haunt is None or state.over:
        return 0
    return opponents_in(state, state.explorers[seat].tile, side_of(state, seat))


def teams(state: BetrayalState) -> dict[str, list[int]]:
    """Seats per book: who reads the heroes' book, who the traitor's."""
    if state.haunt is None:
        return {}
    found = {HERO: heroes(state, alive=False)}
    seat = traitor(state)
    if seat is not None:
        found[EVIL] = [seat]
    return found
