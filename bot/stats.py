"""/stats from the kept results (bot/store's result_seats), counted off the event loop:
a member's games by game and by side, scores, cooperative wins by table size, their
favourite character and longest game; a server's table of players, its most played
content and what it has not seen yet. Names no game: a game's sides, scores and
characters are whatever its story said (bot/core/story.py)."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

from bot.core.story import HOUSE, NO_SIDE
from bot.store.records import PlayedSeat

TABLE_ROWS = 8  # players a server's table shows
CONTENT_ROWS = 5  # most played pieces of content shown
EDITION_MARK = "/"  # between a game's kind and its edition in the keys games are counted by


def played_as(seat: PlayedSeat) -> str:
    """The game as /stats counts it: its kind, and its edition where it played one
    ("<kind>/<edition>"), so each edition is counted and named apart (Game.title_of)."""
    return game_key(seat.kind, seat.edition)


def game_key(kind: str, edition: str = "") -> str:
    """The key of a game of this kind and edition, as `played_as` counts it."""
    return f"{kind}{EDITION_MARK}{edition}" if edition else kind


def kind_and_edition(key: str) -> tuple[str, str]:
    """A `played_as` key back as (kind, edition)."""
    kind, _, edition = key.partition(EDITION_MARK)
    return kind, edition


@dataclass
class Tally:
    played: int = 0
    won: int = 0

    def add(self, won: bool) -> None:
        self.played += 1
        self.won += int(won)


@dataclass
class MemberStats:
    total: Tally = field(default_factory=Tally)
    by_game: dict[str, Tally] = field(default_factory=dict)  # by `played_as`
    by_side: dict[str, Tally] = field(default_factory=dict)
    scores: dict[str, list[int]] = field(default_factory=dict)  # played_as -> final scores
    # a cooperative game (every seat on the house's side): played_as -> size -> tally
    together: dict[str, dict[int, Tally]] = field(default_factory=dict)
    favourite: tuple[str, int] | None = None  # the character played most, how often
    # The game (`played_as`) the favourite was last counted in: its name is the story's,
    # in English, and that game names it in the reader's language (Game.character_word).
    favourite_in: str = ""
    longest: PlayedSeat | None = None


def by_game(seats: list[PlayedSeat]) -> list[list[PlayedSeat]]:
    """The seats grouped by game, in their order: one person may hold two seats of one
    game (a second seat, `Game.seats_per_player`), which is still one game played, and
    those seats are on one side (bot/table_seats.py's `split_teams`)."""
    games: dict[int, list[PlayedSeat]] = {}
    for seat in seats:
        games.setdefault(seat.game_id, []).append(seat)
    return list(games.values())


def member_stats(seats: list[PlayedSeat]) -> MemberStats:
    stats = MemberStats()
    characters: Counter[str] = Counter()
    played_in: dict[str, str] = {}  # a character -> the game it was last counted in
    for held in by_game(seats):
        played = held[0]
        won = any(s.seat.won for s in held)
        stats.total.add(won)
        game = played_as(played)
        stats.by_game.setdefault(game, Tally()).add(won)
        if played.seat.side != NO_SIDE:  # a game ended early played no side
            stats.by_side.setdefault(played.seat.side, Tally()).add(won)
        for seat in held:
            if seat.seat.score is not None:
                stats.scores.setdefault(game, []).append(seat.seat.score)
            if seat.seat.character:
                characters[seat.seat.character] += 1
                played_in[seat.seat.character] = game
        if played.seat.side == HOUSE:
            stats.together.setdefault(game, {}).setdefault(
                played.table_size, Tally()).add(won)
        if stats.longest is None or played.turns > stats.longest.turns:
            stats.longest = played
    if characters:
        stats.favourite = characters.most_common(1)[0]
        stats.favourite_in = played_in[stats.favourite[0]]
    return stats


@dataclass(frozen=True)
class PlayerRow:
    user_id: int
    name: str
    played: int
    won: int


@dataclass
class ServerStats:
    games: int = 0
    by_game: dict[str, Tally] = field(default_factory=dict)  # by `played_as`
    table: list[PlayerRow] = field(default_factory=list)
    most_played: list[tuple[str, int]] = field(default_factory=list)  # content name, games
    unseen: dict[str, list[str]] = field(default_factory=dict)  # played_as -> content names


def server_stats(seats: list[PlayedSeat], played: dict[str, list[str]],
                 names: dict[str, dict[str, str]]) -> ServerStats:
    """`played`: the content keys the server has played, by game kind (played_content);
    `names`: every piece of content each game may bring, key -> name, by `played_as`
    (each edition's its own: its content is named under its own title). A game counts
    as won by the server when one of its members won it (not only the AI or the game)."""
    stats = ServerStats()
    games: dict[int, PlayedSeat] = {}
    players: dict[int, Tally] = {}
    latest_name: dict[int, str] = {}
    per_game: dict[str, Tally] = {}
    for held in by_game(seats):
        games[held[0].game_id] = held[0]
        humans: dict[int, list[PlayedSeat]] = {}
        for seat in held:
            if seat.seat.user_id is not None and not seat.seat.ai:
                humans.setdefault(seat.seat.user_id, []).append(seat)
        for user, theirs in humans.items():
            players.setdefault(user, Tally()).add(any(s.seat.won for s in theirs))
            latest_name[user] = theirs[0].seat.name  # their first seat: their own name
        per_game.setdefault(played_as(held[0]), Tally()).add(
            any(s.seat.won for theirs in humans.values() for s in theirs))
    stats.games = len(games)
    stats.by_game = per_game
    rows = [PlayerRow(user, latest_name[user], t.played, t.won) for user, t in players.items()]
    rows.sort(key=lambda r: (-r.won, -r.played, r.name))
    stats.table = rows[:TABLE_ROWS]
    content = Counter((played_as(g), g.content) for g in games.values() if g.content)
    stats.most_played = [(names.get(game, {}).get(key, key), count)
                         for (game, key), count in content.most_common(CONTENT_ROWS)]
    for game, every in names.items():
        kind, _ = kind_and_edition(game)
        seen = set(played.get(kind, ())) | {key for (_, key) in content}
        missing = [name for key, name in every.items() if key not in seen]
        if missing:
            stats.unseen[game] = missing
    return stats
