"""IT: Evil Below (seed 001): the pure rules engine.

apply() runs one seat's action from the move table (actions.py), then lets the game
take its own steps (the step table below: sightings die by die, a fight's aftermath)
until it needs someone again: a roll, an action, or a choice (a tie for Pennywise's
move, where a point of damage lands). Several seats may act at once: `to_act` names the
active player (or the one choosing), and `options` also lists, for every other seat,
the out-of-turn actions it may take now (a Bike ride, cards into the Fight Stack).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from functools import partial
from typing import Any

from bot.core.actions import Action, Option
from bot.core.choices import CHOOSE
from bot.core.errors import IllegalAction
from bot.core.events import Event
from bot.core.story import LogLine, Story
from bot.games.base import About, Game, PlayerInfo
from bot.games.evilbelow import (
    actions,
    ai,
    attacks,
    chapters,
    content,
    effects,
    idle,
    knowledge,
    setup,
    sightings,
    story,
    turns,
)
from bot.games.evilbelow.content import evil_below_line
from bot.games.evilbelow.state import AFTERMATH, SIGHTINGS, STATE_FORMATS, EvilBelowState
from bot.texts import listed


def _aftermath(state: EvilBelowState, events: list[Event]) -> None:
    """The fight and what it caused are over: step 5, the turn ends."""
    state.fight = None
    turns.end_turn(state, events)


# What the game does by itself in a phase; phases not listed wait for a seat.
STEPS: dict[str, Callable[[EvilBelowState, list[Event]], None]] = {
    SIGHTINGS: sightings.step,
    AFTERMATH: _aftermath,
}

CHOICES: dict[str, Callable[[EvilBelowState, dict[str, Any], int, list[Event]], None]] = {
    sightings.PICK_PENNYWISE:
        lambda s, payload, pick, e: sightings.choose(s, int(payload["targets"][pick]), e),
    sightings.PICK_EDDIE: sightings.choose_eddie,
    attacks.PICK_BRAVERY: lambda s, payload, pick, e: attacks.choose(
        s, attacks.PICK_BRAVERY, payload, pick, e),
    attacks.PICK_DISCARD: lambda s, payload, pick, e: attacks.choose(
        s, attacks.PICK_DISCARD, payload, pick, e),
}


def advance(state: EvilBelowState, events: list[Event]) -> None:
    """Run the game's own steps until a seat must act or the game is over."""
    while not state.over and state.pending is None:
        if state.damage:
            attacks.resolve_next(state, events)
            continue
        if effects.check_losses(state, events):
            return
        step = STEPS.get(state.phase)
        if step is None:
            return
        step(state, events)


class EvilBelowGame(Game[EvilBelowState]):
    key = "evilbelow"
    state_type = EvilBelowState
    state_formats = STATE_FORMATS

    @property
    def title(self) -> str:  # type: ignore[override]
        """The game's name in the language spoken (its texts' `title`)."""
        return evil_below_line("title")

    colour = 0xC0392B  # the red balloon
    min_players = 2
    max_players = 7

    def setup(self, players: list[PlayerInfo], seed: int,
              options: dict[str, Any]) -> tuple[EvilBelowState, list[Event]]:
        self.check_player_count(len(players), partial(evil_below_line, "errors.bad_player_count"))
        opts = dict(options)
        if setup.YOUNGEST in opts:
            opts[setup.YOUNGEST] = setup.youngest_seat(opts[setup.YOUNGEST])
        state, events = setup.build([p.name for p in players], [p.ai for p in players],
                                    seed, opts)
        turns.begin_turn(state, events)
        return state, events

    # ------------------------------------------------------------ queries

    def to_act(self, state: EvilBelowState) -> int | None:
        """The seat the game waits for. Other seats may still have out-of-turn options
        (see `options`), which the contract must offer them too."""
        if state.over:
            return None
        return state.pending.seat if state.pending else state.turn

    def is_over(self, state: EvilBelowState) -> bool:
        return state.over

    def options(self, state: EvilBelowState, seat: int) -> list[Option]:
        if state.over:
            return []
        if state.pending is not None:
            return state.pending.options() if seat == state.pending.seat else []
        return [Option(found.label, found.action, group=evil_below_line(f"groups.{found.group}"),
                       style=found.style, first=found.first, then=found.then)
                for found in actions.legal(state, seat)]

    def out_of_turn(self, state: EvilBelowState) -> list[int]:
        """Seats other than `to_act` that may act now."""
        actor = self.to_act(state)
        return [s for s in range(len(state.players))
                if s != actor and actions.legal(state, s)] if actor is not None else []

    def check_ai_seat(self, state: EvilBelowState, seat: int) -> None:
        if seat != self.to_act(state):
            raise IllegalAction(evil_below_line("errors.not_your_turn",
                                                player=state.players[state.turn]))

    def seat_view(self, state: EvilBelowState, seat: int) -> EvilBelowState:
        return knowledge.seat_view(state, seat)

    def decide(self, view: EvilBelowState, seat: int) -> Action:
        return ai.choose(view, seat)

    def decide_offer(self, view: EvilBelowState, seat: int) -> Action | None:
        """An AI seat's out-of-turn action now, or None to let the turn go on."""
        return ai.offer(view, seat)

    # ------------------------------------------------------------ apply

    def apply(self, state: EvilBelowState, seat: int,
              action: Action) -> tuple[EvilBelowState, list[Event]]:
        reason = self._gate(state, seat, action.kind)
        if reason is not None:
            raise IllegalAction(reason)
        new = self.copy_state(state)
        events: list[Event] = []
        if new.pending is not None:
            pending = new.pending
            pick = pending.pick(seat, action)
            new.pending = None
            CHOICES[pending.kind](new, pending.payload, pick, events)
        else:
            move = actions.BY_KIND[action.kind]
            if not any(found.action == action for found in move.legal(new, seat)):
                raise IllegalAction(evil_below_line(f"errors.illegal_{action.kind}"))
            move.do(new, seat, action, events)
        advance(new, events)
        if idle.end_idle_turn(new, events):  # nothing left to decide: the turn ends
            advance(new, events)
        return new, events

    def refusal(self, state: EvilBelowState, seat: int, kind: str) -> str:
        """Why this seat cannot take an action of `kind` now, in the words `apply` would
        use (whose turn, which phase, what is missing): for a command that found no
        legal option of that kind to pick."""
        return self._gate(state, seat, kind) or evil_below_line(f"errors.illegal_{kind}")

    def _gate(self, state: EvilBelowState, seat: int, kind: str) -> str | None:
        """What refuses an action of `kind` by this seat before its arguments are read:
        the game's end, a seat not in play, someone else's choice, an unknown kind,
        someone else's turn, the wrong phase. None lets it on to the legality check."""
        if state.over:
            return evil_below_line("errors.game_over")
        if not 0 <= seat < len(state.players):
            return evil_below_line("errors.not_playing")
        if state.pending is not None:
            if seat != state.pending.seat:
                return evil_below_line("errors.someone_choosing",
                                       player=state.players[state.pending.seat])
            return None if kind == CHOOSE else evil_below_line("errors.choose_first",
                                                               prompt=state.pending.asked)
        move = actions.BY_KIND.get(kind)
        if move is None:
            return evil_below_line("errors.unknown_action", kind=kind)
        if seat != state.turn and not move.anyone:
            return evil_below_line("errors.not_your_turn", player=state.players[state.turn])
        if state.phase not in move.phases:
            return evil_below_line(f"errors.phase_{state.phase}")
        return None

    # ------------------------------------------------------------ views

    def revealed(self, state: EvilBelowState) -> list[str]:
        """The cards each Loser still held at the end."""
        return [evil_below_line("replay.hand", player=state.players[seat],
                                character=content.character(hero.character).name,
                                cards=listed([content.card_name(c) for c in hero.hand])
                                or evil_below_line("status.no_cards"))
                for seat, hero in enumerate(state.heroes)]

    def private_view(self, state: EvilBelowState, seat: int) -> str:
        if not 0 <= seat < len(state.players):
            return evil_below_line("errors.not_playing")
        hero = state.heroes[seat]
        info = content.character(hero.character)
        hand = listed([content.card_name(c) for c in hero.hand]) \
            or evil_below_line("status.no_cards")
        return "\n".join([
            evil_below_line("secret.header", character=info.name, bravery=hero.bravery,
                            location=effects.where_name(hero.location)),
            evil_below_line("secret.ability", ability=info.ability),
            evil_below_line("secret.hand", cards=hand),
            evil_below_line("secret.bike") if hero.bike else evil_below_line("secret.no_bike")])

    def story(self, state: EvilBelowState, log: list[LogLine]) -> Story:
        return story.story_of(state, log)

    def character_word(self, stored: str) -> str:
        return story.character_word(stored)

    def status_text(self, state: EvilBelowState) -> str:
        board = content.board()
        attacks_in = sum(1 for c in state.fight_stack if content.is_attack(c))
        lines = [evil_below_line("status.tracks", strength=state.strength,
                                 length=board.strength_length,
                                 influence=len(state.track),
                                 influence_length=board.influence_length,
                                 stack=len(state.fight_stack), attacks=attacks_in,
                                 pennywise=effects.where_name(state.pennywise))]
        for seat, hero in enumerate(state.heroes):
            lines.append(evil_below_line("status.hero", player=state.players[seat],
                                         character=content.character(hero.character).name,
                                         location=effects.where_name(hero.location),
                                         bravery=hero.bravery, cards=len(hero.hand)))
        if state.over:
            lines.append(evil_below_line(f"status.over_{state.result}"))
        elif state.pending:
            lines.append(evil_below_line("status.choosing",
                                         player=state.players[state.pending.seat],
                                         prompt=state.pending.asked))
        else:
            lines.append(evil_below_line("status.turn", player=state.players[state.turn]))
        return "\n".join(lines)

    # ------------------------------------------------------------ seats and storage

    def set_player(self, state: EvilBelowState, seat: int,
                   info: PlayerInfo) -> EvilBelowState:
        return self.seat_handed(state, seat, info, evil_below_line("errors.not_playing"))

    def chapter(self, state: EvilBelowState) -> str | None:
        return chapters.chapter(state)

    def turn_name(self, state: EvilBelowState) -> str | None:
        return chapters.turn_name(state)

    def detail_kinds(self) -> frozenset[str]:
        """The dice of each roll are told in the log; the live message says what they
        did."""
        return super().detail_kinds() | {"roll"}

    def rules_topics(self, options: dict[str, Any] | None = None) -> dict[str, str]:
        return content.rules_topics()

    def rules_titles(self, options: dict[str, Any] | None = None) -> dict[str, str]:
        return content.rules_titles()

    def seat_choices(self) -> dict[str, list[tuple[str, str]]]:
        return {"character": [(c.key, c.name) for c in content.characters()]}

    def check_pick(self, picks: list[dict[str, str]], seat: int, name: str,
                   value: str) -> None:
        if name == "character" and any(p.get(name) == value for s, p in enumerate(picks)
                                       if s != seat):
            raise IllegalAction(evil_below_line("errors.character_taken",
                                                name=content.character(value).name))

    def about(self, edition: str = "") -> About:
        return About.said(evil_below_line)

    def command_words(self) -> dict[str, str]:
        return content.command_words()

    def setup_option_help(self) -> dict[str, str]:
        return {setup.YOUNGEST: evil_below_line("setup_help.youngest")}

    def options_without_seat(self, options: Mapping[str, Any], seat: int) -> dict[str, Any]:
        """The youngest is a player the host named by their seat's place: a seat before
        theirs leaving moves them up one, and theirs leaving names no one (the host
        starts, the rulings' default), not whoever moved into the place."""
        opts = dict(options)
        if setup.YOUNGEST not in opts:
            return opts
        youngest = setup.youngest_seat(opts[setup.YOUNGEST])
        if isinstance(youngest, bool) or not isinstance(youngest, int) or youngest < seat:
            return opts  # unreadable (the start refuses it) or before the seat: as it is
        if youngest == seat:
            del opts[setup.YOUNGEST]
        else:
            opts[setup.YOUNGEST] = setup.youngest_value(youngest - 1)
        return opts

    def option_label(self, name: str) -> str:
        """Its lobby picks' and setup options' words (texts.yaml's `options`)."""
        try:
            return evil_below_line(f"options.{name}")
        except KeyError:  # an option a game built on this one added: said by its key
            return super().option_label(name)

    def setup_choices(self) -> dict[str, list[tuple[str, str]]]:
        return {setup.YOUNGEST: [(setup.youngest_value(s),
                                  evil_below_line("labels.youngest", seat=s + 1))
                                 for s in range(self.max_players)]}
