"""The stories of past games, second pass: what the story at a game's end, /game history,
/stats and the replay's end card say, read as a player reads them after whole games of
every kind, in English and in Traditional Chinese (each test names what was wrong)."""

from __future__ import annotations

from dataclasses import replace

import pytest

from bot import table as T
from bot.core.actions import Action
from bot.core.story import HEROES, HOUSE, NO_SIDE, SOLO, TRAITOR, LogLine, SeatStory, Story
from bot.games import evilbelow as evil_below_game
from bot.games.base import PlayerInfo
from bot.games.betrayal import GAME as BETRAYAL
from bot.games.betrayal import content, story
from bot.games.betrayal.context import Ctx
from bot.games.betrayal.haunting import death, monsters
from bot.games.betrayal.haunting.combat import SLAIN
from bot.games.betrayal.state import BetrayalState
from bot.locales import CHINESE, ENGLISH, speaking
from bot.stats import member_stats, server_stats
from bot.store import GameResult, PlayedSeat, SeatResult
from bot.summary import result_of, told
from bot.texts import say
from cogs.history import entry
from cogs.stats import card_text, content_names_by_game, member_card, server_card
from tests.betrayal_haunt_helpers import started
from tests.betrayal_haunt_rig import (
    DARRIN,
    JENNY,
    fixed,
    place,
    rig_plugin,
    rigged,
    set_trait,
    spawn,
)
from tests.test_sessions import BOB, HOST

__all__ = ["fixed", "rig_plugin"]

CHANNEL, GUILD = 7300, 73
# The punctuation of English lists and labels, which a Chinese line must not carry
# (data/texts.zh-TW.yaml's `lists`: 、 between names, full-width colons).
ENGLISH_MARKS = (", ", "; ", ": ")


def _log(events: list, seat: int | None = None) -> list[LogLine]:  # type: ignore[type-arg]
    return [LogLine(e.kind, e.audience.encode(), e.text, e.seat if e.seat is not None else seat)
            for e in events]


# ---------------------------------------------------------------- each seat's deeds


def test_a_monster_killed_by_the_hero_it_attacked_is_that_heros_deed(
        fixed: list[int], monkeypatch: pytest.MonkeyPatch) -> None:
    """Seed 003, monsters: a monster attacks as an explorer does, and "if the defender
    wins, the attacker takes the damage"; a rat (Pay the Piper) that loses a fight dies.
    The story's line for each seat counts the monsters it slew (README: the story tells
    "each seat's deeds"). A rat that attacked a hero in the monsters' turn and lost was
    counted as slain by the traitor (the seat whose move it was): in an AI game of Pay
    the Piper the traitor's line read "slew 3 monsters" (his own rats) and the hero who
    fought them off got nothing."""
    state = rigged(JENNY)
    rat = spawn(state, "rat", "foyer").id
    place(state, "foyer", DARRIN)
    set_trait(state, DARRIN, "might", 4)
    table, _ = T.new_table("betrayal", CHANNEL, GUILD, HOST, 1)
    for _ in range(3):
        table, _ = T.apply(table, HOST, Action(T.ADD_AI))
    table, _ = T.apply(table, HOST, Action(T.START))
    fixed.extend([0, 0, 0])  # the monsters' speed roll
    state, _ = BETRAYAL.apply(state, JENNY, Action("end_turn"))
    assert state.haunt is not None and BETRAYAL.to_act(state) == JENNY
    table.seats[JENNY].ai = True
    T.set_state(table, BETRAYAL, state)
    monkeypatch.setattr(type(BETRAYAL), "ai_action", lambda self, s, seat: Action(
        monsters.M_ATTACK, {"m": rat, "target": DARRIN}))
    fixed.extend([0, 0, 2, 2, 2, 2])  # the rat's 2 dice of Might against Darrin's 4
    table, events = T.ai_step(table)
    (slain,) = [e for e in events if e.kind == SLAIN]
    assert slain.seat == DARRIN
    told_ = story.story_of(T.game_state(table), _log(events))
    one = content.betrayal_line("story.deed_slain", count=1)
    assert one in told_.seats[DARRIN].did
    assert one not in told_.seats[JENNY].did


# ---------------------------------------------------------------- Neibolt's haunt line


def test_a_neibolt_haunt_is_told_as_begun_by_its_encounter_card() -> None:
    """Seed 000: "discovering an omen room draws a Pennywise Encounter card instead ...
    The card that started it picks the scenario" (RULES.md section 2). The story's haunt
    line said every haunt was revealed "with the <omen>": a Neibolt game read "revealed
    by Peter Akimoto with the THE EATER OF WORLDS in the Charred Room"."""
    key = "henry_on_the_hunt"
    state, _ = started(key)
    assert state.haunt is not None
    state.haunt.omen = "knife_in_the_dark"
    card = content.card(state.haunt.omen)
    assert card.deck != "omen"
    with speaking(ENGLISH):
        line = story.story_of(state, []).turning[0]
    assert card.name in line, line
    assert f"the {card.name}" not in line and "the THE" not in line, line


def _begun(key: str) -> BetrayalState:
    state, _ = started(key)
    assert state.haunt is not None
    return state


# ---------------------------------------------------------------- Chinese punctuation


def _result(names: list[str], won: list[bool], edition: str = "") -> GameResult:
    seats = [SeatResult(n, 1000 + n, name, False, HEROES, w) for n, (name, w)
             in enumerate(zip(names, won, strict=True))]
    return GameResult(9, GUILD, CHANNEL, "betrayal", 12, "", "", "{}", "", seats, 0.0, 600.0,
                      edition=edition)


def test_history_lists_a_games_players_and_winners_the_chinese_way() -> None:
    """README, Languages: `/game history` answers in the reader's language, and
    data/texts.zh-TW.yaml's `lists` says how Chinese lists names (、). A Chinese reader's
    history listed "Hana, Ada, Boris · 勝者：Hana, Ada", English commas between Chinese."""
    result = _result(["Hana", "Ada", "Boris"], [True, True, False])
    with speaking(CHINESE):
        line = entry(result)
    assert "Hana、Ada、Boris" in line, line
    assert "勝者：Hana、Ada" in line or "勝者：Hana和Ada" in line, line
    assert "Hana, " not in line


def _seat(game: int, seat: int, user: int, name: str, side: str, won: bool, *,
          kind: str = "betrayal", content_key: str = "", edition: str = "",
          character: str = "") -> PlayedSeat:
    return PlayedSeat(game, kind, 20, content_key, 0.0, 600.0, 3,
                      SeatResult(seat, user, name, False, side, won, character=character),
                      edition=edition)


def test_stats_cards_read_in_chinese_without_english_punctuation() -> None:
    """README, Languages: /stats answers in the reader's language. Its words (the alt
    text and the message beside the card) joined Chinese with the English ": ", "; "
    and ", ": "依遊戲: 山屋驚魂 2 場中贏 2 場; ...", "最常出現：Better with Friends（1）,
    Pay the Piper（1）"."""
    hana = HOST.user_id or 0
    seats = [_seat(1, 0, hana, "Hana", HEROES, True, content_key="pay_the_piper"),
             _seat(2, 0, hana, "Hana", HOUSE, False, kind="evilbelow"),
             _seat(3, 0, hana, "Hana", SOLO, False, kind="cthulhu"),
             _seat(4, 0, hana, "Hana", TRAITOR, True, content_key="offspring")]
    names = {"betrayal": BETRAYAL.content_names()}
    with speaking(CHINESE):
        member = card_text(member_card("Hana", member_stats(seats)))
        server = card_text(server_card("伺服器", server_stats(seats, {}, names)))
    for text in (member, server):
        for mark in ENGLISH_MARKS:
            assert mark not in text, (mark, text)


def test_the_evil_below_end_card_lists_each_losers_cards_the_chinese_way() -> None:
    """README, /game replay: the end card tells what was secret (each Loser's hand), in
    the server's language. Its Chinese listed the cards with English commas:
    "Hana（比爾·鄧布洛）手上有：浴帽（基恩藥局）, 畢業紀念冊內頁（基恩藥局）。"."""
    game = evil_below_game.GAME
    state, _ = game.setup([PlayerInfo("Hana", False), PlayerInfo("Ada", True)], 3, {})
    state.heroes[0].hand = [0, 1]
    with speaking(CHINESE):
        first = game.revealed(state)[0]
    assert ", " not in first and "、" in first, first


def test_the_last_victims_things_are_listed_the_chinese_way() -> None:
    """Seed 003: a dead explorer's cards stay in the room where they died. The line that
    says so is the story's "last victim" turning point; in Chinese it listed them with
    English commas: "他的東西留在那裡：聖符, 長矛。"."""
    state = _begun("pay_the_piper")
    seat = next(n for n, e in enumerate(state.explorers) if e.alive)
    state.explorers[seat].cards[:] = ["spear", "holy_symbol"]
    with speaking(CHINESE):
        ctx = Ctx(state)
        death.die(ctx, seat)
    (line,) = [e.text for e in ctx.events if e.kind == "death"]
    assert ", " not in line and "、" in line, line


# ---------------------------------------------------------------- a player's two seats


def _two_seated() -> T.Table:
    table, _ = T.new_table("betrayal", CHANNEL, GUILD, HOST, 5)
    for actor, kind in ((HOST, T.SECOND), (BOB, T.JOIN), (HOST, T.ADD_AI)):
        table, _ = T.apply(table, actor, Action(kind))
    table, _ = T.apply(table, HOST, Action(T.START))
    return table


@pytest.mark.parametrize("language", [ENGLISH, CHINESE])
def test_a_player_with_two_explorers_is_named_as_themselves_in_the_story(
        language: str) -> None:
    """RULES.md: seed 003 plays two explorers per person when few play. The lobby names
    the second seat "Hana (2nd)" to tell the two seats' buttons apart; the story, where
    each seat's line names its explorer, and /game history carried it on: "• **Hana
    (2nd)** (Father Rhinehardt)", "Hana, Hana (2nd), Bob, Ada", in English on a Chinese
    server too (the seat's name is made once, in English)."""
    table = _two_seated()
    parts = [SeatStory(side=HEROES, won=True, character=f"Explorer {n}", did="alive")
             for n in range(len(table.seats))]
    with speaking(language):
        block = told(table, Story(outcome="The heroes won.", seats=parts), 20)
        result = result_of(table, Story(outcome="x", seats=parts), 20, block)
        listed = entry(result)
    second = say("lobby.second_name", name="")
    for text in (block, listed):
        assert "(2nd)" not in text and second.strip() not in text, text
    assert block.count(f"**{HOST.name}**") == 2
    assert listed.count(HOST.name) == 2  # once among the players, once among the winners


# ---------------------------------------------------------------- /stats server


def test_the_server_stats_name_each_editions_unseen_haunts_under_its_own_title() -> None:
    """RULES.md section 2: Betrayal at the Neibolt House is an expansion with "the COME
    HOME TO EVIL scenario card with its five scenarios", and a table names its edition
    in /stats (game_results.edition). `/stats server` listed the Neibolt scenarios among
    the classic game's haunts not yet seen: "Betrayal at House on the Hill, not seen yet
    (9)", of a game of 8 haunts."""
    hana = HOST.user_id or 0
    seats = [_seat(1, 0, hana, "Hana", HEROES, True, content_key="pay_the_piper"),
             _seat(2, 0, hana, "Hana", HEROES, True, content_key="henry_on_the_hunt",
                   edition="neibolt")]
    with speaking(ENGLISH):
        names = content_names_by_game()
        text = card_text(server_card("Server", server_stats(seats, {}, names)))
    classic = BETRAYAL.title_of("")
    neibolt = BETRAYAL.title_of("neibolt")
    assert say("stats.unseen", game=classic, count=7, names="").rstrip() in text, text
    assert say("stats.unseen", game=neibolt, count=4, names="").rstrip() in text, text
    (line,) = [ln for ln in text.splitlines() if ln.startswith(f"{classic},")]
    assert "Separate Nightmares" not in line and "Henry" not in line, line


def test_the_server_stats_do_not_say_every_game_was_lost() -> None:
    """README, /stats: "a server's table of players, its most played content". The
    server card's "By game" panel counts the games of each kind played, but its bars
    said "0 won of 2" for every game (the picture "0/2" beside each): the server's
    games all read as lost, though its players won them."""
    hana = HOST.user_id or 0
    seats = [_seat(1, 0, hana, "Hana", HEROES, True, content_key="pay_the_piper"),
             _seat(2, 0, hana, "Hana", HEROES, False, content_key="offspring")]
    with speaking(ENGLISH):
        card = server_card("Server", server_stats(seats, {}, {}))
        text = card_text(card)
    games = card.panels[1]
    assert [(b.played, b.won) for b in games.bars] == [(2, 1)], games
    assert say("stats.bar", label=BETRAYAL.title, won=0, played=2) not in text


@pytest.mark.parametrize("language", [ENGLISH, CHINESE])
def test_history_tells_a_table_beaten_together_from_a_game_ended_early(language: str) -> None:
    """README: `/game history` lists each game's "players, winner". A cooperative table
    the game beat, and a game a moderator ended, both read "won: nobody", as if nothing
    had been decided; a beaten table now reads as lost together, an early end as one."""
    beaten = _result(["Hana", "Ada"], [False, False])
    early = replace(beaten, seats=[replace(s, side=NO_SIDE) for s in beaten.seats])
    won = _result(["Hana", "Ada"], [True, False])
    with speaking(language):
        assert say("history.lost_together") in entry(beaten)
        assert say("history.ended_early") in entry(early)
        assert say("history.won", winner="Hana") in entry(won)
        assert say("history.no_winner") not in entry(beaten) + entry(early)
