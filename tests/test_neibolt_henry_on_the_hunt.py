"""Henry on the Hunt (seed 000, COME HOME TO EVIL scenario 1): the traitor, now Henry
Bowers, hunts the heroes of his kill list with Zombie Hockstetter at his side; the
heroes look for weapons, banish Hockstetter and must kill Henry. The setup, both hero
actions and each of their outcomes, Hockstetter's shield, every way to win (the last
round too), the public kill list on the map's footer, the AI's goals, AI games won by
each side, and the books' secrecy (data/neibolt/haunts/henry_on_the_hunt.yaml,
bot/games/neibolt/scenarios/henry_on_the_hunt.py)."""

from __future__ import annotations

from typing import Any

import pytest

from bot.core.actions import Action
from bot.games.betrayal import GAME, content, effects, traits
from bot.games.betrayal.context import Ctx
from bot.games.betrayal.haunting import base, combat, flow, monsters, sides
from bot.games.betrayal.state import HEROES, BetrayalState, Monster
from bot.games.neibolt.scenarios import henry_on_the_hunt as hh
from bot.texts import fill
from tests.betrayal_haunt_helpers import house, played, seed_for, started
from tests.test_betrayal_engine_helpers import choose, dice

__all__ = ["dice"]  # a fixture, used by name

KEY = "henry_on_the_hunt"
PLUGIN = base.PLUGINS[KEY]


def start(players: int = 4, seed: int = 1) -> tuple[BetrayalState, list[Any]]:
    state, events = started(KEY, players, seed)
    return GAME.copy_state(state), events


def texts(events: list[Any]) -> list[str]:
    return [e.text for e in events]


def public(events: list[Any]) -> list[str]:
    return [e.text for e in events if e.audience.is_public]


def zombie(state: BetrayalState) -> Monster:
    found = hh.hockstetter(state)
    assert found is not None
    return found


def traitor_of(state: BetrayalState) -> int:
    seat = sides.traitor(state)
    assert seat is not None
    return seat


def hero_turn(state: BetrayalState) -> int:
    """The hero whose turn it is, hands emptied (so no card steps into a roll)."""
    assert state.haunt is not None and state.haunt.stage == HEROES and state.pending is None
    seat = state.turn.seat
    assert not sides.is_traitor(state, seat)
    explorer = state.explorers[seat]
    for key in list(explorer.cards):
        explorer.cards.remove(key)
        state.discards[content.card(key).deck].append(key)
    explorer.side = None
    return seat


def item_room(state: BetrayalState, searched: bool = False) -> int:
    return next(i for i, t in enumerate(state.tiles)
                if content.room(t.room).symbol == "item" and hh.searched(state, i) == searched)


def offer_ids(state: BetrayalState, seat: int) -> list[str]:
    return [str(o.action.args["what"]) for o in GAME.options(state, seat)
            if o.action.kind == "act"]


def act(state: BetrayalState, seat: int, what: str) -> tuple[BetrayalState, list[Any]]:
    return GAME.apply(state, seat, Action("act", {"what": what}))


def kill(state: BetrayalState, seat: int) -> list[Any]:
    """An explorer dies as the engine kills them (haunting/death.py), on_death and all."""
    from bot.games.betrayal.haunting import death

    ctx = Ctx(state)
    death.die(ctx, seat)
    effects.run(ctx)
    return ctx.events


# ---------------------------------------------------------------- setup

def test_the_traitor_is_the_lowest_might() -> None:
    """Seed 000: "Traitor: LOWEST MIGHT"."""
    before = house(4, 1, 25, "neibolt")
    state, _ = start()
    lowest = min(traits.value(before, s, "might") for s in range(4))
    assert traits.value(before, traitor_of(state), "might") == lowest


def test_setup_hockstetter_the_switchblade_and_the_tokens() -> None:
    """Seed 000: "Set aside five Searched tokens." "Large Monster Token: Zombie
    Hockstetter". Designed: he rises in Henry's room; the switchblade's Might and Speed."""
    before = house(4, 1, 25, "neibolt")
    state, events = start()
    henry = traitor_of(state)
    assert zombie(state).tile == state.explorers[henry].tile
    assert len(sides.monsters(state)) == 1 and PLUGIN.data.monsters["hockstetter"].large
    for trait, name in (("might", "blade"), ("speed", "legs")):
        assert traits.index(state, henry, trait) == \
            traits.index(before, henry, trait) + PLUGIN.value(state, name)
    assert hh.searched_count(state) == 0 and PLUGIN.tokens_left(state) == 5
    said = public(events)
    assert any(t.endswith("is Henry Bowers now. A switchblade flicks open, and Henry looks "
                          "stronger for it.") for t in said)
    assert any(t.startswith("The rotting corpse of Patrick Hockstetter shambles into the")
               for t in said)


@pytest.mark.parametrize("players", [3, 4, 5, 6])
def test_the_kill_list_is_public(players: int) -> None:
    """Seed 000: "Hero Tokens: Henry Bowers' Kill List" (on the board: public)."""
    state, events = start(players)
    listed = hh.kill_list(state)
    heroes = sides.heroes(state)
    assert len(listed) == PLUGIN.value(state, "listed") and set(listed) <= set(heroes)
    assert listed == [h for h in heroes if h in listed]  # in turn order
    line = "Henry unfolds a crumpled kill list: " + ", ".join(
        content.explorer(state.explorers[s].key).name for s in listed) + "."
    assert line in public(events)
    note = PLUGIN.board_note(state)
    assert note.startswith("Kill list: ") and note.endswith("Searched tokens left: 5")


def test_the_hero_on_the_traitors_left_goes_first() -> None:
    """Seed 000: "The player to the left of the traitor will take the first turn after
    setup." """
    for seed in (1, 2, 3):
        state, _ = start(seed=seed)
        assert state.haunt is not None and state.haunt.round == 1
        assert state.haunt.stage == HEROES
        assert state.turn.seat == (traitor_of(state) + 1) % 4


# ---------------------------------------------------------------- Look for a Weapon

def test_look_for_a_weapon_is_offered_on_unsearched_item_rooms() -> None:
    """Seed 000: "While on a tile with an Item symbol that doesn't have a Searched token
    on it ... You cannot make this roll if there are no Searched tokens left." """
    state, _ = start()
    seat = hero_turn(state)
    room = item_room(state)
    state.explorers[seat].tile = room
    assert "search" in offer_ids(state, seat)
    label = next(o.label for o in GAME.options(state, seat)
                 if o.action.args.get("what") == "search")
    assert label == "Look for a Weapon (Speed or Knowledge, 3+)"
    state.tiles[room].tokens.append({"kind": "searched", "card": "", "haunt": KEY})
    assert "search" not in offer_ids(state, seat)  # searched already
    plain = next(i for i, t in enumerate(state.tiles) if content.room(t.room).symbol != "item"
                 and i != zombie(state).tile)
    state.explorers[seat].tile = plain
    assert "search" not in offer_ids(state, seat)
    state.tiles[room].tokens.clear()
    others = [i for i, t in enumerate(state.tiles) if i != room][:5]
    for tile_id in others:
        state.tiles[tile_id].tokens.append({"kind": "searched", "card": "", "haunt": KEY})
    state.explorers[seat].tile = room
    assert PLUGIN.tokens_left(state) == 0 and "search" not in offer_ids(state, seat)
    assert PLUGIN.offers(state, traitor_of(state)) == []


def _searching(state: BetrayalState) -> tuple[int, int]:
    seat = hero_turn(state)
    room = item_room(state)
    state.explorers[seat].tile = room
    return seat, room


def test_a_weapon_found_3_up(dice: list[int]) -> None:
    """Seed 000: "3+ Put a Searched token on your tile. Look at the top three cards of
    the Item deck. Take one of them and bury the rest." """
    state, _ = start()
    seat, room = _searching(state)
    top = list(state.decks["item"][:3])
    state, events = act(state, seat, "search")
    assert state.pending is not None and state.pending.kind == "roll_trait"
    assert sorted(state.pending.labels) == ["Knowledge", "Speed"]
    assert any(t.endswith("for a weapon: Speed or Knowledge roll, 3+ needed.")
               for t in texts(events))
    dice += [2, 1] + [0] * 6  # a total of 3 on whichever trait
    state, more = choose(state, "Knowledge")
    assert hh.searched(state, room) and PLUGIN.tokens_left(state) == 4
    assert state.pending is not None and state.pending.kind == "henry_keep"
    assert state.pending.private
    assert state.decks["item"][:3] == top  # looked at, still on the deck during the choice
    names = [content.card(k).name for k in top]
    assert sorted(state.pending.labels) == sorted(f"Keep {n}" for n in names)
    keep = state.pending.labels[1].removeprefix("Keep ")
    kept = next(k for k in top if content.card(k).name == keep)
    state, last = choose(state, 1)
    assert kept in state.explorers[seat].cards
    rest = [k for k in top if k != kept]
    assert sorted(state.decks["item"][-2:]) == sorted(rest)  # buried: the bottom
    assert not any(k in state.decks["item"][:-2] for k in top)
    said = more + last
    assert any(t.endswith("finds something among the junk of the " + content.room(
        state.tiles[room].room).name + ".") for t in said)
    assert any(t.endswith("buries 2 cards at the bottom of the Item deck.") for t in said)
    assert not any(content.card(k).name in t for k in rest for t in said)  # never named


def test_nothing_found_0_to_2(dice: list[int]) -> None:
    """Seed 000: "0–2 Put a Searched token on your tile." """
    state, _ = start()
    seat, room = _searching(state)
    deck = list(state.decks["item"])
    cards = list(state.explorers[seat].cards)
    state, _ = act(state, seat, "search")
    dice += [1, 1] + [0] * 6
    state, said = choose(state, 0)
    assert state.pending is None and hh.searched(state, room)
    assert state.decks["item"] == deck and state.explorers[seat].cards == cards
    assert any(t.endswith("upside down and finds nothing useful.") for t in said)
    assert "search" not in offer_ids(state, seat)


# ---------------------------------------------------------------- Banish Zombie Hockstetter

def _with_zombie(state: BetrayalState) -> int:
    seat = hero_turn(state)
    state.explorers[seat].tile = zombie(state).tile
    return seat


def test_banish_is_offered_with_hockstetter() -> None:
    """Seed 000: "While on a tile with Hockstetter, make a Sanity roll." """
    state, _ = start()
    seat = hero_turn(state)
    state.explorers[seat].tile = next(i for i in range(len(state.tiles))
                                      if i != zombie(state).tile)
    assert "banish" not in offer_ids(state, seat)
    _with_zombie(state)
    assert "banish" in offer_ids(state, seat)
    assert PLUGIN.offers(state, traitor_of(state)) == []


def test_banished_5_up(dice: list[int]) -> None:
    """Seed 000: "5+ Remove Hockstetter from the board. He's not real." """
    state, _ = start()
    seat = _with_zombie(state)
    dice += [2, 2, 1] + [0] * 5
    state, events = act(state, seat, "banish")
    assert hh.hockstetter(state) is None and sides.monsters(state) == []
    assert "Hockstetter flickers and is gone. He was never real: it was only playing tricks." \
        in texts(events)
    assert "banish" not in offer_ids(state, seat)


def test_banish_fails_0_to_4_one_mental_damage(dice: list[int]) -> None:
    """Seed 000: "0–4 Take 1 Mental damage." """
    state, _ = start()
    seat = _with_zombie(state)
    before = {t: traits.index(state, seat, t) for t in ("sanity", "knowledge")}
    dice += [2, 2] + [0] * 6
    state, events = act(state, seat, "banish")
    if state.pending is not None:  # which trait takes the point
        state, _ = choose(state, "Sanity")
    assert hh.hockstetter(state) is not None
    lost = sum(before[t] - traits.index(state, seat, t) for t in before)
    assert lost == 1
    assert any("nerve cracks" in t for t in texts(events))


# ---------------------------------------------------------------- Hockstetter's shield

def test_hockstetter_shields_henry_while_awake() -> None:
    """Seed 000: "Hockstetter can help protect Bowers." Designed: while he stands awake
    in Henry's room, no hero can attack Henry."""
    state, _ = start()
    henry = traitor_of(state)
    seat = _with_zombie(state)
    state.explorers[henry].tile = zombie(state).tile
    targets = {c.target for c in combat.choices(state, seat)}
    assert henry not in targets and f"m{zombie(state).id}" in targets
    zombie(state).stunned = True
    assert henry in {c.target for c in combat.choices(state, seat)}
    zombie(state).stunned = False
    zombie(state).tile = next(i for i in range(len(state.tiles))
                              if i != state.explorers[henry].tile)
    assert henry in {c.target for c in combat.choices(state, seat)}
    assert PLUGIN.can_attack(state, str(henry), str(seat))  # Henry strikes freely


# ---------------------------------------------------------------- winning

def test_the_heroes_win_when_henry_dies() -> None:
    """Seed 000: "The heroes win when the traitor, who is now playing as Henry Bowers,
    is defeated." """
    state, _ = start()
    assert PLUGIN.winner(state) is None
    events = kill(state, traitor_of(state))
    flow.settle(Ctx(state))
    assert state.over and state.haunt is not None
    assert (state.haunt.winner, state.haunt.reason) == ("heroes", "Henry Bowers is dead.")
    assert not any(t.startswith("Henry crosses") for t in texts(events))


def test_henry_wins_by_crossing_off_his_list() -> None:
    """Designed: Henry wins when {kills} heroes of his list are dead, however they die."""
    state, _ = start(5)
    listed = hh.kill_list(state)
    spared = [h for h in sides.heroes(state) if h not in listed]
    assert len(listed) == 3 and len(spared) == 1
    kill(state, spared[0])
    assert hh.crossed(state) == [] and PLUGIN.winner(state) is None
    said = texts(kill(state, listed[0]))
    name = content.explorer(state.explorers[listed[0]].key).name
    assert f"Henry crosses {name} off his kill list (1 of 2)." in said
    assert PLUGIN.winner(state) is None
    assert f"{name} (crossed off)" in PLUGIN.board_note(state)
    kill(state, listed[1])
    assert PLUGIN.winner(state) == ("traitor", "2 heroes of Henry's kill list are dead.")


def test_henry_wins_when_the_last_round_ends() -> None:
    """Designed (`last_round`): Henry alive when round {rounds} ends slips away."""
    state, _ = start()
    assert state.haunt is not None
    last = PLUGIN.last_round(state)
    assert last == 15
    state.haunt.round = last
    state.pending = None
    state.script.clear()
    ctx = Ctx(state)
    flow._new_round(ctx)
    assert state.over and state.haunt.winner == "traitor"
    assert state.haunt.reason == ("Henry Bowers is still alive when round 15 ends: he slips "
                                  "away into the night.")
    for side in ("traitor", "heroes"):
        assert any("round 15" in str(r) or "{rounds}" in str(r)
                   for r in PLUGIN.data.books[side]["rules"])


# ---------------------------------------------------------------- the AI

def test_ai_goals() -> None:
    state, _ = start()
    seat = hero_turn(state)
    henry = traitor_of(state)
    unsearched = {i for i, t in enumerate(state.tiles) if content.room(t.room).symbol == "item"}
    assert PLUGIN.goals(state, seat) == unsearched  # no weapon yet: look for one
    weapon = next(k for k in state.decks["item"] if content.card(k).weapon)
    state.decks["item"].remove(weapon)
    state.explorers[seat].cards.append(weapon)
    assert PLUGIN.goals(state, seat) == {state.explorers[henry].tile}  # armed: hunt Henry
    assert PLUGIN.goals(state, henry) <= {state.explorers[h].tile for h in hh.kill_list(state)} \
        | {zombie(state).tile}
    home = state.explorers[henry].tile
    for h in sides.heroes(state):  # a hero near Henry: Hockstetter guards him
        state.explorers[h].tile = home
    assert PLUGIN.monster_goals(state, zombie(state)) == {home}
    away = monsters.distances(state, {home})
    far = max(away, key=lambda t: (away[t], -t))
    assert away[far] > hh.GUARD_RANGE
    for h in sides.heroes(state):  # none near: he hunts the list
        state.explorers[h].tile = far
    assert PLUGIN.monster_goals(state, zombie(state)) == {far}


def test_ai_banishes_before_searching() -> None:
    state, _ = start()
    seat = _with_zombie(state)
    offers = PLUGIN.offers(state, seat)
    pick = PLUGIN.ai_offer(state, seat, offers)
    assert pick is not None and pick.id == "banish"


@pytest.mark.parametrize("winner", ["heroes", "traitor"])
def test_ai_games_each_side_wins(winner: str) -> None:
    seed = seed_for(KEY, winner)
    state, events = played(KEY, seed)
    assert state.over and state.haunt is not None and state.haunt.winner == winner
    said = texts(events)
    assert any("Look for a Weapon" in t or "searches the" in t for t in said) \
        or any("stares Zombie Hockstetter down" in t for t in said)


# ---------------------------------------------------------------- secrets

@pytest.mark.parametrize("seed", [1, 2])
def test_the_traitors_book_stays_secret(seed: int) -> None:
    state, events = played(KEY, seed)
    traitor = traitor_of(state)
    books = [e for e in events if e.kind == "book" and not e.audience.is_public]
    assert [e.audience.encode() for e in books] == [f"player:{traitor}", "team:heroes"]
    book = PLUGIN.data.books["traitor"]
    values = PLUGIN.numbers(state)
    secret = [fill(str(book[p]).strip(), **values) for p in ("story", "know", "win")]
    secret += [fill(str(r), **values) for r in book["rules"]]
    over = next(i for i, e in enumerate(events) if e.kind == "game_over")
    for e in events[:over]:
        if e.audience.is_public:
            assert not any(s in e.text for s in secret), e.text
    assert flow.book_text(state, "traitor") in books[0].text
    assert all(s not in PLUGIN.board_note(state) for s in secret)
