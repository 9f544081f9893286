"""What every game package provides to the sessions layer.

A game is pure: state in, state and events out, never any I/O. All randomness comes
from an Rng kept inside the state, so a game replays from its seed and its actions.
`apply` must leave the `state` it was given untouched when it raises IllegalAction;
engines copy first (see `copy_state`) and then mutate the copy.

Several seats may act at once: `to_act` names the seat the game waits for, and
`out_of_turn` the other seats that may act now, without waiting (a move a card allows
at any moment of anyone's turn). `options` of such a seat are exactly its
out-of-turn actions, and `apply` takes them from that seat like any other action. The
table shows each such seat its own buttons; an AI seat takes its out-of-turn action
when `ai_offer` names one, before the AI to act moves.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, Generic, Protocol, TypeVar

from bot.core.actions import Action, Option
from bot.core.errors import IllegalAction
from bot.core.events import DETAIL, Event
from bot.core.formats import Formats
from bot.core.plain import copy_plain
from bot.core.story import LogLine, Story, last_of

S = TypeVar("S")


class Seated(Protocol):
    """A state that keeps its seats' names and AI flags in two lists (every game so
    far), so `Game.seat_handed` can change a seat for it."""

    players: list[str]
    ai: list[bool]


SeatedS = TypeVar("SeatedS", bound=Seated)

# Content a server has played (a game's scenarios), for games that avoid repeating it.
# An event naming a piece of content as it comes into play carries its key in
# data[PLAYED]; the sessions layer remembers it per server and game kind, and hands the
# server's keys to the next game's `setup` as options[PLAYED] (a list of keys).
PLAYED = "played"

# A table fact: the seat of the lobby's host when the game starts, handed to `setup` as
# options[HOST_SEAT] (bot/table_lobby.py, setup_options; recorded with the setup, so a replay
# starts alike), for rules that leave a choice to the host with the host as default.
HOST_SEAT = "host_seat"


@dataclass(frozen=True)
class About:
    """The lobby's few words on a game, in the language spoken: what it is about, and
    about how long a table plays (the lobby adds the number of players)."""

    text: str
    length: str

    @classmethod
    def said(cls, line: Callable[[str], str]) -> About:
        """A game's texts' `about` (its `text` and `length`), read with the game's own
        `line` (e.g. its `<game>_line`), so in the language spoken."""
        return cls(text=line("about.text"), length=line("about.length"))


@dataclass(frozen=True)
class PlayerInfo:
    """What an engine knows of a seat: its name and whether an AI plays it."""

    name: str
    ai: bool = False


class Game(ABC, Generic[S]):
    key: str
    title: str
    # The game's colour in Discord (the live message's frame): a look, not a rule.
    colour: int | None = None
    state_type: type[S]  # a dataclass with to_dict() and from_dict(raw)
    min_players: int
    max_players: int
    seats_per_player: int = 1  # a game may let one person play two seats when few play
    # The stored state's formats (bot/core/formats.py): a game whose state changed shape
    # since its first release lists the steps that bring an older stored state up to
    # date (CONTRIBUTING.md, "Change a stored state"). None yet: format 0.
    state_formats: Formats = Formats()
    # The game words a pending choice again as it is read, in the reader's language
    # (from its kind and payload), so a table that reads only English need not
    # play a step again for a choice's words in the others (bot/languages.py).
    words_choices_when_read: bool = False

    def check_player_count(self, count: int, refusal: Callable[..., str]) -> None:
        """Refuse a table of the wrong size before anything is dealt; `refusal` is the
        game's own line (its `errors.bad_player_count`), given `low` and `high`."""
        if not self.min_players <= count <= self.max_players:
            raise IllegalAction(refusal(low=self.min_players, high=self.max_players))

    @abstractmethod
    def setup(self, players: list[PlayerInfo], seed: int,
              options: dict[str, Any]) -> tuple[S, list[Event]]:
        """A new game for these seats (index = seat, clockwise order)."""

    @abstractmethod
    def apply(self, state: S, seat: int, action: Action) -> tuple[S, list[Event]]:
        """Play one action by one seat; raise IllegalAction if the rules forbid it."""

    @abstractmethod
    def to_act(self, state: S) -> int | None:
        """The seat whose decision the game waits for; None once the game is over."""

    @abstractmethod
    def options(self, state: S, seat: int) -> list[Option]:
        """Every legal action of this seat now: the turn's for the seat `to_act`, its
        out-of-turn actions for a seat in `out_of_turn`, else none."""

    def out_of_turn(self, state: S) -> list[int]:
        """The seats other than `to_act` that may act now (each has `options`), in seat
        order. Games where only the seat to act may act have none."""
        return []

    @abstractmethod
    def is_over(self, state: S) -> bool:
        """True once the game has a result; the table then closes."""

    # ---- the AI. An AI decides from its seat's view of the state (`seat_view`), never
    # from the state: `ai_action` and `ai_offer` build the view and hand only it on,
    # and no game overrides them (tests/test_ai_views.py); a game says how its seats
    # see (`seat_view`) and how its AI decides from what it sees (`decide`).

    def ai_action(self, state: S, seat: int) -> Action:
        """A legal, sensible action for an AI in this seat (the seat `to_act`), decided
        from the seat's view: the state and its Rng are left as they were."""
        self.check_ai_seat(state, seat)
        return self.decide(self.seat_view(state, seat), seat)

    def ai_offer(self, state: S, seat: int) -> Action | None:
        """The out-of-turn action an AI in this seat (one of `out_of_turn`) takes now, one
        of its `options`; None lets the game go on without it. Decided from the seat's
        view, like `ai_action`; it must decline sooner or later (the sessions layer
        bounds a run of offers)."""
        return self.decide_offer(self.seat_view(state, seat), seat)

    @abstractmethod
    def seat_view(self, state: S, seat: int) -> S:
        """The state as this seat may know it (bot/core/views.py): a copy in which all
        it may not know is dealt anew from what it cannot tell apart, marked as a view.
        Two states that differ only in what this seat may not know give the same view."""

    def check_ai_seat(self, state: S, seat: int) -> None:
        """Refuse (IllegalAction) to let an AI decide for a seat the game does not wait
        for, in the words `apply` would use."""

    @abstractmethod
    def decide(self, view: S, seat: int) -> Action:
        """The AI's action for this seat, from its view alone."""

    def decide_offer(self, view: S, seat: int) -> Action | None:
        """The AI's out-of-turn action for this seat, from its view alone (None: none)."""
        return None

    def pass_turn(self, state: S, seat: int) -> Action | None:
        """The action that ends this seat's turn with nothing more done, if the game has
        one open now: a turn timer set to skip plays it. None (no plain end of turn, or
        not now): the timer lets the AI play the turn instead."""
        return None

    @abstractmethod
    def private_view(self, state: S, seat: int) -> str:
        """This seat's secrets as they stand now (what `/secret` shows)."""

    def revealed(self, state: S) -> list[str]:
        """What a finished game may show of its secrets, as the books are shown at the
        end: a replay's last picture says it (bot/replay.py). Asked only once the game is
        over; nothing by default (a game without secrets)."""
        return []

    @abstractmethod
    def status_text(self, state: S) -> str:
        """A short public summary for `/game status`."""

    @abstractmethod
    def set_player(self, state: S, seat: int, info: PlayerInfo) -> S:
        """Record a seat changing hands (a kicked human becomes an AI)."""

    def seat_handed(self: Game[SeatedS], state: SeatedS, seat: int, info: PlayerInfo,
                    refusal: str) -> SeatedS:
        """`set_player` for a state that keeps its seats' names and AI flags in
        `players` and `ai` lists (every game so far): a copy with this seat's changed,
        or `refusal` (the game's own words) for a seat that is not in the game."""
        players, ai = state.players, state.ai
        if not 0 <= seat < len(players) or len(ai) != len(players):
            raise IllegalAction(refusal)
        new = self.copy_state(state)
        new.players[seat] = info.name
        new.ai[seat] = info.ai
        return new

    def dump(self, state: S) -> dict[str, Any]:
        """The state as plain JSON data for the store, its format written in (from
        format 1 on), so a later release knows which upgrade steps it still needs."""
        raw: dict[str, Any] = state.to_dict()  # type: ignore[attr-defined]
        return self.state_formats.stamped(raw, f"the {self.key} state")

    def as_compared(self, raw: dict[str, Any], stored: dict[str, Any]) -> dict[str, Any]:
        """A state played again (`raw`, dumped) as it compares with one an earlier
        release stored (`stored`, dumped; bot/replay.py): a game whose states have since
        kept more (words to say a line in other languages) leaves out what the stored
        one never had, so an old game still replays exactly. As it is by default."""
        return raw

    def load(self, raw: dict[str, Any]) -> S:
        """The inverse of dump, for a state of any format this game has had: an older
        one is upgraded first (a table saved before the bot was upgraded, or its undo
        points); a newer one is refused (UnknownFormat), never guessed at."""
        data = self.state_formats.upgraded(raw, f"the {self.key} state")
        return self.state_type.from_dict(data)  # type: ignore[attr-defined, no-any-return]

    def setup_choices(self) -> dict[str, list[tuple[str, str]]]:
        """Setup options a lobby may set: option -> [(value, label)] (e.g. the house)."""
        return {}

    def options_without_seat(self, options: Mapping[str, Any], seat: int) -> dict[str, Any]:
        """The lobby's setup options once `seat` (0-based) left it and the seats after it
        moved up one: an option naming a seat by its place must go on naming the same
        player, or none once theirs is the seat that left. By default, unchanged."""
        return dict(options)

    def setup_option_help(self) -> dict[str, str]:
        """Option -> a line saying what it sets, for each of `setup_choices` (the help
        `/game new` shows beside the option; Discord allows 100 characters)."""
        return {}

    def seat_choices(self) -> dict[str, list[tuple[str, str]]]:
        """What each player picks in the lobby: name -> [(value, label)] (e.g. explorer).

        The picks reach `setup` as options[name + "s"], one entry per seat (None when the
        seat made no pick, as AI seats do).
        """
        return {}

    def check_pick(self, picks: list[dict[str, str]], seat: int, name: str, value: str) -> None:
        """Refuse (IllegalAction) a pick that clashes with the other seats' picks."""

    def option_label(self, name: str) -> str:
        """The word players read for a lobby pick or setup option called `name` (a key of
        `seat_choices` or `setup_choices`, e.g. "explorer"): keys stay English in
        commands and state, so each game says the word from its texts, in the language
        spoken, lowercase as in a sentence ("Choose your explorer…"). By default the key."""
        return name

    def edition_of(self, options: Mapping[str, Any] | None) -> str:
        """The edition a table with these setup options plays ("" for the game's own): a
        game whose setup picks a box of its own (an expansion played as its own game)
        names it. Kept with a finished game's result, so its name outlives the table."""
        return ""

    def title_of(self, edition: str = "") -> str:
        """The game's name as players read it for a table of this edition (`edition_of`):
        the lobby, /game status, the story, /game history, /stats and /help say the
        edition played. An edition this release does not know reads as the game."""
        return self.title

    def teams(self, state: S) -> dict[str, list[int]]:
        """Team name -> its seats, for events sent `to_team(name)` (e.g. heroes and a
        traitor once the story splits the table). Games without teams have none."""
        return {}

    def prompt_private(self, state: S, seat: int) -> bool:
        """True when this seat's whole turn must be played out of sight: its buttons go to
        the player's DMs and the channel only learns who is playing (a traitor's turn)."""
        return False

    def chapter(self, state: S) -> str | None:
        """The part of the story the table is in (a round, the haunt): the game's live
        message is edited in place while the chapter stays the same, and a new one is
        posted when it changes (the old one stays as the record of its chapter). None
        (the default): the whole game is one chapter."""
        return None

    def turn_name(self, state: S) -> str | None:
        """Names the turn under way: the live message gathers the lines of one turn
        (a fight told card by card stays on it) and starts afresh when the name changes.
        The default, the seat to act, cannot tell two turns of one seat apart (one human
        among AI seats): games with a turn count name it."""
        seat = self.to_act(state)
        return None if seat is None else str(seat)

    def detail_kinds(self) -> frozenset[str]:
        """The kinds of public event the live message leaves to `/game log` (bot/headlines
        .py): the table reads the turn in a few headlines, the log keeps every line. Kinds,
        not texts, decide it, so a delivery rebuilt from the stored events after a crash
        chooses the same."""
        return frozenset({DETAIL, "turn", "choice"})

    def whole_kinds(self) -> frozenset[str]:
        """The kinds of public event the live message always shows, whole, beside its
        few headlines (a round's score, which ends the round's message): too important
        for the log alone."""
        return frozenset()

    def rules_topics(self, options: dict[str, Any] | None = None) -> dict[str, str]:
        """Topic -> short rules text, for `/game rules` (loaded from data/). `options`
        are a table's setup options: a game whose variants add rules (an edition) shows
        a table only the topics it plays; None: every topic."""
        return {}

    def rules_titles(self, options: dict[str, Any] | None = None) -> dict[str, str]:
        """Topic -> its title as players read it (the key is only the value a pick sends)."""
        return {}

    def story(self, state: S, log: list[LogLine]) -> Story:
        """The finished game's story (bot/core/story.py), read from its final state and
        its whole log (every event, oldest first): the summary the table reads at the
        end, `/game history` and `/stats` are built from it. Called only once the game
        is over, when no secret is left to keep. The default tells the end as the game
        told it (its last "game_over" line, else its status) and nothing of the seats;
        a game tells more by overriding it."""
        ending = last_of(log, "game_over") or self.status_text(state).split("\n")[0]
        return Story(outcome=ending)

    def content_names(self, edition: str | None = None) -> dict[str, str]:
        """Every piece of content this game may bring into play (its scenarios), key
        -> name as players read it: the keys its events record as played (PLAYED), so
        `/stats server` can name what a server has not seen yet. With `edition` (as
        `edition_of` names it), only that edition's own. None by default."""
        return {}

    def character_word(self, stored: str) -> str:
        """A character as a finished game's story named it (`SeatStory.character`, kept
        in the results: said in English, the engine's truth) -> named in the language
        spoken, for /stats. A name the game does not know is said as stored (the
        default: the game names no characters)."""
        return stored

    def command_words(self) -> dict[str, str]:
        """The words of the game's own commands (cogs/<key>.py: its group's, commands' and
        options' descriptions, its choices' names), by key, in the language spoken, from
        the game's texts: the cog writes the English into the command tree, and
        bot/command_translator.py pairs each with its words in the other languages.
        None by default (a game with no commands of its own)."""
        return {}

    def about(self, edition: str = "") -> About | None:
        """The lobby's few words on the game as a table of this edition (`edition_of`)
        plays it, from the game's own texts; None (the default) shows none. Every game
        of ours has them (tests/test_e2e_lobby.py)."""
        return None

    def edition_keys(self) -> list[str]:
        """Every edition a table of this game may play, as `edition_of` names them (""
        for the game's own): /stats names each one's content under its own title."""
        return [""]

    def read_ahead(self) -> None:
        """Read now, in the language being spoken, what the game would otherwise read
        at its first use (a haunt's book and words): the bot's warm-up calls it at the
        start, so that no player's first click waits for the files. Nothing by default."""

    def copy_state(self, state: S) -> S:
        """A deep copy that equals the round trip through the stored form,
        `load(dump(state))`, built directly (bot/core/plain.py: several times cheaper),
        and that still refuses a state holding anything but plain data."""
        return copy_plain(state)
