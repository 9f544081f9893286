"""Betrayal at House on the Hill (seed 003), the exploration phase: the pure engine.

The pieces: setup.py deals the game; actions.py lists and starts the actions of a turn;
movement.py, explore.py, items.py and turn.py carry them out by pushing steps that
effects.py runs (pausing on choices); cards/ holds the handlers steps cannot express;
haunt_roll.py ends the exploration. Rulings where seed 003 is silent are in
data/betrayal/rules.yaml (topic `rulings`) and marked RULING in the code.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from functools import partial
from typing import Any

from bot.core.actions import Action, Option
from bot.core.errors import IllegalAction
from bot.core.events import Event
from bot.core.story import LogLine, Story
from bot.games.base import About, Game, PlayerInfo
from bot.games.betrayal import (
    actions,
    ai,
    chapters,
    content,
    editions,
    knowledge,
    links,
    loading,
    playing,
    setup,
    shown,
    story,
    turn,
)
from bot.games.betrayal.content import betrayal_line
from bot.games.betrayal.context import Ctx, explorer_name
from bot.games.betrayal.haunting import base as haunting_base
from bot.games.betrayal.haunting import flow, sides
from bot.games.betrayal.state import STATE_FORMATS, BetrayalState

loading.load()  # every card, haunt and edition, so a game restored mid-haunt keeps its rules


class BetrayalGame(Game[BetrayalState]):
    key = "betrayal"
    state_type = BetrayalState
    state_formats = STATE_FORMATS
    seats_per_player = 2  # RULES.md: seed 003 plays two explorers per person when few play

    @property
    def title(self) -> str:  # type: ignore[override]
        """The game's name in the language spoken (its texts' `title`)."""
        return betrayal_line("title")

    colour = 0x6B3FA0  # the box's dusk purple
    min_players = 3
    max_players = 6

    # ------------------------------------------------------------ setup

    def setup(self, players: list[PlayerInfo], seed: int,
              options: dict[str, Any]) -> tuple[BetrayalState, list[Event]]:
        self.check_player_count(len(players), partial(betrayal_line, "errors.bad_player_count"))
        state = setup.new_state([p.name for p in players], [p.ai for p in players], seed,
                                options)
        ctx = Ctx(state)
        ctx.events.append(Event(editions.for_state(state).story(), kind="setup"))
        for seat in range(len(players)):
            info = content.explorer(state.explorers[seat].key)
            ctx.say("events.explorer", kind="setup", player=state.players[seat],
                    who=info.name, birthday=info.birthday)
        ctx.say("events.first", kind="setup", who=explorer_name(state, state.first),
                player=state.players[state.first], today=state.today)
        ctx.say("events.turn", kind="turn", who=explorer_name(state, state.first),
                player=state.players[state.first], number=1,
                data={"seat": state.first, "turn": 1})
        links.remember(state)
        return state, ctx.events

    # ------------------------------------------------------------ queries

    def to_act(self, state: BetrayalState) -> int | None:
        return turn.to_act(state)

    def chapter(self, state: BetrayalState) -> str | None:
        return chapters.chapter(state)

    def turn_name(self, state: BetrayalState) -> str | None:
        return chapters.turn_name(state)

    def is_over(self, state: BetrayalState) -> bool:
        return state.over

    def options(self, state: BetrayalState, seat: int) -> list[Option]:
        if seat != self.to_act(state):
            return []
        if state.pending is not None:
            return state.pending.options()
        found = actions.legal(state, seat)
        # Each kind's group named once, not once an option (a turn lists a dozen).
        groups = {kind: betrayal_line(f"groups.{actions.GROUPS[kind]}")
                  for kind in dict.fromkeys(entry.action.kind for entry in found)}
        return [Option(entry.label, entry.action, group=groups[entry.action.kind],
                       style=entry.style) for entry in found]

    def pass_turn(self, state: BetrayalState, seat: int) -> Action | None:
        if seat != self.to_act(state) or state.pending is not None:
            return None  # a choice is pending: only playing it ends the turn
        return next((entry.action for entry in actions.legal(state, seat)
                     if entry.action.kind == actions.END_TURN), None)

    def check_ai_seat(self, state: BetrayalState, seat: int) -> None:
        self._check_actor(state, seat)

    def seat_view(self, state: BetrayalState, seat: int) -> BetrayalState:
        return knowledge.seat_view(state, seat)

    def decide(self, view: BetrayalState, seat: int) -> Action:
        return ai.choose_action(view, seat)

    # ------------------------------------------------------------ apply

    def apply(self, state: BetrayalState, seat: int,
              action: Action) -> tuple[BetrayalState, list[Event]]:
        self._check_actor(state, seat)
        return playing.play(state, seat, action)

    def _check_actor(self, state: BetrayalState, seat: int) -> None:
        if state.over:
            raise IllegalAction(betrayal_line("errors.game_over"))
        if not 0 <= seat < len(state.players):
            raise IllegalAction(betrayal_line("errors.not_playing"))
        if state.pending is not None and seat != state.pending.seat:
            raise IllegalAction(betrayal_line("errors.someone_choosing",
                                              who=explorer_name(state, state.pending.seat),
                                              prompt=state.pending.asked))
        if state.pending is None and seat != state.turn.seat:
            raise IllegalAction(betrayal_line("errors.not_your_turn",
                                              who=explorer_name(state, state.turn.seat),
                                              player=state.players[state.turn.seat]))

    # ------------------------------------------------------------ views

    def private_view(self, state: BetrayalState, seat: int) -> str:
        if not 0 <= seat < len(state.players):
            return betrayal_line("errors.not_playing")
        return flow.private_text(state, seat, shown.sheet_text(state, seat))

    def teams(self, state: BetrayalState) -> dict[str, list[int]]:
        return sides.teams(state)

    def revealed(self, state: BetrayalState) -> list[str]:
        """Who the traitor was, and which explorers lived to the end."""
        seat = sides.traitor(state)
        lines = [] if seat is None else [
            betrayal_line("replay.traitor_was", who=explorer_name(state, seat),
                          player=state.players[seat])]
        for n, explorer in enumerate(state.explorers):
            lines.append(betrayal_line("replay.alive" if explorer.alive else "replay.dead",
                                       who=explorer_name(state, n), player=state.players[n]))
        return lines

    def prompt_private(self, state: BetrayalState, seat: int) -> bool:
        """The traitor plays from the DM once the haunt has begun (issue 4)."""
        return flow.is_haunt(state) and sides.is_traitor(state, seat)

    def as_compared(self, raw: dict[str, Any], stored: dict[str, Any]) -> dict[str, Any]:
        """A haunt decided before its reason's words were kept (state.py's
        `haunt_words_kept`) stored none; the same game played again keeps them."""
        haunt, kept = raw.get("haunt"), stored.get("haunt")
        if haunt and kept and not kept.get("reason_words"):
            return {**raw, "haunt": {**haunt, "reason_words": {}}}
        return raw

    def story(self, state: BetrayalState, log: list[LogLine]) -> Story:
        return story.story_of(state, log)

    def content_names(self, edition: str | None = None) -> dict[str, str]:
        return story.content_names(edition)

    def character_word(self, stored: str) -> str:
        return story.explorer_word(stored)

    def edition_keys(self) -> list[str]:
        return ["" if key == editions.DEFAULT else key for key, _ in editions.offered()]

    def read_ahead(self) -> None:
        """Every haunt's data (its book, values and lines), read lazily per language,
        ~5 ms a haunt in the first action that needed it."""
        for key in list(haunting_base.PLUGINS):
            if haunting_base.has_data(key):
                haunting_base.load_data(key)

    def status_text(self, state: BetrayalState) -> str:
        return shown.status_text(state)

    # ------------------------------------------------------------ seats and storage

    def set_player(self, state: BetrayalState, seat: int, info: PlayerInfo) -> BetrayalState:
        return self.seat_handed(state, seat, info, betrayal_line("errors.not_playing"))

    def detail_kinds(self) -> frozenset[str]:
        """The dice of each roll are told in the log; the live message says what they
        did."""
        return super().detail_kinds() | {"roll", "damage"}

    def rules_topics(self, options: dict[str, Any] | None = None) -> dict[str, str]:
        """The classic rules, then the edition's own topics: the table's edition (a
        classic game never lists an expansion's), every edition's without options. An
        edition's topic of a classic topic's name (an expansion's haunt, begun its own way)
        replaces it at that edition's table only: read with no table, the classic stays."""
        return self._merged(content.rules_topics(), options, lambda e: e.topics())

    def rules_titles(self, options: dict[str, Any] | None = None) -> dict[str, str]:
        return self._merged(content.rules_titles(), options, lambda e: e.titles())

    def _merged(self, classic: dict[str, str], options: dict[str, Any] | None,
                own: Callable[[editions.Edition], dict[str, str]]) -> dict[str, str]:
        merged = dict(classic)
        for edition in self._editions_of(options):
            merged.update({key: text for key, text in own(edition).items()
                           if options is not None or key not in classic})
        return merged

    def edition_of(self, options: Mapping[str, Any] | None) -> str:
        """The expansion a table plays ("" for the classic game, and for an option no
        edition of this release knows)."""
        key = str((options or {}).get(setup.EXPANSION) or "").strip().lower()
        return key if key != editions.DEFAULT and editions.known(key) else ""

    def title_of(self, edition: str = "") -> str:
        """An expansion played as its own box (seed 000) reads its own name wherever the
        game is named (Edition.title)."""
        if edition and editions.known(edition):
            return editions.get(edition).title()
        return self.title

    def about(self, edition: str = "") -> About:
        """Each edition's own few words (Edition.about): an expansion played as its own
        box is its own game to whoever meets the lobby."""
        return editions.get(edition if edition and editions.known(edition)
                            else editions.DEFAULT).about()

    @staticmethod
    def _editions_of(options: dict[str, Any] | None) -> list[editions.Edition]:
        if options is None:
            return [editions.get(key) for key, _ in editions.offered()]
        return [setup.edition_option(options.get(setup.EXPANSION))]

    def setup_choices(self) -> dict[str, list[tuple[str, str]]]:
        """The edition played (the classic game or an expansion); seed 003, Selecting
        the Haunt: a table may swap a haunt it has played."""
        return {setup.EXPANSION: editions.offered(),
                setup.FRESH: [(value, betrayal_line(f"labels.fresh_{value}")) for value in ("on",
                                                                                            "off")]}

    def command_words(self) -> dict[str, str]:
        return content.command_words()

    def setup_option_help(self) -> dict[str, str]:
        return {name: betrayal_line(f"setup_help.{name}") for name in (setup.EXPANSION,
                                                                       setup.FRESH)}

    def option_label(self, name: str) -> str:
        """Its lobby picks' and setup options' words (texts.yaml's `options`)."""
        try:
            return betrayal_line(f"options.{name}")
        except KeyError:  # an option a game built on this one added: said by its key
            return super().option_label(name)

    def seat_choices(self) -> dict[str, list[tuple[str, str]]]:
        explorers = sorted(content.get().explorers.values(), key=lambda e: (e.colour, e.name))
        return {"explorer": [(e.key, betrayal_line("explorer_choice", name=e.name,
                                                   colour=betrayal_line(f"colours.{e.colour}")))
                             for e in explorers]}

    def check_pick(self, picks: list[dict[str, str]], seat: int, name: str, value: str) -> None:
        """Two sides of one character card never play together (seed 003)."""
        known = content.get().explorers
        mine = known[value]
        for other, chosen in enumerate(picks):
            theirs = known.get(chosen.get(name, ""))
            if other != seat and theirs is not None and theirs.colour == mine.colour:
                raise IllegalAction(betrayal_line("errors.same_card", explorer=mine.name,
                                                  colour=betrayal_line(f"colours.{mine.colour}")))
