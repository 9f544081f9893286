"""Betrayal engine: the step interpreter runs every step of data/betrayal/README.md, and
a game saved while a step waits for a choice resumes exactly."""

from __future__ import annotations

import json

from bot.games.betrayal import GAME, content
from bot.games.betrayal.effects import README_STEPS, STEPS
from tests.test_betrayal_engine_helpers import (
    MISSY,
    OX,
    apply,
    at,
    choose,
    deck_top,
    dice,
    hold,
    labels,
    new_game,
    put,
    same,
    tile,
)
from tests.test_betrayal_engine_traits import run_steps

__all__ = ["dice"]


def test_every_readme_step_has_an_executor() -> None:
    assert set(README_STEPS) <= set(STEPS)
    readme = (content.DATA / "betrayal" / "README.md").read_text(encoding="utf-8")
    for kind in README_STEPS:
        assert f"`{kind}:" in readme, kind


def test_draw_resolves_each_card() -> None:
    state = new_game()
    deck_top(state, "item", "axe")
    deck_top(state, "omen", "holy_symbol")
    state, events = run_steps(state, [{"draw": {"deck": "item", "count": 1}},
                                      {"draw": {"deck": "omen", "count": 1}}])
    assert state.explorers[OX].cards == ["axe", "holy_symbol"]
    assert state.omens_drawn == 1 and value_gain(events, "Sanity")


def value_gain(events: list[str], trait: str) -> bool:
    return any(f"gains 2 steps of {trait}" in e for e in events)


def test_bite_is_counted_but_not_carried(dice) -> None:  # type: ignore[no-untyped-def]
    state = new_game()
    deck_top(state, "omen", "bite")
    dice.extend([0, 0, 0, 0, 2, 2, 2, 2, 2])  # the bite: 0; Ox's Might: 10
    state, _ = run_steps(state, [{"draw": {"deck": "omen", "count": 1}}])
    assert state.omen_table == ["bite"] and state.omens_drawn == 1
    assert state.explorers[OX].cards == [] and not state.resolving


def test_a_lasting_event_stays_in_front_of_its_explorer(dice) -> None:  # type: ignore[no-untyped-def]
    state = new_game()
    deck_top(state, "event", "lights_out")
    state, events = run_steps(state, [{"draw": {"deck": "event", "count": 1}}])
    assert state.explorers[OX].lasting == ["lights_out"] and "lights_out" not in \
        state.discards["event"]
    assert any("keeps Lights Out" in e for e in events)


def test_a_missing_handler_says_so_and_goes_on() -> None:
    state = new_game()
    state, events = run_steps(state, [{"custom": "no_such_handler"},
                                      {"gain": {"trait": "might", "amount": 1}}])
    assert any("`no_such_handler` is not in the bot yet" in e for e in events)
    assert state.explorers[OX].traits["might"] == 3


def test_move_to_a_named_or_a_chosen_room() -> None:
    state = new_game()
    at(state, OX, "foyer")
    state, events = run_steps(state, [{"move": {"to": "entrance_hall"}}])
    assert state.explorers[OX].tile == tile(state, "entrance_hall")
    state, events = run_steps(state, [{"move": {"to": "crypt"}}])
    assert any("not in the house yet" in e for e in events)
    state, _ = run_steps(state, [{"move": {"to": "choose_placed"}}])
    assert state.pending and state.pending.kind == "tile_pick"
    state, _ = choose(state, "Upper Landing")
    assert state.explorers[OX].tile == tile(state, "upper_landing")


def test_tokens_here_or_chosen_and_linked_pairs() -> None:
    state = new_game()
    state, _ = run_steps(state, [{"token": {"kind": "blessing", "place": "here"}}],
                         source="a_moment_of_hope")
    assert state.tiles[tile(state, "entrance_hall")].tokens == [
        {"kind": "blessing", "card": "a_moment_of_hope"}]
    state, _ = run_steps(state, [{"token": {"kind": "secret_passage", "place": "here"}},
                                 {"token": {"kind": "secret_passage",
                                            "place": "choose_placed"}}],
                         source="secret_passage")
    state, _ = choose(state, "Basement Landing")
    landing = tile(state, "basement_landing")
    assert "Take the secret passage to the Basement Landing" in labels(state)
    state.tiles[tile(state, "entrance_hall")].tokens.clear()
    assert state.tiles[landing].tokens[0]["link"] == tile(state, "entrance_hall")


def test_a_token_offers_its_cards_use_once_a_turn(dice) -> None:  # type: ignore[no-untyped-def]
    state = new_game()
    state.tiles[tile(state, "entrance_hall")].tokens.append(
        {"kind": "closet", "card": "closet_door"})
    assert "Use the closet (Closet Door)" in labels(state)
    deck_top(state, "item", "axe")
    dice.extend([2, 2])
    state, _ = apply(state, "act", what="closet_door-0")
    assert state.explorers[OX].cards == ["axe"]
    assert "Use the closet (Closet Door)" not in labels(state)


def test_a_token_removes_itself() -> None:
    state = new_game()
    hold(state, OX, "skeleton_key")
    state.tiles[tile(state, "entrance_hall")].tokens.append({"kind": "safe",
                                                             "card": "locked_safe"})
    state, events = apply(state, "act", what="locked_safe-0-key")
    assert len(state.explorers[OX].cards) == 3  # the key and two items
    assert state.tiles[tile(state, "entrance_hall")].tokens == []
    assert not any("rolls" in e for e in events)


def test_may_decline_skips_the_rest_of_the_card() -> None:
    state = new_game()
    state, _ = run_steps(state, [{"custom": "may_decline"},
                                 {"gain": {"trait": "might", "amount": 1}}],
                         source="something_hidden")
    state, events = choose(state, "Leave it")
    assert state.explorers[OX].traits["might"] == 2 and any("leaves the" in e for e in events)


def test_discard_self() -> None:
    state = new_game()
    hold(state, OX, "druidic_charm")
    state, _ = run_steps(state, [{"custom": "discard_self"}], source="druidic_charm")
    assert state.discards["item"] == ["druidic_charm"] and not state.explorers[OX].cards


def test_choices_go_to_the_explorer_the_step_is_about() -> None:
    state = new_game()
    state, _ = run_steps(state, [{"damage": {"kind": "mental", "amount": 1}}], seat=MISSY)
    assert GAME.to_act(state) == MISSY and GAME.options(state, OX) == []
    state, _ = choose(state, 0)
    assert GAME.to_act(state) == OX


def test_a_paused_card_survives_a_save(dice) -> None:  # type: ignore[no-untyped-def]
    """Damage inside an outcome inside an event, paused on the split, saved, loaded."""
    state = new_game()
    deck_top(state, "event", "phone_call")  # 2 dice; 0: 2 dice of physical damage
    dice[:] = [0, 0, 2, 1]
    state, _ = run_steps(state, [{"draw": {"deck": "event", "count": 1}}])
    assert state.pending and state.pending.kind == "damage_split"
    assert state.resolving == ["phone_call"] and len(state.script) >= 2
    loaded = GAME.load(json.loads(json.dumps(GAME.dump(state))))
    assert same(loaded, state)
    for s in (state, loaded):
        s, _ = choose(s, "All 3 to Might")
        assert s.pending is None and s.discards["event"] == ["phone_call"]
        assert s.explorers[OX].traits["might"] == 0 and not s.script


def test_the_rope_spares_the_slides_damage() -> None:
    state = new_game()
    hold(state, OX, "rope")
    state, events = run_steps(state, [{"damage": {"kind": "physical", "amount": 2}}],
                              source="mystic_slide")
    assert state.pending is None and any("Rope spares" in e for e in events)


def test_a_revolving_wall_joins_rooms_only_through_its_roll() -> None:
    from bot.games.betrayal.links import connect, house_links

    state = new_game()
    cellar = put(state, "wine_cellar", "ground", 1, 0, rotation=0)  # no door faces the hall
    hall = tile(state, "entrance_hall")
    connect(state, "wall_switch", hall, cellar, "revolving_wall")
    assert (hall, cellar, "wall_switch") in house_links(state)
    found = labels(state)
    assert not any(label.startswith("Move east") for label in found)
    assert "Use the wall switch (Revolving Wall)" in found
