"""IT: Evil Below, how a game ends, at its edges: an ending reached by the last die of a
roll, at two and at seven players; a counterattack or an Evil Influence attack that ends
it once its damage is resolved; a fight that runs the Fight Stack dry and wins; and what
the table reads once it is over (nothing more to play, the reason in English and in
Traditional Chinese). The earlier passes (tests/test_evil_below_rules.py and the
second to fourth passes) hold each ending's main case; these hold the edges."""

from __future__ import annotations

import pytest

from bot.core.actions import Action
from bot.core.errors import IllegalAction
from bot.core.events import Event
from bot.core.story import LogLine
from bot.games.evilbelow import content, effects
from bot.games.evilbelow.content import BALLOON, evil_below_line
from bot.games.evilbelow.state import (
    FIGHT,
    LOSS_ATTACKS,
    LOSS_BRAVERY,
    LOSS_EMPTY,
    LOSS_INFLUENCE,
    LOSSES,
    WIN,
    EvilBelowState,
)
from bot.locales import speaking
from tests.evil_below_helpers import (
    BARRENS,
    GAME,
    NEIBOLT,
    PHARMACY,
    ROCK,
    SQUARE,
    STANDPIPE,
    act,
    arrange,
    card,
    choose,
    fight_ready,
    rolled,
    take,
)

ZH = "zh-TW"
SEVEN = ["bill", "bev", "mike", "richie", "eddie", "ben", "stan"]
ONE_BRAVERY = content.attack_ids()[6]  # designed: its 0/A line is "lower Bravery by 1"


def _cast(players: int) -> list[str]:
    return SEVEN[:players]


def _next_attack(state: EvilBelowState, attack: int) -> None:
    """This attack card next off the Attack pile."""
    for pile in (state.attack_pile, state.fight_stack, state.stack_hidden):
        if attack in pile:
            pile.remove(attack)
    state.attack_pile.append(attack)


# ---------------------------------------------------------------- the last die of a roll

@pytest.mark.parametrize("players", [2, 7])
def test_the_last_die_of_a_roll_can_fill_the_evil_influence_track(players: int) -> None:
    """'For each Balloon shown on the dice, Pennywise will abduct a victim' (RULES.md:
    in the dice' fixed order) and the players lose when 'All of the spaces in the Evil
    Influence track are filled with Victim tokens.' The Barrens' die takes its child
    first; the Pharmacy's, the last of the seven, fills the last space: lost there, and
    Pennywise makes no move after it."""
    state = arrange(_cast(players))
    take(state, content.board().influence_length - 2)
    state, events = rolled(state, {BARRENS: BALLOON, PHARMACY: BALLOON})
    assert state.over and state.result == LOSS_INFLUENCE
    assert len(state.track) == content.board().influence_length
    told = [e.data.get("location") for e in events if e.kind == "sighting"]
    assert told == [BARRENS, PHARMACY]
    assert events[-1].kind == "game_over" and events[-1].data == {"result": LOSS_INFLUENCE,
                                                                  "win": False}
    assert GAME.to_act(state) is None


@pytest.mark.parametrize("players", [2, 7])
def test_the_last_die_of_a_roll_can_empty_the_third_location(players: int) -> None:
    """'If three (or more) Locations have no Victim tokens remaining after Resolving
    Sightings, Pennywise wins immediately.' Two locations are empty; the Pharmacy's die,
    the last of the roll, takes its last victim (an attack token): the third is empty
    once every balloon is resolved, and the game is lost before Pennywise moves."""
    state = arrange(_cast(players))
    for loc in (NEIBOLT, STANDPIPE):
        state.box += [t for t in state.circles[loc] if t is not None]
        state.circles[loc] = [None] * 4
    state.circles[PHARMACY] = [None, None, None, state.circles[PHARMACY][3]]
    state, events = rolled(state, {BARRENS: BALLOON, PHARMACY: BALLOON})
    assert state.over and state.result == LOSS_EMPTY
    assert len(state.empty()) == 3
    assert [e.kind for e in events][-1] == "game_over"
    assert not any(e.kind == "pennywise" and "pennywise" in e.data for e in events)


@pytest.mark.parametrize("players", [2, 7])
def test_a_last_balloon_where_everyone_stands_breaks_a_bravery(players: int) -> None:
    """'If any of the Balloons are for a location where a player's Character is
    present, that player immediately loses 1 Bravery.' and the players lose when 'Any
    player's Bravery falls to 0.' Every Loser stands in the Pharmacy, the last seat at
    1 Bravery: each loses a point and the game is lost there, a Bravery loss."""
    state = arrange(_cast(players), {s: PHARMACY for s in range(players)})
    state.heroes[-1].bravery = 1
    state, _ = rolled(state, {PHARMACY: BALLOON})
    assert state.over and state.result == LOSS_BRAVERY
    assert [h.bravery for h in state.heroes] == [4] * (players - 1) + [0]


# ---------------------------------------------------------------- an attack that ends it

def test_a_counterattack_that_breaks_a_bravery_loses_within_the_fighters_turn() -> None:
    """'Instead, Pennywise counterattacks ... Resolve the effects on the revealed
    Pennywise Attack card' and 'After resolving the Attack, if any player's Bravery is
    reduced to zero, Pennywise claims that player as his final victim and all players
    lose.' Bev and Bill, both at 1 Bravery, fight; the attack card's point lands on
    Bill: lost in Bev's turn (the dice are never passed), the card back under the Attack
    pile, and the story counts the turn it ended in."""
    state = fight_ready(["bev", "bill"], [ONE_BRAVERY])
    for hero in state.heroes:
        hero.bravery = 1
    played = state.turns_played
    state, events = act(state, 0, "fight")
    state, more = act(state, 0, "reveal")
    assert state.pending is not None and state.pending.payload["targets"] == [0, 1]
    state, last = choose(state, 1)
    events += more + last
    assert state.over and state.result == LOSS_BRAVERY
    assert state.turn == 0 and state.turns_played == played
    assert state.attack_pile[0] == ONE_BRAVERY
    assert not any(e.kind == "turn" for e in last)
    log = [LogLine(e.kind, "public", e.text) for e in events]
    assert GAME.story(state, log).outcome == evil_below_line(
        "story.lost", turns=played + 1, why=evil_below_line("story.why_bravery"))


def test_the_thirteenth_attack_card_loses_once_its_attack_is_resolved() -> None:
    """'Every time a Victim token is placed on a Pennywise Attack symbol space on the
    Evil Influence track, Pennywise will attack the active player ... Once the Attack is
    resolved, place the card facedown on the Fight Stack.' and the players lose when
    'All 13 Pennywise Attack cards are in the Fight Stack.' The last card of the Attack
    pile strikes Bev and Ben in the Barrens; Bev takes its point, and only then, the card
    on the Fight Stack, is the game lost."""
    state = arrange(["bev", "ben"], {0: BARRENS, 1: BARRENS})
    take(state, content.board().influence_attacks[0] - 1)
    state.circles[BARRENS][0] = None  # the Barrens' next victim is its second child
    _next_attack(state, ONE_BRAVERY)
    state.fight_stack += state.attack_pile[:-1]
    state.attack_pile = state.attack_pile[-1:]
    state, _ = rolled(state, {SQUARE: BALLOON, BARRENS: BALLOON})
    assert not state.over and state.pending is not None  # whose Bravery the point takes
    assert state.held is not None and not state.attack_pile
    state, events = choose(state, 0)
    assert state.over and state.result == LOSS_ATTACKS
    assert sum(1 for c in state.fight_stack if content.is_attack(c)) == 13
    assert [h.bravery for h in state.heroes] == [3, 4]  # the balloon's point, the attack's
    assert [e.kind for e in events][-1] == "game_over"


# ---------------------------------------------------------------- a fight that wins

def test_a_fight_that_runs_the_stack_dry_stops_by_itself_and_wins() -> None:
    """'Players can continue to reveal cards until they choose to stop OR they reveal a
    Pennywise Attack card' and 'If the active player chooses to stop ... they gain the
    rewards for ALL Weakness cards whose conditions are met'; 'The players win only if
    they are able to move the Losers' Club Strength token to the end of the track.' The
    last card of the Fight Stack meets the face-up weakness one space short of the end:
    with nothing left to reveal the fight stops there, and the game is won."""
    state = fight_ready(["bev", "bill"], [card(NEIBOLT, ROCK), card(BARRENS, ROCK)])
    state.strength = content.board().strength_length - 1
    state.weakness_stacks = [["twin_totems"], [], []]
    state, _ = act(state, 0, "fight")
    state, _ = act(state, 0, "reveal")
    assert state.phase == FIGHT
    state, events = act(state, 0, "reveal")
    assert state.over and state.result == WIN
    assert state.strength == content.board().strength_length
    assert state.weakness_done == ["twin_totems"] and state.fight_stack == []
    assert events[-1].kind == "game_over" and events[-1].data["win"] is True


# ---------------------------------------------------------------- once it is over

def _ended(result: str) -> EvilBelowState:
    """Three Losers mid-turn, one of them holding a Bike and a card for the Fight Stack
    (an out-of-turn action while the game runs), and the game ended for `result`."""
    state = fight_ready(["bev", "bill", "ben"], [card(NEIBOLT, ROCK)])
    state.heroes[2].bike = True
    state.heroes[2].hand = [card(SQUARE, ROCK)]
    assert GAME.out_of_turn(state) == [2]
    effects.finish(state, result, [])
    return state


@pytest.mark.parametrize("result", [WIN, *LOSSES])
@pytest.mark.parametrize("language", ["en", ZH])
def test_nothing_is_played_once_the_game_is_over(result: str, language: str) -> None:
    """'Losing the Game' / 'Winning the Game' end the game: once over, no seat acts (not
    even a Bike's rider out of turn), and an action is refused in the reader's
    language."""
    state = _ended(result)
    assert GAME.to_act(state) is None and GAME.out_of_turn(state) == []
    assert all(GAME.options(state, seat) == [] for seat in range(3))
    with speaking(language):
        for seat, action in ((0, Action("end_turn")), (2, Action("ride", {"to": BARRENS}))):
            with pytest.raises(IllegalAction) as caught:
                GAME.apply(state, seat, action)
            assert caught.value.message == evil_below_line("errors.game_over")


@pytest.mark.parametrize("result", [WIN, *LOSSES])
@pytest.mark.parametrize("language", ["en", ZH])
def test_the_status_and_the_story_give_the_ending_and_its_reason(result: str,
                                                                 language: str) -> None:
    """Seed 001's 'Losing the Game' names four ways to lose, and 'Winning the Game' one
    way to win: /game status after the end says which, with no one's turn, and the story
    says who won after how many turns and why, each in the reader's language."""
    state = _ended(result)
    events: list[Event] = []
    effects.finish(state, WIN if result != WIN else LOSS_BRAVERY, events)  # ends once
    assert events == [] and state.result == result
    with speaking(language):
        status = GAME.status_text(state).splitlines()
        story = GAME.story(state, [])
        assert status[-1] == evil_below_line(f"status.over_{result}")
        assert evil_below_line("status.turn", player=state.players[0]) not in status
        if result == WIN:
            assert story.outcome == evil_below_line("story.win", turns=1)
        else:
            assert story.outcome == evil_below_line(
                "story.lost", turns=1, why=evil_below_line(f"story.why_{result}"))
        assert all(seat.won == (result == WIN) for seat in story.seats)
