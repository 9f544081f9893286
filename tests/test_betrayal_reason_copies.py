"""A haunt's winning reason (`base.Reason`) survives being copied and pickled with its
words: a state holding one is deep-copied (replays, the AI's look-ahead) and a str
subclass whose `__new__` takes more than str's own arguments cannot be rebuilt by
either without `__getnewargs__`."""

from __future__ import annotations

import copy
import pickle

from bot.games.betrayal.haunting.base import PLUGINS, Reason, common_reason


def _same(made: object, reason: Reason) -> None:
    assert type(made) is Reason
    assert made == reason
    assert made.words == reason.words


def test_a_reason_deep_copies_with_its_words() -> None:
    reason = PLUGINS["its_alive"].reason("reason_slain", names={"organ": ("monster", "heart")})
    made = copy.deepcopy(reason)
    _same(made, reason)
    assert made.words is not reason.words  # deep: the copy's words are its own


def test_a_reason_pickles_with_its_words() -> None:
    reason = common_reason("reasons.heroes_dead")
    _same(pickle.loads(pickle.dumps(reason)), reason)


def test_a_reason_copies_inside_what_holds_it() -> None:
    """How it is met in the engine: inside a result or a state, never alone."""
    reason = PLUGINS["pay_the_piper"].reason("reason_rats")
    result = {"winner": ("heroes", reason)}
    _same(copy.deepcopy(result)["winner"][1], reason)
    _same(copy.copy(reason), reason)
