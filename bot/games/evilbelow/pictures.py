"""What the pictures of an IT: Evil Below game show, as plain data.

`board_view` and `dice_view` build these from the state and the renderer
(renderers/evilbelow/) draws them, so the renderer can never read more than the table
sees. Face-down things stay face down: a victim still in its circle is "down" (only a
rescued child, which the table saw go back, lies face up), and the Fight Stack, the
decks and the attack pile are only counted. How many attack cards the Fight Stack
holds is public: each went in openly (seed 001: "place the top card of the Pennywise
Attack pile (without revealing it) on the top of the Fight Stack"), and the table must
know it to see the fourth loss coming (all 13 attack cards in the Fight Stack).
"""

from __future__ import annotations

from dataclasses import dataclass

from bot.games.evilbelow import content
from bot.games.evilbelow.content import evil_below_line
from bot.games.evilbelow.state import DRAINPIPE, WIN, EvilBelowState

DOWN, CHILD, OPEN = "down", "child", ""  # what a circle shows
ATTACK_MARK = "attack"  # the Pennywise Attack symbol printed under the last circle


@dataclass(frozen=True)
class CircleView:
    mark: str  # printed under the circle: "A" | "B" | "C" | "attack"
    token: str  # "down" (a face-down victim) | "child" (a rescued child) | "" (the mark shows)


@dataclass(frozen=True)
class LocationView:
    index: int
    key: str
    name: str
    colour: str  # "#rrggbb"
    circles: tuple[CircleView, ...]
    bikes: int  # Bikes lying here
    pennywise: bool
    heroes: tuple[int, ...]  # seats standing here, in seat order


@dataclass(frozen=True)
class HeroView:
    seat: int
    character: str  # key
    name: str  # "Bill Denbrough"
    player: str
    colour: str  # "#rrggbb": the colour of the character's home location
    location: int
    bravery: int
    hand: int  # how many cards
    # Seed 001: "Drawn cards are kept faceup in front of you": each card in hand as its
    # location's colour and its totem's letter.
    cards: tuple[tuple[str, str], ...]
    bike: bool
    acting: bool
    ai: bool
    moved: bool = False  # moved this turn


@dataclass(frozen=True)
class TrackView:
    label: str
    length: int
    filled: int  # Evil Influence: children on it; Strength: where the token is (0 = start)
    attack_spaces: tuple[int, ...] = ()  # 1-based


@dataclass(frozen=True)
class WeaknessView:
    reward: int  # the stack's reward (1, 2, 3)
    name: str  # the face-up card's condition, "" when the stack is empty
    left: int  # cards in the stack, the face-up one included


@dataclass(frozen=True)
class CardView:
    """A card turned face up in the fight: a totem (its location's colour and letter)
    or an attack card."""

    name: str
    colour: str  # "#rrggbb"
    mark: str  # the totem's letter; "" for an attack card
    attack: bool


@dataclass(frozen=True)
class DieView:
    location: int
    name: str  # the location's name
    colour: str
    face: str  # "balloon" | "hand" | "heart"
    used: bool  # set aside (a balloon) or spent


@dataclass(frozen=True)
class BoardView:
    header: str
    locations: tuple[LocationView, ...]
    drainpipe: str  # its name
    pennywise_drainpipe: bool
    heroes: tuple[HeroView, ...]
    influence: TrackView
    strength: TrackView
    fight_stack: int  # cards in it
    fight_attacks: int  # attack cards among them
    attack_pile: int
    totem_deck: int
    totem_discard: int
    weaknesses: tuple[WeaknessView, ...]
    weaknesses_done: int
    fighting: bool  # a fight is on (its revealed cards are face up)
    revealed: tuple[str, ...] = ()
    # The locations heroes left or entered this turn (the Drainpipe is none).
    changed: tuple[int, ...] = ()
    footer: str = ""  # the ending, once there is one
    # Every card turned in this fight (the attack that ended it too), kept to the end
    # of the fight: the end board shows the winning fight's cards.
    cards: tuple[CardView, ...] = ()
    # The dice of the last roll (this turn's, or the last turn's once it ended) and who
    # rolled them; none before the first roll.
    dice: tuple[DieView, ...] = ()
    roller: str = ""


@dataclass(frozen=True)
class DiceView:
    header: str
    dice: tuple[DieView, ...]  # empty before the roll


def hero_colour(character: str) -> str:
    """A Loser's colour: his home location's (every Loser starts in a different one)."""
    return content.board().colours[content.character(character).start]


def _circles(state: EvilBelowState, where: int) -> tuple[CircleView, ...]:
    board = content.board()
    marks = [*board.letters]
    found = []
    for i, token in enumerate(state.circles[where]):
        mark = marks[i] if i < len(marks) else ATTACK_MARK
        shown = OPEN if token is None else CHILD if token in state.face_up else DOWN
        found.append(CircleView(mark, shown))
    return tuple(found)


def header(state: EvilBelowState) -> str:
    if state.over:
        return evil_below_line("views.header_won" if state.result == WIN else "views.header_lost")
    seat = state.turn
    return evil_below_line("views.header", number=state.turns_played + 1,
                           character=content.character(state.heroes[seat].character).name,
                           player=state.players[seat],
                           doing=evil_below_line(f"views.doing_{state.phase}"))


def _card_view(card: int) -> CardView:
    board = content.board()
    if content.is_attack(card):
        return CardView(evil_below_line("views.attack_card"), "", "", True)
    return CardView(content.card_name(card), board.colours[content.card_location(card)],
                    content.totem_marks()[content.card_totem(card)], False)


def _last_dice(state: EvilBelowState) -> tuple[tuple[DieView, ...], str]:
    """This turn's dice as they stand, or the last roll's faces (none used) once its
    turn ended; who rolled them."""
    if any(state.dice):
        return dice_view(state).dice, state.players[state.turn]
    if state.last_roll and 0 <= state.last_roller < len(state.players):
        return dice_view(state, state.last_roll).dice, state.players[state.last_roller]
    return (), ""


def board_view(state: EvilBelowState) -> BoardView:
    board = content.board()
    locations = tuple(
        LocationView(index=i, key=board.keys[i], name=board.names[i], colour=board.colours[i],
                     circles=_circles(state, i), bikes=state.bikes[i],
                     pennywise=state.pennywise == i, heroes=tuple(state.at(i)))
        for i in range(len(board.keys)))
    heroes = tuple(
        HeroView(seat=s, character=h.character, name=content.character(h.character).name,
                 player=state.players[s], colour=hero_colour(h.character), location=h.location,
                 bravery=h.bravery, hand=len(h.hand), bike=h.bike,
                 cards=tuple((board.colours[content.card_location(c)],
                              content.totem_marks()[content.card_totem(c)]) for c in h.hand),
                 acting=s == state.turn and not state.over, ai=state.ai[s],
                 moved=any(m[0] == s for m in state.moved))
        for s, h in enumerate(state.heroes))
    weaknesses = tuple(
        WeaknessView(reward=r + 1,
                     name=evil_below_line(f"weaknesses.{stack[-1]}") if stack else "",
                     left=len(stack))
        for r, stack in enumerate(state.weakness_stacks))
    fight = state.fight
    dice, roller = _last_dice(state)
    return BoardView(
        header=header(state),
        locations=locations,
        drainpipe=board.drainpipe,
        pennywise_drainpipe=state.pennywise == DRAINPIPE,
        heroes=heroes,
        influence=TrackView(evil_below_line("views.influence"), board.influence_length,
                            len(state.track),
                            board.influence_attacks),
        strength=TrackView(evil_below_line("views.strength"), board.strength_length,
                           state.strength),
        fight_stack=len(state.fight_stack),
        fight_attacks=sum(1 for c in state.fight_stack if content.is_attack(c)),
        attack_pile=len(state.attack_pile),
        totem_deck=len(state.totem_deck),
        totem_discard=len(state.totem_discard),
        weaknesses=weaknesses,
        weaknesses_done=len(state.weakness_done),
        fighting=fight is not None,
        revealed=tuple(content.card_name(c) for c in fight.revealed) if fight else (),
        footer=evil_below_line(f"events.end_{state.result}") if state.over and state.result else "",
        cards=tuple(_card_view(c) for c in fight.shown) if fight else (),
        dice=dice, roller=roller,
        changed=tuple(dict.fromkeys(i for m in state.moved for i in m[1:]
                                    if 0 <= i < len(locations))),
    )


def dice_view(state: EvilBelowState, rolled: list[str] | None = None) -> DiceView:
    """The seven dice as rolled this turn (none before the roll), or the faces of an
    earlier roll (`rolled`, from its event: an AI's turn told in one post), which show
    as rolled, none used."""
    board = content.board()
    faces = list(state.dice) if rolled is None else list(rolled)
    current = faces == list(state.dice)
    dice = tuple(
        DieView(location=d, name=board.names[d], colour=board.colours[d], face=face,
                used=current and d < len(state.dice_used) and bool(state.dice_used[d]))
        for d, face in enumerate(faces) if face)
    return DiceView(header=header(state), dice=dice)
