"""The Pennywise Encounter deck (seed 000, "How to Play"): drawn instead of an omen
before the haunt, kept face up, each one making a haunt roll.

- Before the haunt, a discovered omen room draws the top encounter instead of an omen
  (edition.py: `symbol_steps`); it is read out and its scare runs (data/neibolt/
  encounters.yaml `on_draw`; an omen only where the card says so).
- Resolved, it stays face up: the face-up row is the encounter deck's discard pile
  (`state.discards["encounter"]`), never shuffled back, so the count only grows.
- Each encounter drawn makes a haunt roll with as many dice as there are face-up
  encounters (RULING, RULES.md section 2: at most 8, one roll per encounter drawn; an
  omen an encounter hands out adds no roll of its own). 5+ starts the haunt, and the
  card that started it picks the scenario (its `scenario:`, seed 000's pairs).
- RULING: the roll is made at the end of the turn, as the classic game's haunt roll
  after an omen ("similar to an Omen card", seed 000), one roll per encounter drawn
  that turn, in the order drawn; the first that starts the haunt ends the rest. Each
  roll has the dice its encounter gave when drawn (seed 000: the third encounter drawn
  this game rolls 3 dice), not the count the turn ends with (`roll_dice`).
- The one who drew the encounter rolls for it ("you roll 3 dice when you draw the third
  one", seed 000), and is the revealer if it starts the haunt. Drawn on another
  explorer's turn (a Mystic Slide that drops it into an omen room), it is owed, as an
  omen drawn so is in the classic game (seed 003: the drawer rolls after its own
  turn): kept on the drawer (`OWED`, with its dice) and rolled for as its own turn
  ends, before that turn's own encounters (drawn earlier).
- "Bury" (seed 000) puts a card on the bottom of its deck (`bury`).
"""

from __future__ import annotations

from typing import Any

from bot.games.betrayal.plugin_api import (
    AFTER_TURN,
    EXPLORE,
    BetrayalState,
    Ctx,
    Frame,
    content,
    haunt_roll,
    step,
)
from bot.games.neibolt.words import tell

DECK = "encounter"
HAUNT_AT = 5  # seed 000: a haunt roll of 5+ triggers the haunt
MAX_DICE = 8  # RULING: never more than 8 dice
DRAWN = "encounters"  # turn.flags: the encounters the explorer to play drew this turn
DICE = "encounter_dice"  # turn.flags: each of those encounters -> the dice it rolls
OWED = "nb_owed_encounters"  # an explorer's flags: [{card, dice}] drawn on others' turns


def face_up(state: BetrayalState) -> list[str]:
    """The encounters lying face up, first drawn first."""
    return state.discards.get(DECK, [])


def dice(state: BetrayalState) -> int:
    return min(len(face_up(state)), MAX_DICE)


def drawn_dice(state: BetrayalState) -> int:
    """The dice an encounter being drawn now will roll: the face-up ones and those
    being read out (itself among them), at most 8."""
    reading = [k for k in state.resolving if content.card(k).deck == DECK]
    return min(len(face_up(state)) + len(reading), MAX_DICE)


def roll_dice(state: BetrayalState, key: str) -> int:
    """The dice of the haunt roll this turn's encounter `key` makes: the face-up count
    as it was when it was drawn (itself included), at most 8. Seed 000: "if there are
    three Pennywise Encounter cards drawn this game, you roll 3 dice when you draw the
    third one". Kept when it was drawn (`DICE`); a game stored before reads it back
    from the face-up row: those drawn before this turn, then this turn's in the order
    drawn (the row only grows before the haunt)."""
    kept = state.turn.flags.get(DICE, {})
    if key in kept:
        return int(kept[key])
    drawn = [k for k in state.turn.flags.get(DRAWN, []) if k in face_up(state)]
    if key not in drawn:
        return dice(state)
    before = len(face_up(state)) - len(drawn)
    return min(before + drawn.index(key) + 1, MAX_DICE)


def scenario_of(key: str) -> str:
    """The scenario an encounter card starts (seed 000's Haunt Trigger pairs)."""
    return str(content.card(key).raw.get("scenario") or "")


def pennywise_line(key: str) -> dict[str, Any]:
    """What Pennywise does when this card is drawn in scenario 5 (designed)."""
    return dict(content.card(key).raw.get("pennywise") or {})


def bury(state: BetrayalState, key: str) -> None:
    """Seed 000: "bury" puts the card on the bottom of its deck."""
    state.decks[content.card(key).deck].append(key)


def take_top(state: BetrayalState) -> str | None:
    """The top encounter, or None: the deck is never refilled from the face-up row."""
    deck = state.decks.get(DECK, [])
    return deck.pop(0) if deck else None


def resolve(ctx: Ctx, seat: int, key: str) -> None:
    """An encounter just drawn by this explorer: read out, its scare pushed, then laid
    face up (the core's `_finish_card` puts an unkept card on its deck's discards)."""
    state = ctx.state
    card = content.card(key)
    tell(ctx, "events.encounter", kind="card", who=ctx.who(seat), card=card.name,
         stop=content.stop_after(card.name), text=card.text,
         data={"seat": seat, "card": key, "deck": DECK})
    state.quiet_turns = 0
    state.resolving.append(key)
    note_roll(state, seat, key)
    ctx.push([{"_finish_card": {"card": key}}], seat, key, DECK)
    ctx.push(list(card.on_draw), seat, key, DECK)


def note_roll(state: BetrayalState, seat: int, key: str) -> None:
    """Mark the haunt roll this encounter owes, for the explorer who drew it, with the
    dice it makes now: on the turn, if it is that explorer's; else on the explorer,
    until its own turn ends. Before the haunt only: after it no haunt roll is made."""
    count = drawn_dice(state)
    if seat == state.turn.seat:
        state.turn.flags.setdefault(DRAWN, []).append(key)
        state.turn.flags.setdefault(DICE, {})[key] = count
    elif state.phase == EXPLORE:
        state.explorers[seat].flags.setdefault(OWED, []).append({"card": key, "dice": count})


def forget_owed(state: BetrayalState) -> None:
    """The haunt has begun: no encounter's haunt roll is owed any more."""
    for explorer in state.explorers:
        explorer.flags.pop(OWED, None)


@step("_nb_encounter")
def _encounter(ctx: Ctx, frame: Frame, arg: Any) -> None:
    key = take_top(ctx.state)
    if key is None:
        tell(ctx, "events.encounters_gone")
        return
    resolve(ctx, frame.seat, key)


def haunt_rolls(ctx: Ctx, frame: Frame) -> None:
    """The end of an exploring turn: one haunt roll per encounter its explorer drew,
    those owed from others' turns first, then this turn's, in the order drawn."""
    state = ctx.state
    owed = state.explorers[frame.seat].flags.pop(OWED, [])
    rolls = [(str(o["card"]), int(o["dice"]), True) for o in owed]
    rolls += [(k, roll_dice(state, k), False)
              for k in state.turn.flags.get(DRAWN, []) if k in face_up(state)]
    steps: list[dict[str, Any]] = []
    for key, count, was_owed in rolls:
        if key not in face_up(state):
            continue
        steps.append({"_nb_roll_said": {"card": key, "dice": count, "owed": was_owed}})
        steps.append({"roll": {"dice": count, "purpose": "haunt", AFTER_TURN: True,
                               "then": [{"_nb_haunt_check": {"card": key}}]}})
    if steps:
        ctx.push_child(frame, steps)


@step("_nb_roll_said")
def _roll_said(ctx: Ctx, frame: Frame, arg: dict[str, Any]) -> None:
    key = str(arg["card"])
    count = int(arg.get("dice") or roll_dice(ctx.state, key))
    tell(ctx, "events.haunt_roll_owed" if arg.get("owed") else "events.haunt_roll",
         who=ctx.who(frame.seat), dice=count, card=content.card(key).name)


@step("_nb_haunt_check")
def _haunt_check(ctx: Ctx, frame: Frame, arg: dict[str, Any]) -> None:
    state = ctx.state
    key = str(arg["card"])
    total = int(frame.vars.get("roll", 0))
    if total < HAUNT_AT:
        tell(ctx, "events.haunt_not_yet", who=ctx.who(frame.seat), total=total,
             need=HAUNT_AT)
        return
    room = state.at(frame.seat).room
    forget_owed(state)
    tell(ctx, "events.haunt_begins", kind="haunt", who=ctx.who(frame.seat), total=total,
         card=content.card(key).name,
         data={"revealer": frame.seat, "omen": key, "room": room, "roll": total})
    haunt_roll.begin(ctx, frame.seat, key, room, total)


def begin_stalled(ctx: Ctx, seat: int) -> None:
    """An AI-only table that drew no encounter for the stall rounds (see haunt_roll.py):
    the last face-up encounter starts its scenario (roll -1: no roll was made)."""
    state = ctx.state
    key = face_up(state)[-1]
    room = state.at(seat).room
    forget_owed(state)
    tell(ctx, "events.haunt_stalled", kind="haunt", who=ctx.who(seat),
         rounds=haunt_roll.STALL_ROUNDS, card=content.card(key).name,
         data={"revealer": seat, "omen": key, "room": room, "roll": -1})
    haunt_roll.begin(ctx, seat, key, room, -1)


def stalled(state: BetrayalState) -> bool:
    return (all(state.ai) and bool(face_up(state))
            and state.quiet_turns >= haunt_roll.STALL_ROUNDS * len(state.players))
