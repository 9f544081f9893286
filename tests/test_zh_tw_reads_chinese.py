"""A Chinese (zh-TW) table reads Chinese only (README, Languages: "Public posts use the
server's language; ephemeral answers and DMs use the user's own locale").

The engines play in English, the truth that is saved; a table that reads another
language has each step played again on the same state under that language, and its
lines taken from the replay (bot/languages.py's `said_in`). So whatever the engine keeps
in the state as words is read back in English by every language's replay: what the
state keeps must be the words' keys and values, said when they are told. `said` below
plays a step through `said_in` itself (English first, then Chinese on the same state, the
choice's Chinese words kept with the English state); a Chinese reader reads each
event's `text_in(CHINESE)`.

The leaks each test pins were seen in zh-TW AI games (the sweep at the end plays every
haunt, every Neibolt scenario, Cthulhu and Evil Below): a monster's moves, why a side
won (/game status, the story), All Living Things Must Abide's search, and the second
question of a room picked floor first. A line may name players and numbers; "AI" marks
an AI seat by design.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import pytest

from bot import games, languages
from bot.core.actions import Action
from bot.core.events import Event
from bot.core.seats import Seat
from bot.core.story import LogLine
from bot.games.base import PlayerInfo
from bot.games.betrayal import GAME, effects, movement, traits
from bot.games.betrayal.context import Ctx
from bot.games.betrayal.haunt_list import haunts
from bot.games.betrayal.haunting import base, monsters, sides
from bot.games.betrayal.state import (
    MONSTERS,
    STATE_FORMATS,
    BetrayalState,
    haunt_words_kept,
)
from bot.games.neibolt.scenarios import all_living_things_must_abide as al
from bot.locales import CHINESE, ENGLISH, speaking
from bot.store import Table
from bot.summary import seat_line
from tests.betrayal_haunt_helpers import begin, edition_of, house, started
from tests.betrayal_haunt_rig import fixed, tile, turn_of
from tests.test_neibolt_all_living_things_must_abide import trait_dice

__all__ = ["fixed"]  # a fixture, used by name

# An English word: two letters or more, not a command's name ("/secret"), not "AI".
ENGLISH_WORD = re.compile(r"(?<![/\w])(?!AI\b)[A-Za-z][A-Za-z'-]+")
NAMES = ["甲", "乙", "丙", "丁", "戊", "己"]  # the players, named in Chinese


# English punctuation between Chinese words: a list joined with code's ", " (or "; ")
# where the language joins with "、" (bot.texts' `listed`, `and_list`).
ENGLISH_JOIN = re.compile(r"[\u3000-\u9fff\uff00-\uffef][,;] ")


def english_in(lines: list[str]) -> list[str]:
    """The lines that hold an English word."""
    return sorted({line for text in lines for line in text.split("\n")
                   if ENGLISH_WORD.search(line)})


def joined_in_english(lines: list[str]) -> list[str]:
    """The lines whose Chinese words are joined the English way."""
    return sorted({line for text in lines for line in text.split("\n")
                   if ENGLISH_JOIN.search(line)})


def spoken(game: Any, played: Callable[[], tuple[Any, list[Event]]],
           ) -> tuple[Any, list[Event]]:
    """A step played through `languages.said_in` for a Chinese table: the English state
    it stored (a choice it paused on keeps its Chinese words) and its events, each with
    its Chinese text. A step whose twins differ is said in English alone, which
    `english_in` then finds."""
    def step() -> tuple[Table, list[Event]]:
        state, events = played()
        seats = [Seat(name, n + 1, language=CHINESE) for n, name in enumerate(NAMES)]
        return Table(channel_id=1, guild_id=2, kind=game.key, host_id=1, seed=1,
                     seats=seats[:len(state.players)], state=game.dump(state),
                     guild_language=CHINESE), events

    table, events = languages.said_in(step, (CHINESE,))
    assert table.state is not None
    return game.load(table.state), events


def said(game: Any, state: Any, seat: int, action: Action) -> tuple[Any, list[Event]]:
    """One game step as said_in plays it (`spoken`)."""
    return spoken(game, lambda: game.apply(state, seat, action))


def chinese(events: list[Event]) -> list[str]:
    """The events as a Chinese reader reads them."""
    return [e.text_in(CHINESE) for e in events]


def ai_said(game: Any, state: Any, seat: int) -> tuple[Any, list[Event]]:
    with speaking(ENGLISH):
        action = game.ai_action(state, seat)
    return said(game, state, seat, action)


def _rats(traitor: bool = True) -> BetrayalState:
    """Pay the Piper on seed 1's house at the start of the traitor's turn (else the
    first hero's), its rats gone but for those a test puts in."""
    state = GAME.copy_state(started("pay_the_piper")[0])
    state.script.clear()
    state.pending = None
    for monster in state.monsters:
        monster.alive = False
    assert state.haunt is not None and state.haunt.traitor is not None
    turn_of(state, state.haunt.traitor if traitor else sides.heroes(state)[0])
    return state


def _rat(state: BetrayalState, room: str) -> int:
    return monsters.spawn(Ctx(state), "rat", tile(state, room), quiet=True).id


# ---------------------------------------------------------------- the monsters' moves

def test_the_monsters_moves_are_told_in_chinese() -> None:
    """The traitor moves the monsters one room at a time; the table is told their moves
    in one line when a monster attacks or their turn ends. The moves waited in the saved
    state as English sentences, so the Chinese line read "🐾 The Rat 1 moves from the
    Foyer to the Entrance Hall."."""
    state = _rats()
    traitor = state.turn.seat
    first, second = _rat(state, "foyer"), _rat(state, "foyer")  # each moves 1 room at least
    state, _ = said(GAME, state, traitor, Action("end_turn"))
    assert state.haunt is not None and state.haunt.stage == MONSTERS
    for mover in (first, second):
        state, dm = said(GAME, state, traitor, Action(monsters.M_MOVE, {
            "m": mover, "to": tile(state, "entrance_hall")}))
        assert english_in(chinese(dm)) == []  # the traitor's own line, at once
    state, told = said(GAME, state, traitor, Action(monsters.M_END))
    moved = chinese([e for e in told if e.kind == "move"])
    with speaking(CHINESE):
        rat = base.load_data("pay_the_piper").monsters["rat"].name
    assert moved and f"{rat} {first}" in moved[0] and f"{rat} {second}" in moved[0]
    assert english_in(moved) == []


# ---------------------------------------------------------------- why a side won

def _won(state: BetrayalState, seat: int) -> tuple[BetrayalState, list[Event]]:
    """The action that settles the game (the check after every action), said twice."""
    return said(GAME, state, seat, Action("end_turn"))


def _read(state: BetrayalState, told: list[Event]) -> list[str]:
    """What a Chinese reader reads of the finished game: /game status, and the story
    told from the game's log as Chinese read it, and from a log that never read Chinese
    (a table that read English alone, its game then opened in /game history)."""
    assert state.over and state.haunt is not None and state.haunt.reason
    log = [LogLine(e.kind, e.audience.encode(), e.text_in(CHINESE), e.seat) for e in told]
    with speaking(CHINESE):
        status = GAME.status_text(state)
        return [status.split("\n")[0], GAME.story(state, log).outcome,
                GAME.story(state, []).outcome]


def test_why_the_heroes_won_reads_in_chinese() -> None:
    """Pay the Piper: every rat dead, the heroes win. /game status read "英雄獲勝 ·
    every rat is dead." (the reason kept in English)."""
    state = _rats(traitor=False)
    _rat(state, "foyer")
    for monster in state.monsters:
        monster.alive = False
    state, told = _won(state, state.turn.seat)
    assert state.haunt is not None and state.haunt.winner == sides.HERO
    assert english_in(_read(state, told)) == []


def test_a_reason_naming_a_monster_names_it_in_chinese() -> None:
    """It's Alive: the Spear pierced an organ. The organ's name is kept as its kind and
    named in the language the reason is read in."""
    state = GAME.copy_state(started("its_alive")[0])
    state.script.clear()
    state.pending = None
    assert state.haunt is not None
    state.haunt.progress["slain"] = "heart"
    hero = next(s for s in sides.heroes(state))
    turn_of(state, hero)
    state, told = _won(state, hero)
    assert state.haunt is not None and state.haunt.winner == sides.HERO
    read = _read(state, told)
    with speaking(CHINESE):
        heart = base.load_data("its_alive").monsters["heart"].name
    assert all(heart in line for line in read) and english_in(read) == []


def test_a_reason_kept_before_its_words_were_loads_and_reads_as_it_was() -> None:
    """A state saved before the reason and the monsters' moves kept their words (the
    format before `haunt_words_kept`, state.py) still loads and plays: its moves are
    told as they were stored, its reason read as it was."""
    state = _rats()
    _rat(state, "foyer")
    raw = GAME.dump(state)
    raw["format"] = STATE_FORMATS.steps.index(haunt_words_kept)
    assert raw["haunt"].pop("reason_words") == {}
    raw["haunt"]["moved"] = ["The Rat moves from the Foyer to the Entrance Hall."]
    raw["haunt"]["reason"] = "every rat is dead."
    old = GAME.load(raw)
    assert old.haunt is not None and old.haunt.reason_words == {}
    assert old.haunt.moved == [{"said": "The Rat moves from the Foyer to the Entrance Hall."}]
    assert base.reason_text(old) == "every rat is dead."
    ctx = Ctx(old)
    monsters.tell_moves(ctx)
    assert [e.text for e in ctx.events] == [
        "🐾 The Rat moves from the Foyer to the Entrance Hall."]


# ---------------------------------------------------------------- All Living Things

def test_the_search_for_something_to_kill_it_reads_in_chinese(fixed: list[int]) -> None:
    """Seed 000, All Living Things Must Abide: "make a Knowledge or Sanity roll ... look
    at the top three cards of the Item or Omen deck. Take one of them and bury the
    rest." The search's line said "Knowledge or Sanity檢定" and its last line buried the
    cards "埋到item牌堆底": the traits and the deck were passed in English and by key."""
    state = GAME.copy_state(started(al.KEY)[0])
    state.script.clear()
    state.pending = None
    assert state.haunt is not None
    hero = next(s for s in sides.heroes(state))
    turn_of(state, hero)
    here = state.tile_of("entrance_hall") or 0
    state.tiles[here].tokens.clear()
    state.explorers[hero].tile, state.explorers[hero].side = here, None
    state.explorers[hero].cards.clear()
    state.haunt.progress["left"] = 1
    best = max(("knowledge", "sanity"), key=lambda t: traits.value(state, hero, t))
    fixed.extend([2] * trait_dice(state, hero, best) * 2)  # English, then Chinese
    lines: list[str] = []
    state, told = said(GAME, state, hero, Action("act", {"what": "search"}))
    lines += chinese(told)
    for _ in range(4):  # the trait, the deck, the card
        if state.pending is None:
            break
        with speaking(CHINESE):
            lines += [o.label for o in GAME.options(state, state.pending.seat)]
        state, told = said(GAME, state, state.pending.seat, Action("choose", {"pick": 0}))
        lines += chinese(told)
    assert any("埋" in line for line in lines)  # the cards were buried
    assert english_in(lines) == []


def test_an_empty_deck_is_named_in_chinese(fixed: list[int]) -> None:
    """With both decks empty the search finds nothing to look at; the line named them
    "Item or Omen" in English."""
    state = GAME.copy_state(started(al.KEY)[0])
    state.script.clear()
    state.pending = None
    assert state.haunt is not None
    hero = next(s for s in sides.heroes(state))
    ctx = Ctx(state)
    state.decks["item"][:] = []
    state.decks["omen"][:] = []
    with speaking(CHINESE):
        ctx.push([{"_alta_look": {}}], hero)
        effects.run(ctx)
    assert [e.text for e in ctx.events] and english_in([e.text for e in ctx.events]) == []


# ---------------------------------------------------------------- a room picked by floor

def test_the_room_asked_after_its_floor_is_asked_in_chinese() -> None:
    """Past 20 rooms a room is picked floor first (movement.PICK_LIMIT); the room's
    question was kept in the state as the floor's English prompt, so a Chinese reader
    was asked "Where do you go?" in English once the floor was picked."""
    house_state = GAME.copy_state(house(4, 1, tiles=30))
    assert len(house_state.tiles) > movement.PICK_LIMIT
    seat = house_state.turn.seat

    def pick_a_room() -> tuple[BetrayalState, list[Event]]:
        ctx = Ctx(GAME.copy_state(house_state))
        ctx.push([{"move": {"to": "choose_placed"}}], seat)
        effects.run(ctx)
        return ctx.state, ctx.events

    state, _ = spoken(GAME, pick_a_room)
    assert state.pending is not None and state.pending.kind == "floor_pick"
    floor = next(i for i, f in enumerate(state.script[-1].steps[0]["_pick_tile"]["floors"])
                 if len([t for t in state.tiles if t.floor == f]) > 1)
    state, _ = said(GAME, state, seat, Action("choose", {"pick": floor}))
    assert state.pending is not None and state.pending.kind == "tile_pick"
    with speaking(CHINESE):
        asked = [state.pending.asked, *(str(o.group) for o in GAME.options(state, seat)),
                 GAME.status_text(state)]
    assert english_in(asked) == []


# ---------------------------------------------------------------- the sweep

STATUS_EVERY = 9  # /game status and every seat's "My secrets", read every few steps


def play_reading(game: Any, state: Any, limit: int) -> tuple[Any, list[str]]:
    """AI plays every seat, each step said as said_in says it; what a Chinese reader
    reads meanwhile (every line, button, question, status and secret) and the story."""
    read: list[str] = []
    log: list[LogLine] = []
    for count in range(limit):
        seat = game.to_act(state)
        if game.is_over(state) or seat is None:
            break
        with speaking(CHINESE):
            for option in game.options(state, seat):
                read += [option.label, str(option.group or "")]
            if count % STATUS_EVERY == 0:
                read.append(game.status_text(state))
                read += [game.private_view(state, s) for s in range(len(state.players))]
        state, told = ai_said(game, state, seat)
        read += chinese(told)
        log += [LogLine(e.kind, e.audience.encode(), e.text_in(CHINESE), e.seat) for e in told]
    with speaking(CHINESE):
        read.append(game.status_text(state))
        if game.is_over(state):
            story = game.story(state, log)
            read += [story.outcome, *story.turning,
                     *(seat_line(NAMES[n], part) for n, part in enumerate(story.seats))]
    return state, read


HAUNTS = sorted(haunts())  # the classic 8, then the Neibolt House's 5


@pytest.mark.parametrize("seed", [1, 2, 3])
@pytest.mark.parametrize("key", HAUNTS)
def test_every_haunt_reads_in_chinese(key: str, seed: int) -> None:
    """Each haunt begun on an AI-built house and played out by the AI, said in Chinese
    step by step: no English word, and no list joined the English way (the damage
    split's buttons read "1 點給力量（2 → 1）, 4 點給速度（2 → 0）")."""
    with speaking(ENGLISH):
        home = house(4, seed, 25, edition_of(key))
    state, first = spoken(GAME, lambda: begin(home, key))
    state, read = play_reading(GAME, state, 900)
    assert english_in(chinese(first) + read) == []
    assert joined_in_english(chinese(first) + read) == []


@pytest.mark.parametrize(("kind", "options", "seed"), [
    *((kind, {}, seed) for kind in ("cthulhu", "evilbelow", "betrayal") for seed in (1, 2)),
    *(("betrayal", {"expansion": "neibolt"}, seed) for seed in (2, 3))])
def test_a_whole_game_reads_in_chinese(kind: str, options: dict[str, str],
                                       seed: int) -> None:
    """Cthulhu in the House, IT: Evil Below, Betrayal and a Neibolt House game from
    its first turn (the haunt roll, its encounters, the haunt the chart names): no
    English word, and no list joined the English way (Evil Below's "你的手牌：畢業紀念冊內頁
    （荒原）, 石頭（荒原）")."""
    game = games.get(kind)
    players = [PlayerInfo(NAMES[n], ai=True) for n in range(4)]
    state, first = spoken(game, lambda: game.setup(players, seed, dict(options)))
    state, read = play_reading(game, state, 2500)
    assert game.is_over(state)
    assert english_in(chinese(first) + read) == []
    assert joined_in_english(chinese(first) + read) == []
