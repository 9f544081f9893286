"""Step 4, the optional fight: push your luck through the shuffled Fight Stack.

Reveal one card at a time (at least one); stop to collect every face-up weakness the
revealed totems meet, or hit an attack card and suffer Pennywise's counterattack.
Special totems pay out the moment they show, whatever comes after (seed 001).
"""

from __future__ import annotations

from bot.core.events import DETAIL, Event
from bot.games.evilbelow import abilities, attacks, content, effects, weaknesses
from bot.games.evilbelow.content import evil_below_line
from bot.games.evilbelow.state import ACTIONS, AFTERMATH, FIGHT, EvilBelowState, Fight


def can_fight(state: EvilBelowState) -> bool:
    """Seed 001: the active player and at least one other player with Pennywise, and a
    Fight Stack to fight with."""
    where = state.heroes[state.turn].location
    return (state.phase == ACTIONS and state.pennywise == where
            and len(state.at(where)) >= 2 and bool(state.fight_stack))


def face_up(state: EvilBelowState) -> list[str]:
    """RULES.md: only the top card of each weakness stack is face up and can be met."""
    return [stack[-1] for stack in state.weakness_stacks if stack]


def start(state: EvilBelowState, events: list[Event]) -> None:
    state.phase = FIGHT
    state.fight = Fight(state.heroes[state.turn].location)
    events.append(Event(evil_below_line("events.fight", character=effects.hero_name(state,
                                                                                    state.turn),
                                        location=effects.where_name(state.fight.location),
                                        size=len(state.fight_stack)), kind="fight"))
    abilities.fighter_draws(state, events)


def _shuffle(state: EvilBelowState, events: list[Event]) -> None:
    assert state.fight is not None
    if not state.fight.shuffled:
        state.rng.shuffle(state.fight_stack)
        state.fight.shuffled = True
        events.append(Event(evil_below_line("events.shuffle", size=len(state.fight_stack)),
                            kind=DETAIL))  # the log's: the card revealed is the news


def peek(state: EvilBelowState, events: list[Event]) -> None:
    assert state.fight is not None
    _shuffle(state, events)
    state.fight.peeked = True
    state.fight.peek_at = len(state.fight.revealed)
    top = state.fight_stack[-1]
    if not content.is_attack(top):
        state.seen(top)  # the table hears which totem it is (of an attack, only that)
    name = evil_below_line("labels.attack_card") if content.is_attack(top) \
        else content.card_name(top)
    events.append(Event(evil_below_line("events.stan_peek", card=name), kind="peek",
                        data={"card": top}))


def reveal(state: EvilBelowState, events: list[Event]) -> None:
    fight = state.fight
    assert fight is not None
    _shuffle(state, events)
    card = state.fight_stack.pop()
    state.seen(card)
    fight.shown.append(card)
    if content.is_attack(card):
        events.append(Event(evil_below_line("events.reveal_attack"), kind="reveal",
                            data={"card": card, "attack": True}))
        state.totem_discard += fight.revealed
        fight.revealed = []
        state.phase = AFTERMATH
        attacks.begin(state, card, fight.location, "pile", events)
        return
    _show(state, card, "events.reveal", events)
    if not state.over and not state.fight_stack:
        events.append(Event(evil_below_line("events.stack_empty"), kind="fight"))
        stop(state, events)


def add_mikes_card(state: EvilBelowState, events: list[Event]) -> None:
    """Mike puts his single card among the revealed ones."""
    assert state.fight is not None
    card = state.heroes[state.turn].hand.pop()
    state.fight.mike_used = True
    _show(state, card, "events.mike", events)


def _show(state: EvilBelowState, card: int, key: str, events: list[Event]) -> None:
    assert state.fight is not None
    state.fight.revealed.append(card)
    if card not in state.fight.shown:  # Mike's card (a revealed one is there already)
        state.fight.shown.append(card)
    met = [content.weakness(k).reward for k in face_up(state)
           if weaknesses.met(k, state.fight.revealed)]
    # The counts that say something: no weakness met says none; one worth a space each
    # needs no worth beside it.
    said = key if sum(met) != len(met) else f"{key}_met" if met else f"{key}_unmet"
    events.append(Event(evil_below_line(said, card=content.card_name(card),
                                        count=len(state.fight.revealed),
                                        met=len(met), spaces=sum(met)),
                        kind="reveal", data={"card": card, "attack": False}))
    who = abilities.special_bonus(state, card)
    if who is not None:
        events.append(Event(evil_below_line("events.special",
                                            character=content.character(who).name),
                            kind="special"))
        effects.advance_strength(state, content.special_reward(), events)


def stop(state: EvilBelowState, events: list[Event]) -> None:
    """Collect every face-up weakness met; the revealed totems are discarded."""
    fight = state.fight
    assert fight is not None
    gained, bonus = 0, False
    for stack in state.weakness_stacks:
        if stack and weaknesses.met(stack[-1], fight.revealed):
            key = stack.pop()
            state.weakness_done.append(key)
            card = content.weakness(key)
            gained += card.reward
            bonus = bonus or card.bravery > 0
            events.append(Event(evil_below_line("events.weakness",
                                                name=evil_below_line(f"weaknesses.{key}"),
                                                spaces=card.reward), kind="weakness",
                                data={"weakness": key}))
    state.totem_discard += fight.revealed
    fight.revealed = []
    state.phase = AFTERMATH
    if not gained:
        events.append(Event(evil_below_line("events.no_weakness"), kind="weakness"))
        return
    if bonus:
        effects.gain_bravery(state, state.at(state.heroes[state.turn].location), events)
    effects.advance_strength(state, gained, events)
