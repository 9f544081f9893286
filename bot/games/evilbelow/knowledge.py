"""What a seat of IT: Evil Below may know: the view its AI decides from.

Seed 001 keeps little from anyone: where everyone stands, the dice, every hand ("Drawn
cards are kept faceup in front of you"), the tracks, the face-up weakness cards and
how many attack cards the Fight Stack holds (pictures.py) are on the table, so a seat has
no secret of its own and every seat's view is alike. Face down for everyone, and dealt
anew in a view from what nobody can tell apart:

- the Fight Stack's order (shuffled at each fight's first reveal; the card Stan's look
  showed stays on top while it is the next card), and the cards in it nobody saw go in
  (`stack_hidden`): the unseen totems are dealt anew with the totem deck, the unseen
  attack cards with the attack pile;
- the totem deck's and the attack pile's order;
- the victims still face down in their circles (a child or an attack symbol);
- each weakness stack under its face-up top card;
- the Rng, which would tell the dice to come.
"""

from __future__ import annotations

from bot.core.plain import copy_plain
from bot.core.rng import Rng
from bot.core.views import mark, redeal, view_rng
from bot.games.evilbelow import content
from bot.games.evilbelow.state import EvilBelowState


def seat_view(state: EvilBelowState, seat: int) -> EvilBelowState:
    view = copy_plain(state)
    fight = view.fight
    rng = view_rng("evilbelow", seat, view.turn, view.turns_played, view.phase,
                   len(view.fight_stack), len(view.totem_deck), view.strength,
                   len(view.track), tuple(view.dice), tuple(view.dice_used),
                   len(fight.revealed) if fight else -1,
                   view.pending.kind if view.pending else "")
    _stack(view, rng)
    hidden = [(where, i) for where, row in enumerate(view.circles)
              for i, token in enumerate(row) if token is not None
              and token not in view.face_up]
    tokens = [view.circles[w][i] for w, i in hidden]
    redeal(rng, [tokens])
    for (where, i), token in zip(hidden, tokens, strict=True):
        view.circles[where][i] = token
    for stack in view.weakness_stacks:
        below = stack[:-1]
        redeal(rng, [below])
        stack[:-1] = below
    view.rng = rng
    return mark(view)


def _stack(view: EvilBelowState, rng: Rng) -> None:
    """The Fight Stack, the totem deck and the attack pile, dealt anew."""
    stack = view.fight_stack
    hidden = set(view.stack_hidden)
    slots = [i for i, card in enumerate(stack) if card in hidden]
    totems = [i for i in slots if not content.is_attack(stack[i])]
    attacks = [i for i in slots if content.is_attack(stack[i])]
    for where, pile in ((totems, view.totem_deck), (attacks, view.attack_pile)):
        unseen = [stack[i] for i in where]
        redeal(rng, [pile, unseen])
        for i, card in zip(where, unseen, strict=True):
            stack[i] = card
    view.stack_hidden = sorted(stack[i] for i in slots)
    fight = view.fight
    known_top = bool(stack) and fight is not None and fight.peeked \
        and fight.peek_at == len(fight.revealed)
    rest = stack[:-1] if known_top else stack[:]
    redeal(rng, [rest])
    stack[:len(rest)] = rest
