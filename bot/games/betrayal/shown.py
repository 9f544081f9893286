"""What the table sees: the map and the character sheets (pictures.py's contract), and the
text versions for `/game status` and `/secret`.

Everything here is public on the real table (cards are played face up in Betrayal),
except the room stack and the decks, which only show how many are left.
"""

from __future__ import annotations

from typing import Any

import yaml

from bot.games.betrayal import content, editions, traits
from bot.games.betrayal.content import TRAITS, betrayal_line
from bot.games.betrayal.context import card_name, explorer_name
from bot.games.betrayal.haunt_roll import haunts
from bot.games.betrayal.haunting import base
from bot.games.betrayal.haunting.base import HauntData, load_data
from bot.games.betrayal.haunting.parts import BoardHooks
from bot.games.betrayal.house import DIRS, doors
from bot.games.betrayal.links import ordered_links
from bot.games.betrayal.pictures import (
    CardView,
    ExplorerView,
    MapView,
    MonsterView,
    SheetView,
    TileView,
    TrackView,
    TraitView,
)
from bot.games.betrayal.state import MONSTERS, TRAITOR, BetrayalState, Monster
from bot.locales import per_language
from bot.texts import listed

_WINNERS: dict[str, str] = {"heroes": "views.won_heroes", "traitor": "views.won_traitor",
                            "none": "views.won_none"}


def _header(state: BetrayalState) -> str:
    """Whose turn it is: while exploring a turn number and an explorer; in the haunt
    the round and which side plays (a hero, the traitor, or the monsters and who moves
    them); once a side has won, who did and why."""
    seat = state.turn.seat
    found = state.haunt
    if state.over:
        if found is not None and found.winner:
            won = _WINNERS.get(found.winner, "views.won_none")
            if found.winner == "traitor" and base.for_state(state).cooperative:
                won = "views.won_house"  # no traitor: the house itself won
            result = betrayal_line(won)
            reason = base.reason_text(state)
            return betrayal_line("views.header_won", result=result, reason=reason) \
                if reason else result
        return betrayal_line("views.header_over", number=state.turn.number)
    if found is not None and found.round >= 1:
        if found.stage == MONSTERS:
            mover = found.traitor if found.traitor is not None else seat
            return betrayal_line("views.header_monsters", round=found.round,
                                 player=_player(state, mover))
        key = "views.header_traitor" if found.stage == TRAITOR else "views.header_hero"
        return betrayal_line(key, round=found.round, who=explorer_name(state, seat),
                             player=_player(state, seat))
    return betrayal_line("views.header", number=state.turn.number, who=explorer_name(state, seat),
                         player=state.players[seat])


def _player(state: BetrayalState, seat: int) -> str:
    return state.players[seat] if 0 <= seat < len(state.players) else "?"


def _track(state: BetrayalState) -> TrackView:
    return editions.for_state(state).track(state)


def _footer(state: BetrayalState) -> str:
    """Exploring: the rooms left to find. Once the haunt has begun: the haunt the chart
    gave (number and name, when it gave one), and who found which omen where; the
    haunt's own public line (`board_note`) comes first, since it changes as the game
    goes and a long footer is cut at its end."""
    line = _haunt_footer(state)
    note = base.hooks(state, BoardHooks).board_note(state) if state.haunt else ""
    return f"{note} · {line}" if note else line


def _haunt_footer(state: BetrayalState) -> str:
    found = state.haunt
    if found is None:
        return betrayal_line("views.footer_explore",
                             tiles=len(state.stack) + len(state.room_discard))
    who = explorer_name(state, found.revealer)
    omen, room = card_name(found.omen), content.room(found.room).name
    named = haunts().get(found.key) if found.key else None
    if named is None:
        return betrayal_line("views.footer_haunt", who=who, omen=omen, room=room)
    number = found.number or named.number
    mine = editions.for_state(state).haunt_footer(number, named.name, who, omen, room)
    if mine is not None:
        return mine
    return betrayal_line("views.footer_haunt_named", number=number, name=named.name, who=who,
                         omen=omen, room=room)


class _HauntLook:
    """Names and glyphs of a haunt's monsters and tokens, read from its data file. The
    files are written haunt by haunt, so a missing file, kind or field never breaks the
    map: the kind's key stands in for its name and its first letter for its glyph."""

    def __init__(self) -> None:
        self._data: dict[str, HauntData | None] = {}

    def data(self, key: str) -> HauntData | None:
        if key not in self._data:
            try:
                self._data[key] = load_data(key) if key else None
            except (OSError, KeyError, TypeError, ValueError, AttributeError, yaml.YAMLError):
                self._data[key] = None
        return self._data[key]

    def monster(self, haunt: str, kind: str) -> tuple[str, str, bool]:
        """(name, glyph, large) of a monster kind."""
        data = self.data(haunt)
        found = data.monsters.get(kind) if data is not None else None
        if found is None:
            return _kind_name(kind), _glyph("", kind), False
        return found.name or _kind_name(kind), _glyph(found.glyph, kind), bool(found.large)

    def token(self, haunt: str, kind: str) -> tuple[str, str]:
        """(glyph, name) of a haunt token kind."""
        data = self.data(haunt)
        found: Any = data.tokens.get(kind) if data is not None else None
        if not isinstance(found, dict):
            return _glyph("", kind), _kind_name(kind)
        return _glyph(str(found.get("glyph") or ""), kind), str(found.get("name") or
                                                                 _kind_name(kind))


def _kind_name(kind: str) -> str:
    return kind.replace("_", " ").strip().capitalize() or "?"


def _glyph(glyph: str, kind: str) -> str:
    """One character for the token: the data's as written, else the kind's initial."""
    return glyph.strip()[:1] or kind.strip()[:1].upper() or "?"


def _tile_views(state: BetrayalState, look: _HauntLook) -> list[TileView]:
    """The placed tiles; a token carrying a `haunt` key is the haunt's and is listed
    apart, by glyph and name, so the map can tell it from the rooms' own tokens."""
    running = state.haunt.key if state.haunt else ""
    tiles = []
    for tile in state.tiles:
        room = content.room(tile.room)
        opens = doors(tile)
        plain = tuple(t["kind"] for t in tile.tokens if "haunt" not in t)
        haunted = tuple(look.token(str(t["haunt"] or running), str(t["kind"]))
                        for t in tile.tokens if "haunt" in t)
        tiles.append(TileView(
            key=room.key, name=room.name, floor=tile.floor, x=tile.x, y=tile.y,
            doors=tuple(d for d in DIRS if d in opens), symbol=room.symbol,
            tokens=plain, item_pile=tuple(card_name(k) for k in tile.items),
            barrier=room.barrier, start=room.start, haunt_tokens=haunted))
    return tiles


def _monster_views(state: BetrayalState, look: _HauntLook) -> tuple[MonsterView, ...]:
    """The living monsters, by id, where their room is (dead ones left the board)."""
    running = state.haunt.key if state.haunt else ""
    found = []
    alive: list[Monster] = [m for m in state.monsters if m.alive
                            and 0 <= m.tile < len(state.tiles)]
    for m in sorted(alive, key=lambda m: m.id):
        name, glyph, large = look.monster(running, m.kind)
        tile = state.tiles[m.tile]
        found.append(MonsterView(id=m.id, name=name, glyph=glyph, floor=tile.floor, x=tile.x,
                                 y=tile.y, stunned=m.stunned, large=large))
    return tuple(found)


def map_view(state: BetrayalState) -> MapView:
    """The board as the table sees it. In the haunt: the living monsters, the haunt's
    tokens apart from the rooms' own, the dead where they fell and the traitor marked
    (Betrayal plays the traitor in the open; only the books are secret)."""
    look = _HauntLook()
    acting = None if state.over else (state.pending.seat if state.pending else state.turn.seat)
    traitor = state.haunt.traitor if state.haunt else None
    explorers = []
    for seat, e in enumerate(state.explorers):
        info = content.explorer(e.key)
        tile = state.tiles[e.tile]  # a dead explorer stays where it fell
        explorers.append(ExplorerView(seat=seat, name=info.name, player=state.players[seat],
                                      colour=info.hex, floor=tile.floor, x=tile.x, y=tile.y,
                                      alive=e.alive, acting=seat == acting,
                                      traitor=seat == traitor))
    pairs: list[tuple[str, str]] = []
    ordinals: list[int] = []
    for a, b, ordinal in ordered_links(state):
        pair = tuple(sorted((state.tiles[a].room, state.tiles[b].room)))
        if pair not in pairs:
            pairs.append(pair)  # type: ignore[arg-type]
            ordinals.append(ordinal)
    turn = state.turn
    walked = tuple(state.tiles[t].room for t in turn.walked if 0 <= t < len(state.tiles))
    placed = state.tiles[turn.placed].room if 0 <= turn.placed < len(state.tiles) else ""
    plugin = base.for_state(state)
    progress = plugin.progress(state) if state.haunt else []
    # The progress row carries the board note (a haunt without progress labels): the
    # footer row then says only the haunt's own line, not the note twice.
    note = base.hooks(state, BoardHooks).board_note(state) if progress else ""
    parts = [p for p in note.split(" · ") if p.strip()]
    shown = _haunt_footer(state) if parts and all(p in progress for p in parts) else ""
    return MapView(tiles=tuple(_tile_views(state, look)), explorers=tuple(explorers),
                   header=_header(state), track=_track(state), footer=_footer(state),
                   links=tuple(pairs), link_order=tuple(ordinals),
                   monsters=_monster_views(state, look),
                   walked=walked, placed=placed,
                   mover=turn.seat if walked or placed else None,
                   progress=tuple(progress), footer_shown=shown,
                   reserved=_reserved(state))


def _reserved(state: BetrayalState) -> tuple[str, ...]:
    """Every capital an explorer's label or a haunt's token may show in this game: the
    players' and explorers' initials and the glyphs of each haunt the edition may
    begin (and the one running). None of these change during a game."""
    letters: set[str] = set()
    for seat, e in enumerate(state.explorers):
        for name in (state.players[seat], content.explorer(e.key).name):
            letters.add(name.strip()[:1].upper())
    keys = list(editions.for_state(state).haunts())
    if state.haunt is not None and state.haunt.key:
        keys.append(state.haunt.key)
    for key in dict.fromkeys(keys):
        letters.update(haunt_letters(key))
    return tuple(sorted(c for c in letters if c.isalpha()))


@per_language
def haunt_letters(key: str) -> frozenset[str]:
    """The capitals a haunt's monsters and tokens are drawn with (their glyphs and
    initials: the map falls back to an initial where a font lacks a glyph). Kept per
    language: every board asked again for each haunt its edition may begin, and the
    data files do not change while the bot runs (issue 23)."""
    look = _HauntLook()
    data = look.data(key)
    if data is None:
        return frozenset()
    found: set[str] = set()
    for kind in data.monsters:
        name, glyph, _ = look.monster(key, kind)
        found |= {glyph.upper(), name[:1].upper()}
    for kind in data.tokens:
        glyph, name = look.token(key, kind)
        found |= {glyph.upper(), name[:1].upper()}
    return frozenset(found)


def sheet_view(state: BetrayalState, seat: int) -> SheetView:
    e = state.explorers[seat]
    info = content.explorer(e.key)
    sheet = {t: TraitView(info.traits[t].values, e.traits[t], info.traits[t].start)
             for t in TRAITS}
    cards = tuple(CardView(content.card(k).name, content.card(k).deck, content.card(k).text)
                  for k in [*e.cards, *e.lasting])
    return SheetView(name=info.name, player=state.players[seat], colour=info.hex,
                     traits=sheet, cards=cards, room=content.room(state.at(seat).room).name,
                     notes=tuple(_notes(state, seat)), alive=e.alive,
                     traitor=_is_traitor(state, seat))


def _is_traitor(state: BetrayalState, seat: int) -> bool:
    return state.haunt is not None and state.haunt.traitor == seat


def _notes(state: BetrayalState, seat: int) -> list[str]:
    e = state.explorers[seat]
    notes = [betrayal_line("views.lasting", card=card_name(k)) for k in e.lasting]
    if e.benefits:
        notes.append(betrayal_line("views.benefits", rooms=listed(
            [content.room(r).name for r in e.benefits])))
    if "it_is_meant_to_be" in e.flags:
        notes.append(betrayal_line("views.foreseen", total=e.flags["it_is_meant_to_be"]))
    if e.side:
        notes.append(betrayal_line("views.side", dir=betrayal_line(f"dirs.{e.side}")))
    return notes


def sheet_text(state: BetrayalState, seat: int) -> str:
    e = state.explorers[seat]
    info = content.explorer(e.key)
    lines = [betrayal_line("views.sheet_title", who=info.name,
                           room=content.room(state.at(seat).room).name)]
    if _is_traitor(state, seat):
        lines.append(betrayal_line("views.sheet_traitor", who=info.name))
    if not e.alive:
        lines.append(betrayal_line("views.sheet_dead", who=info.name))
    for t in TRAITS:
        track = info.traits[t]
        marks = " ".join(f"[{v}]" if i == e.traits[t] else str(v)
                         for i, v in enumerate(track.values))
        lines.append(betrayal_line("views.trait_line", trait=content.trait_name(t),
                                   value=traits.value(state, seat, t), track=marks))
    held = [card_name(k) for k in e.cards]
    lines.append(betrayal_line("views.cards",
                               cards=listed(held) if held else betrayal_line("views.none")))
    lines += _notes(state, seat)
    return "\n".join(lines)


def status_text(state: BetrayalState) -> str:
    lines = [_header(state)]
    if state.pending is not None and not state.over:
        lines.append(betrayal_line("views.choosing", who=explorer_name(state, state.pending.seat),
                                   prompt=state.pending.asked))
    for seat in range(len(state.explorers)):
        ai = betrayal_line("views.ai") if state.ai[seat] else ""
        line = betrayal_line("views.status_line", who=explorer_name(state, seat),
                             player=state.players[seat] + ai,
                             room=content.room(state.at(seat).room).name,
                             traits=traits.sheet_line(state, seat))
        if _is_traitor(state, seat):
            line += betrayal_line("views.status_traitor")
        if not state.explorers[seat].alive:
            line += betrayal_line("views.status_dead")
        lines.append(line)
    lines.append(betrayal_line("views.counts", omens=state.omens_drawn, placed=len(state.tiles),
                               left=len(state.stack) + len(state.room_discard)))
    lines += editions.for_state(state).status(state)
    lines.append(_footer(state))
    return "\n".join(lines)
