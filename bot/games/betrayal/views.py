"""What the table sees: the map and the character sheets (view.py's contract), and the
text versions for `/game status` and `/secret`.

Everything here is public on the real table (cards are played face up in Betrayal),
except the room stack and the decks, which only show how many are left.
"""

from __future__ import annotations

from bot.games.betrayal import content, traits
from bot.games.betrayal.content import TRAITS, say
from bot.games.betrayal.context import card_name, explorer_name
from bot.games.betrayal.haunt import haunts
from bot.games.betrayal.house import DIRS, doors
from bot.games.betrayal.links import house_links
from bot.games.betrayal.state import BetrayalState
from bot.games.betrayal.view import CardView, ExplorerView, MapView, SheetView, TileView, TraitView


def _header(state: BetrayalState) -> str:
    seat = state.turn.seat
    if state.over:
        return say("views.header_over", number=state.turn.number)
    return say("views.header", number=state.turn.number, who=explorer_name(state, seat),
               player=state.players[seat])


def _footer(state: BetrayalState) -> str:
    """Exploring: the rooms left to find. Once the haunt has begun: the haunt the chart
    gave (number and name, when it gave one), and who found which omen where."""
    found = state.haunt
    if found is None:
        return say("views.footer_explore", tiles=len(state.stack) + len(state.room_discard))
    who = explorer_name(state, found.revealer)
    omen, room = card_name(found.omen), content.room(found.room).name
    named = haunts().get(found.key) if found.key else None
    if named is None:
        return say("views.footer_haunt", who=who, omen=omen, room=room)
    return say("views.footer_haunt_named", number=found.number or named.number,
               name=named.name, who=who, omen=omen, room=room)


def map_view(state: BetrayalState) -> MapView:
    tiles = []
    for tile in state.tiles:
        room = content.room(tile.room)
        tiles.append(TileView(
            key=room.key, name=room.name, floor=tile.floor, x=tile.x, y=tile.y,
            doors=tuple(d for d in DIRS if d in doors(tile)), symbol=room.symbol,
            tokens=tuple(t["kind"] for t in tile.tokens),
            item_pile=tuple(card_name(k) for k in tile.items), barrier=room.barrier,
            start=room.start))
    acting = None if state.over else (state.pending.seat if state.pending else state.turn.seat)
    explorers = []
    for seat, e in enumerate(state.explorers):
        info = content.explorer(e.key)
        tile = state.tiles[e.tile]
        explorers.append(ExplorerView(seat=seat, name=info.name, player=state.players[seat],
                                      colour=info.hex, floor=tile.floor, x=tile.x, y=tile.y,
                                      alive=e.alive, acting=seat == acting))
    pairs: list[tuple[str, str]] = []
    for a, b, _ in house_links(state):
        pair = tuple(sorted((state.tiles[a].room, state.tiles[b].room)))
        if pair not in pairs:
            pairs.append(pair)  # type: ignore[arg-type]
    return MapView(tiles=tuple(tiles), explorers=tuple(explorers), header=_header(state),
                   omens=state.omens_drawn, footer=_footer(state), links=tuple(pairs))


def sheet_view(state: BetrayalState, seat: int) -> SheetView:
    e = state.explorers[seat]
    info = content.explorer(e.key)
    sheet = {t: TraitView(info.traits[t].values, e.traits[t], info.traits[t].start)
             for t in TRAITS}
    cards = tuple(CardView(content.card(k).name, content.card(k).deck, content.card(k).text)
                  for k in [*e.cards, *e.lasting])
    return SheetView(name=info.name, player=state.players[seat], colour=info.hex,
                     traits=sheet, cards=cards, room=content.room(state.at(seat).room).name,
                     notes=tuple(_notes(state, seat)))


def _notes(state: BetrayalState, seat: int) -> list[str]:
    e = state.explorers[seat]
    notes = [say("views.lasting", card=card_name(k)) for k in e.lasting]
    if e.benefits:
        notes.append(say("views.benefits", rooms=", ".join(
            content.room(r).name for r in e.benefits)))
    if "it_is_meant_to_be" in e.flags:
        notes.append(say("views.foreseen", total=e.flags["it_is_meant_to_be"]))
    if e.side:
        notes.append(say("views.side", dir=say(f"dirs.{e.side}")))
    return notes


def sheet_text(state: BetrayalState, seat: int) -> str:
    e = state.explorers[seat]
    info = content.explorer(e.key)
    lines = [say("views.sheet_title", who=info.name, room=content.room(state.at(seat).room).name)]
    for t in TRAITS:
        track = info.traits[t]
        marks = " ".join(f"[{v}]" if i == e.traits[t] else str(v)
                         for i, v in enumerate(track.values))
        lines.append(say("views.trait_line", trait=t.capitalize(),
                         value=traits.value(state, seat, t), track=marks))
    held = [card_name(k) for k in e.cards]
    lines.append(say("views.cards", cards=", ".join(held) if held else say("views.none")))
    lines += _notes(state, seat)
    return "\n".join(lines)


def status_text(state: BetrayalState) -> str:
    lines = [_header(state)]
    if state.pending is not None and not state.over:
        lines.append(say("views.choosing", who=explorer_name(state, state.pending.seat),
                         prompt=state.pending.prompt))
    for seat in range(len(state.explorers)):
        lines.append(say("views.status_line", who=explorer_name(state, seat),
                         player=state.players[seat] + (say("views.ai") if state.ai[seat] else ""),
                         room=content.room(state.at(seat).room).name,
                         traits=traits.sheet_line(state, seat)))
    lines.append(say("views.counts", omens=state.omens_drawn, placed=len(state.tiles),
                     left=len(state.stack) + len(state.room_discard)))
    lines.append(_footer(state))
    return "\n".join(lines)
