"""The whole state of an IT: Evil Below game, as plain data that round-trips to JSON.

Ids are indexes: location i is board().keys[i] and owns die i; totem card c is
location c // 7 and totem c % 7; attack cards are numbered 49..61; victim token t is a
child unless t < attack_tokens. Piles keep their top at the end of the list.
Face-down things (the Fight Stack's order, the decks, the victims still in the circles)
are in here because the engine must know them; views show only what players see, and
an AI sees only its seat's view (knowledge.py).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from bot.core.choices import PendingChoice, texts_kept
from bot.core.formats import Formats
from bot.core.rng import Rng
from bot.core.stored import restored, stored_dict

DRAINPIPE = -1  # Pennywise's start: in no location

# Phases. The move table (actions.py) says which actions each allows; the step table
# (rules.py) says what the game does by itself in it.
ROLL = "roll"  # the active player must roll
SIGHTINGS = "sightings"  # the game resolves the balloons, die by die
ACTIONS = "actions"  # dice, free actions, the optional fight, end of turn
FIGHT = "fight"  # reveal / stop
AFTERMATH = "aftermath"  # a fight's consequences resolve, then the turn ends
OVER = "over"

WIN = "win"
LOSS_BRAVERY, LOSS_INFLUENCE, LOSS_EMPTY, LOSS_ATTACKS = (
    "bravery", "influence", "empty", "attacks")
LOSSES = (LOSS_BRAVERY, LOSS_INFLUENCE, LOSS_EMPTY, LOSS_ATTACKS)


@dataclass
class Hero:
    character: str
    location: int
    bravery: int = 5
    hand: list[int] = field(default_factory=list)
    bike: bool = False


@dataclass
class Fight:
    location: int
    revealed: list[int] = field(default_factory=list)  # totem cards, in order
    shuffled: bool = False  # the stack is shuffled at the first reveal (or peek)
    peeked: bool = False  # Stan's look this fight
    peek_at: int = -1  # how many cards were revealed when Stan looked
    mike_used: bool = False
    # Every card turned face up in this fight, in order, the attack card that ended it
    # too: the revealed totems are discarded when the fight stops, but the board still
    # shows what was turned (the winning fight's cards on the end board).
    shown: list[int] = field(default_factory=list)

    def from_stack(self) -> int:
        """Cards revealed from the Fight Stack so far (Mike's came from his hand)."""
        return len(self.revealed) - int(self.mike_used)


@dataclass
class HeldAttack:
    """An attack card while its lines resolve, and where it goes afterwards."""

    card: int
    to: str  # "stack" (an Evil Influence attack) or "pile" (a counterattack)


@dataclass
class EvilBelowState:
    players: list[str]
    ai: list[bool]
    heroes: list[Hero]
    circles: list[list[int | None]]  # location -> circle -> token (None once taken)
    track: list[int]  # the Evil Influence track, bottom first
    box: list[int]  # attack tokens returned to the box
    bikes: list[int]  # location -> Bikes lying there
    totem_deck: list[int]
    totem_discard: list[int]
    attack_pile: list[int]  # top = end, bottom = index 0
    fight_stack: list[int]  # top = end
    weakness_stacks: list[list[str]]  # reward 1, 2, 3 -> keys, top (face up) = end
    weakness_done: list[str] = field(default_factory=list)
    face_up: list[int] = field(default_factory=list)  # rescued children lying face up
    pennywise: int = DRAINPIPE
    strength: int = 0
    starter: int = 0
    turn: int = 0
    turns_played: int = 0
    phase: str = ROLL
    dice: list[str] = field(default_factory=list)  # die -> face rolled ("" before)
    dice_used: list[bool] = field(default_factory=list)
    # The faces of the last roll and who rolled it, kept past the end of that turn: the
    # board shows them when the post tells a whole turn (an AI's) after it ended.
    last_roll: list[str] = field(default_factory=list)
    last_roller: int = -1
    acted: list[int] = field(default_factory=list)  # locations that resolved an action
    sightings: list[int] = field(default_factory=list)  # dice still to resolve
    sighted: list[int] = field(default_factory=list)  # locations sighted this roll
    damage: list[dict[str, Any]] = field(default_factory=list)  # units to resolve
    damage_at: int = 0  # where the damage lands
    held: HeldAttack | None = None
    richie_used: bool = False
    rode: list[int] = field(default_factory=list)  # seats that rode a Bike this turn
    # What moved this turn, public, for the board to show: [seat, from, to] per move of
    # a hero, in order (reset with the turn).
    moved: list[list[int]] = field(default_factory=list)
    eddie_sharing: bool = False
    eddie_left: int = 0
    # The cards of the Fight Stack nobody has seen (seed 001: the six totems and the
    # attack card of setup, an attack card put in "without revealing it"), so that a
    # seat's view (knowledge.py) deals only these anew; every other card in the stack
    # went in openly (a totem from a face-up hand, an attack card that just resolved).
    stack_hidden: list[int] = field(default_factory=list)
    fight: Fight | None = None
    pending: PendingChoice | None = None
    result: str = ""
    rng: Rng = field(default_factory=lambda: Rng(0))

    @property
    def over(self) -> bool:
        return self.phase == OVER

    def seat_of(self, character: str) -> int | None:
        return next((s for s, h in enumerate(self.heroes) if h.character == character), None)

    def at(self, where: int) -> list[int]:
        """Seats whose character stands in this location."""
        return [s for s, h in enumerate(self.heroes) if h.location == where]

    def remaining(self, where: int) -> int:
        return sum(1 for t in self.circles[where] if t is not None)

    def missing(self, where: int) -> int:
        return len(self.circles[where]) - self.remaining(where)

    def seen(self, card: int) -> None:
        """A card of the Fight Stack has been turned face up: it is hidden no more."""
        if card in self.stack_hidden:
            self.stack_hidden.remove(card)

    def empty(self) -> list[int]:
        return [i for i in range(len(self.circles)) if self.remaining(i) == 0]

    def to_dict(self) -> dict[str, Any]:
        raw = stored_dict(self)
        return raw

    @classmethod
    def from_dict(cls, raw: dict[str, Any]) -> EvilBelowState:
        data = restored(raw)
        data["heroes"] = [Hero(**h) for h in raw["heroes"]]
        data["fight"] = Fight(**raw["fight"]) if raw.get("fight") else None
        data["held"] = HeldAttack(**raw["held"]) if raw.get("held") else None
        return cls(**data)


def stack_hidden_added(raw: dict[str, Any]) -> dict[str, Any]:
    """Format 0 -> 1: the Fight Stack keeps count of its cards no one has seen (what an
    AI seat may not know). A game stored before kept no count; the cards still on the
    stack were all dealt face down, so all of them are unseen."""
    raw["stack_hidden"] = list(raw["fight_stack"])
    return raw


# Every shape the stored state has had (bot/core/formats.py): append, never edit.
STATE_FORMATS = Formats((stack_hidden_added, texts_kept))
