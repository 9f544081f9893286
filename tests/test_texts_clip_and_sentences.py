"""The shared words helpers that replaced copies: `bot.texts.clip` (a history entry's
names, a summary line, a Discord label), `bot.texts.sentences` (alt texts, Betrayal's
monster moves told in one line), and a monster named one way wherever it is named
(`combat.numbered_name`: a fight's line and a move kept to be told later)."""

from __future__ import annotations

from bot.games.betrayal import GAME
from bot.games.betrayal.context import Ctx
from bot.games.betrayal.haunting import combat, monsters
from bot.locales import CHINESE, ENGLISH, speaking
from bot.texts import clip, sentences
from tests.betrayal_haunt_helpers import started
from tests.betrayal_haunt_rig import tile


def test_a_text_within_its_limit_is_left_whole() -> None:
    assert clip("Ann", 3) == "Ann"
    assert clip("", 1) == ""


def test_a_longer_text_is_cut_to_its_limit_and_marked() -> None:
    cut = clip("Bartholomew", 6)
    assert cut == "Barth…" and len(cut) == 6


def test_a_space_before_the_cut_is_dropped() -> None:
    """As the history and the summary cut before: "Ann …" read as a word left out."""
    assert clip("Ann Bellows", 5) == "Ann…"


def test_sentences_are_joined_as_each_language_writes_them() -> None:
    with speaking(ENGLISH):
        assert sentences(["One.", "", "Two."]) == "One. Two."
    with speaking(CHINESE):
        assert sentences(["一。", "", "二。"]) == "一。二。"


def test_a_kept_move_names_its_monster_as_a_fight_does() -> None:
    """Pay the Piper's rats: with others of its kind about, a rat is "Rat <n>" in a
    fight's line and in the move told later alike, in either language."""
    state = GAME.copy_state(started("pay_the_piper")[0])
    ctx = Ctx(state)
    first = monsters.spawn(ctx, "rat", tile(state, "foyer"), quiet=True)
    monsters.spawn(ctx, "rat", tile(state, "foyer"), quiet=True)
    first.tile = tile(state, "entrance_hall")
    move = monsters.move_words(state, first, tile(state, "foyer"))
    assert move["number"] == first.id
    for language in (ENGLISH, CHINESE):
        with speaking(language):
            name = combat.monster_name(state, first)
            assert name.endswith(f" {first.id}")
            assert name in monsters.move_said(state, move)
