"""A second rules audit of four classic haunts (A Little Night Murder, Better with
Friends, It's Alive!, Offspring): the corners the haunts' own test files leave, each
driven through the engine. What each test holds the engine to is quoted from seed 003,
RULES.md, docs/rulings.md or the haunt's data file (its designed book)."""

from __future__ import annotations

from typing import Any

from bot.core.actions import Action
from bot.games.betrayal import GAME, effects
from bot.games.betrayal.context import Ctx
from bot.games.betrayal.haunting import combat, flow, sides
from bot.games.betrayal.haunting.plugins.better_with_friends import (
    WATER,
    BetterWithFriends,
    add_token,
)
from bot.games.betrayal.state import HEROES, TRAITOR, BetrayalState, Turn
from tests.betrayal_haunt_helpers import answer_pending, begin, house, started
from tests.test_betrayal_haunt_its_alive import move_spear, organ

BWF = BetterWithFriends()


def _turn(state: BetrayalState, seat: int, tile_id: int, side: str | None = None) -> None:
    """`seat` stands in `tile_id` (on `side` of a split room) at the start of its own
    haunt turn."""
    assert state.haunt is not None
    state.explorers[seat].tile, state.explorers[seat].side = tile_id, side
    state.turn = Turn(seat=seat, number=state.turn.number + 1)
    state.haunt.stage = TRAITOR if sides.is_traitor(state, seat) else HEROES


def _acts(state: BetrayalState, seat: int) -> list[str]:
    return [str(o.action.args["what"]) for o in GAME.options(state, seat)
            if o.action.kind == "act"]


def _run(state: BetrayalState, seat: int, steps: list[dict[str, Any]]) -> Ctx:
    ctx = Ctx(state)
    ctx.push(steps, seat, "event", "event")
    effects.run(ctx)
    flow.after_action(ctx)
    return ctx


# ---------------------------------------------------------------- It's Alive!

def _spear_at_heart() -> tuple[BetrayalState, int, Any]:
    state, _ = started("its_alive", seed=2)
    assert state.haunt is not None and state.pending is None
    seat = sides.heroes(state)[0]
    move_spear(state, seat)
    heart = organ(state, "heart")
    _turn(state, seat, heart.tile)
    return state, seat, heart


def test_a_hero_held_fast_cannot_drive_the_spear() -> None:
    """Seed 003, Debris (line 674) and Webs (line 892): 「保有這咭牌期間，人物不可進行任何行動，
    亦不可使用物件」 [while the explorer holds this card it may take no action nor use an
    item]; docs/rulings.md: "'no action' is nothing at all". A hero held by the Webs
    has no attack, and "Drive the Spear" is an attack with the Spear: the haunt's
    special actions go with the rest."""
    state, seat, heart = _spear_at_heart()
    assert _acts(state, seat) == [f"pierce-{heart.id}"]
    state.explorers[seat].lasting.append("webs")
    assert not combat.choices(state, seat)
    assert _acts(state, seat) == []
    ai = GAME.ai_action(state, seat)
    assert ai.kind != "act"


def test_a_hero_held_fast_cannot_search_the_flotsam() -> None:
    """The same sentence (seed 003 line 892, Webs): the held hero takes no action, so
    Better with Friends' search of the flotsam waits until it is free."""
    state, _ = begin(house(4, 1), "better_with_friends")
    state = answer_pending(state)
    hero = sides.heroes(state)[0]
    pile = next(i for i, t in enumerate(state.tiles)
                if any(k.get("kind") == "flotsam" for k in t.tokens))
    _turn(state, hero, pile)
    assert "search" in _acts(state, hero)
    state.explorers[hero].lasting.append("webs")
    assert _acts(state, hero) == []


def test_a_spear_that_fought_this_turn_drives_into_no_organ() -> None:
    """Seed 003 line 249: 「在玩家回合中，每件物件的效用僅可行使一次」 [on the player's turn
    each object's effect may be used only once]. A card's forced attack (Bloody Vision)
    made with the Spear on the hero's own turn uses it; "Drive the Spear" would be the
    Spear's second attack of the turn."""
    state, seat, heart = _spear_at_heart()
    antibody = sides.monsters(state, "antibody")[0]
    antibody.tile = heart.tile
    _run(state, seat, [{"_card_strike": {"monster": f"m{antibody.id}", "trait": "might",
                                         "weapon": "spear"}}])
    if state.pending is not None:  # the strike went against the hero: its damage split
        state = answer_pending(state)
    assert state.pending is None and state.explorers[seat].alive
    assert "spear" in state.turn.used
    assert not any(c.weapon == "spear" for c in combat.choices(state, seat))
    assert f"pierce-{heart.id}" not in _acts(state, seat)


# ---------------------------------------------------------------- Better with Friends

def _tower_game() -> tuple[BetrayalState, int, int, int, int]:
    """Better with Friends with the Tower (a split room, doors E and W) flooded, two
    heroes and the traitor at the start of the traitor's turn in it."""
    state, _ = begin(house(4, 1), "better_with_friends")
    state = answer_pending(state)
    tower = state.tile_of("tower")
    assert tower is not None
    add_token(state, tower, WATER)
    first, second = sides.heroes(state)[:2]
    traitor = sides.traitor(state)
    assert traitor is not None
    for seat in (first, second):
        state.explorers[seat].tile = tower
    return state, tower, first, second, traitor


def test_holding_a_hero_under_needs_her_beside_them() -> None:
    """The traitor's book (data/betrayal/haunts/better_with_friends.yaml): "in a flooded
    room, pick a hero in your room". docs/rulings.md reads "same room" in a split room
    as the same side (as for a trade), and seed 003 allows no fight across its
    barrier: a hero on the Tower's far side cannot be held under, one beside her can."""
    state, tower, first, second, traitor = _tower_game()
    state.explorers[first].side, state.explorers[second].side = "E", "W"
    _turn(state, traitor, tower, "W")
    assert first not in [c.target for c in combat.choices(state, traitor)]
    assert f"hold-{first}" not in _acts(state, traitor)
    assert f"hold-{second}" in _acts(state, traitor)


def test_the_canoe_is_handed_only_to_a_hero_beside_its_carrier() -> None:
    """The heroes' book: "hand it to a hero in the same room"; docs/rulings.md: in a
    split room, the same side, as for a trade (seed 003 line 250: a card goes only to
    an explorer in the same room). No card can be traded across the Tower's barrier,
    and neither can the canoe."""
    state, tower, first, second, _ = _tower_game()
    assert state.haunt is not None
    state.haunt.progress.update({"carrier": second, "found": True})
    state.explorers[first].side = "E"
    _turn(state, second, tower, "W")
    assert not any(o.action.kind == "trade" and o.action.args["with"] == first
                   for o in GAME.options(state, second))
    assert f"give-{first}" not in _acts(state, second)
    state.explorers[first].side = "W"
    assert f"give-{first}" in _acts(state, second)
    state, _ = GAME.apply(state, second, Action("act", {"what": f"give-{first}"}))
    assert state.haunt is not None and state.haunt.progress["carrier"] == first


def test_the_traitors_secret_keeps_where_the_canoe_lies() -> None:
    """RULES.md: "the traitor's text goes to the traitor alone", and her book: "You are
    told which flotsam hides the canoe. Nobody else knows." What she is told once in a
    message stays in her `/secret` (as the Ghost Bride's lover does), never in a hero's,
    and goes once the canoe is found."""
    state, _ = begin(house(4, 1), "better_with_friends")
    state = answer_pending(state)
    assert state.haunt is not None
    traitor = sides.traitor(state)
    assert traitor is not None
    hidden = int(state.haunt.progress["canoe"])
    told = BWF.text("canoe_secret", room=Ctx(state).room_name(hidden))
    assert told in flow.private_text(state, traitor, "sheet")
    for hero in sides.heroes(state):
        assert told not in flow.private_text(state, hero, "sheet")
        assert BWF.private_notes(state, hero) == []
    state.haunt.progress.update({"found": True, "carrier": sides.heroes(state)[0]})
    assert BWF.private_notes(state, traitor) == []


def test_the_water_reaching_the_tower_ends_the_game_before_any_turn() -> None:
    """Seed 003, 終局: 「奸徒Traitor或英雄Hero中，一旦一方完成其勝利條件，遊戲即時完結」 [as
    soon as the traitor or the heroes meet their goal, the game ends at once]. The
    water reaches the Tower as a round starts: the traitor has won there and then, and
    no hero's turn begins in a game already over."""
    state, _ = begin(house(4, 1), "better_with_friends")
    state = answer_pending(state)
    assert state.haunt is not None
    shelter = state.tile_of("tower")
    for i in range(len(state.tiles)):
        if i != shelter and not any(t.get("kind") == WATER for t in state.tiles[i].tokens):
            add_token(state, i, WATER)
    first = state.haunt.round
    events: list[Any] = []
    for _ in range(200):
        assert state.haunt is not None
        if state.haunt.round != first or state.over:
            break
        seat = GAME.to_act(state)
        assert seat is not None
        state, more = GAME.apply(state, seat, GAME.ai_action(state, seat))
        events = list(more)
    assert state.over and state.haunt is not None and state.haunt.winner == "traitor"
    rose = next(i for i, e in enumerate(events) if e.text.startswith("The water rises"))
    over = next(i for i, e in enumerate(events) if e.kind == "game_over")
    assert not [e.text for e in events[rose:over] if e.kind == "turn"]
