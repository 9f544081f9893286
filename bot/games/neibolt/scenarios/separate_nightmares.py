"""Separate Nightmares (seed 000, scenario 2): the house tears itself apart, each hero
wakes alone in a scrap of it, and the heroes must find their way back to the Entrance
Hall and out.

Seed 000 gives the heroes' side; the traitor's (its nightmares, how it wins, the last
round) is ours, in data/neibolt/haunts/separate_nightmares.yaml with every RULING.

The house: `setup` keeps the start tiles and the tiles with a hero or a monster, puts
every other tile back into the stack, and spreads the kept ones apart on the ground
floor (`SPREAD` cells between them), so no door meets another; tile ids are dealt anew
(state.py: an id is an index), so every reference to a tile is mapped
(`house.take_out`). While the haunt runs every tile goes on the ground floor
(`explore_floor`), an event symbol moves the
number track down instead of drawing (`symbol_steps`), and the Mystic Elevator moves
only on 2 or 4 (`elevator_floors`). A hero's "set of tiles" is the tiles its doors join
(`door_group`); it is connected when the Entrance Hall can be walked to from it (doors
and the house's links: the stairs still lead where they did).

progress: "track" (the number track), "hand" (the traitor's nightmares, secret),
"out" (the Sanity rolls of a Find a Way Out being made), "escaped".
"""

from __future__ import annotations

from collections import deque
from typing import Any

from bot.core.events import Audience, to_player
from bot.core.rng import Rng
from bot.games.betrayal.plugin_api import (
    DIRS,
    PLUGINS,
    AIHooks,
    BetrayalState,
    BoardHooks,
    Ctx,
    Frame,
    HauntPlugin,
    Monster,
    MovementHooks,
    Offer,
    Reason,
    TurnHooks,
    ask_tile,
    cell_of,
    content,
    distances_to,
    doors,
    graph_of,
    handler,
    house,
    monsters,
    opposite,
    pause,
    place_explorer,
    plan,
    register,
    resumer,
    sides,
    step,
    traits,
    turn,
)
from bot.games.neibolt.names import rooms
from bot.texts import listed

KEY = "separate_nightmares"
FLOOR = "ground"  # seed 000: all tiles are now on the Ground Floor
HALL = "entrance_hall"
TRIPLE = rooms("triple room tile")  # the Entrance Hall, the Foyer, the Grand Staircase
ELEVATOR_MOVES = (2, 4)  # seed 000: the Mystic Elevator only moves on a roll of 2 or 4
JOIN_CHOICES = 12  # the traitor's choice of where a set joins: the worst ones for the heroes
HELP_TRACK = 2  # the AI helps another hero once the track is this low
NIGHTMARE_PICK, JOIN_PICK, HELP_SIDE_PICK = "sn_nightmare", "sn_join", "sn_help_side"
ROLL_TRAITS = ["knowledge", "sanity"]


def plugin() -> SeparateNightmares:
    found = PLUGINS[KEY]
    assert isinstance(found, SeparateNightmares)
    return found


def progress(state: BetrayalState) -> dict[str, Any]:
    assert state.haunt is not None
    return state.haunt.progress


def track(state: BetrayalState) -> int:
    return int(progress(state).get("track", 0))


def running(state: BetrayalState) -> bool:
    return state.haunt is not None and state.haunt.key == KEY and not state.over


# ---------------------------------------------------------------- the house's groups

def door_group(state: BetrayalState, tile_id: int) -> set[int]:
    """The tiles this one's doors join, door by door: a hero's "set of tiles"."""
    exits = plan(state).exits
    seen, todo = {tile_id}, [tile_id]
    while todo:
        for nxt in exits[todo.pop()].values():
            if nxt not in seen:
                seen.add(nxt)
                todo.append(nxt)
    return seen


def to_hall(state: BetrayalState) -> dict[int, int]:
    """Every tile from which the Entrance Hall can be walked to, and how far: the house
    the heroes must get back into (doors and the house's links)."""
    hall = state.tile_of(HALL)
    return {} if hall is None else distances_to(graph_of(state), {hall})


def connected(state: BetrayalState, seat: int) -> bool:
    return state.explorers[seat].tile in to_hall(state)


def in_hall(state: BetrayalState, seat: int) -> bool:
    return state.tiles[state.explorers[seat].tile].room == HALL


def join_spots(state: BetrayalState, seat: int) -> list[dict[str, Any]]:
    """Where the hero's set of tiles can be set against the house without turning it:
    one of its doors against a door of a tile joined to the Entrance Hall, no cell taken
    twice. Worst for the heroes first (the longest walk from the hero to the hall), so
    the AI traitor's pick, the first, is legal and spiteful."""
    joined = to_hall(state)
    here = state.explorers[seat].tile
    group = door_group(state, here)
    if here in joined:
        return []
    cells = {i: cell_of(state.tiles[i]) for i in range(len(state.tiles))}
    taken = {c for i, c in cells.items() if i not in group}
    inside = _walk(state, here, group)
    found: dict[tuple[int, int], dict[str, Any]] = {}
    for h in sorted(joined):
        hcell = cells[h]
        for d in DIRS:
            if d not in doors(state.tiles[h]):
                continue
            target = house.step(hcell, d)
            if target in taken:
                continue
            for s in sorted(group):
                if opposite(d) not in doors(state.tiles[s]) or s not in inside:
                    continue
                scell = cells[s]
                dx, dy = target[1] - scell[1], target[2] - scell[2]
                moved = {(FLOOR, cells[g][1] + dx, cells[g][2] + dy) for g in group}
                if moved & taken or (dx, dy) in found:
                    continue
                found[(dx, dy)] = {"dx": dx, "dy": dy, "house": h, "dir": d, "tile": s,
                                   "far": inside[s] + 1 + joined[h]}
    return sorted(found.values(), key=lambda j: (-j["far"], j["house"], j["dir"], j["tile"]))


def _walk(state: BetrayalState, start: int, group: set[int]) -> dict[int, int]:
    """Door steps from `start` to each tile of its set."""
    exits = plan(state).exits
    found = {start: 0}
    todo = deque([start])
    while todo:
        tile = todo.popleft()
        for nxt in exits[tile].values():
            if nxt in group and nxt not in found:
                found[nxt] = found[tile] + 1
                todo.append(nxt)
    return found


def move_group(state: BetrayalState, group: set[int], dx: int, dy: int) -> None:
    for i in group:
        tile = state.tiles[i]
        tile.floor, tile.x, tile.y = FLOOR, tile.x + dx, tile.y + dy


# ---------------------------------------------------------------- the setup

def tear_apart(ctx: Ctx, spread: int) -> int:
    """Seed 000's setup: keep the start tiles and the tiles with a hero or a monster,
    shuffle the rest back into the stack, and set the kept ones apart on the ground
    floor. Returns how many tiles went back. Items lying in a removed tile are buried,
    its tokens go (RULING); whoever stood there (the traitor) goes to the Entrance Hall."""
    state = ctx.state
    hall = state.tile_of(HALL)
    assert hall is not None
    held = {e.tile for s, e in enumerate(state.explorers)
            if e.alive and not sides.is_traitor(state, s)}
    held |= {m.tile for m in sides.monsters(state)}
    keep = [i for i, t in enumerate(state.tiles)
            if content.room(t.room).start or i in held]
    gone = [i for i in range(len(state.tiles)) if i not in keep]
    buried = 0
    for i in gone:
        for card in state.tiles[i].items:
            state.decks[content.card(card).deck].append(card)
            buried += 1
    removed = [state.tiles[i].room for i in gone]
    house.take_out(state, gone, refuge=hall)
    state.stack = [*state.stack, *removed, *state.room_discard]
    state.room_discard = []
    state.rng.shuffle(state.stack)
    spread_out(state, spread)
    if buried:
        plugin().say(ctx, "buried", count=buried)
    return len(removed)


def spread_out(state: BetrayalState, spread: int) -> None:
    """Every kept tile on the ground floor, `spread` cells from the next, on rings
    around the triple tile (which keeps its three rooms as they lie): no door of one
    tile meets another's."""
    hall = state.tile_of(HALL)
    assert hall is not None
    anchor = state.tiles[hall]
    ax, ay = anchor.x, anchor.y
    strip = [i for i, t in enumerate(state.tiles) if t.room in TRIPLE]
    for i in strip:
        tile = state.tiles[i]
        tile.floor, tile.x, tile.y = FLOOR, tile.x - ax, tile.y - ay
    others = sorted((i for i in range(len(state.tiles)) if i not in strip),
                    key=lambda i: (not content.room(state.tiles[i].room).start, i))
    slots = _slots(len(others), spread)
    for i, (x, y) in zip(others, slots, strict=True):
        tile = state.tiles[i]
        tile.floor, tile.x, tile.y = FLOOR, x, y


def _slots(count: int, spread: int) -> list[tuple[int, int]]:
    """Cells on square rings around the triple tile (which spans x -2..0, y 0)."""
    found: list[tuple[int, int]] = []
    ring = 1
    while len(found) < count:
        ring_cells = [(dx, dy) for dy in range(-ring, ring + 1) for dx in range(-ring, ring + 1)
                      if max(abs(dx), abs(dy)) == ring]
        ring_cells.sort(key=lambda c: (abs(c[0]) + abs(c[1]), c[1], c[0]))
        found += [(dx * spread - 1, dy * spread) for dx, dy in ring_cells]
        ring += 1
    return found[:count]


# ---------------------------------------------------------------- the plugin

@register(KEY)
class SeparateNightmares(HauntPlugin, TurnHooks, MovementHooks, BoardHooks, AIHooks):
    def nightmares(self) -> dict[str, dict[str, Any]]:
        return dict(self.data.raw.get("nightmares") or {})

    def deal(self, state: BetrayalState) -> list[str]:
        """The traitor's hand: the first `nightmares` of the data's `hand`."""
        return [str(k) for k in self.data.raw.get("hand") or []][:self.value(state, "nightmares")]

    # ---------------------------------------------------------------- setup
    def setup(self, ctx: Ctx) -> None:
        state = ctx.state
        prog = progress(state)
        prog.update({"track": self.value(state, "track"), "out": [], "escaped": False,
                     "hand": self.deal(state)})
        removed = tear_apart(ctx, self.value(state, "spread"))
        self.say(ctx, "setup", kind="setup", removed=removed, track=track(state),
                 data={"track": track(state)})
        traitor = sides.traitor(state)
        if traitor is not None:
            self.say(ctx, "traitor_waits", who=ctx.who(traitor))

    # ---------------------------------------------------------------- the house
    def whole_house(self, state: BetrayalState) -> bool:
        return False

    def explore_floor(self, state: BetrayalState, room: str, floor: str) -> str | None:
        return FLOOR if running(state) else None

    def symbol_steps(self, state: BetrayalState, symbol: str,
                     steps: list[dict[str, Any]]) -> list[dict[str, Any]]:
        if running(state) and symbol == "event":
            return [{"_sn_track_down": {}}]
        return steps

    def elevator_floors(self, state: BetrayalState, total: int,
                        floors: tuple[str, ...]) -> tuple[str, ...]:
        if not running(state):
            return floors
        return (FLOOR,) if total in ELEVATOR_MOVES else ()

    def board_note(self, state: BetrayalState) -> str:
        return self.text("board", track=track(state)) if running(state) else ""

    @staticmethod
    def told(state: BetrayalState) -> Audience:
        """Who knows the nightmares in hand: the traitor alone (`private_notes`, and the
        choice of one is private)."""
        traitor = sides.traitor(state)
        return to_player(traitor if traitor is not None else -1)

    def hide(self, view: BetrayalState, seat: int | None, rng: Rng) -> None:
        """The traitor's hand, for a seat not told: as many nightmares, of those not
        played yet (each is played out loud)."""
        hand = progress(view).get("hand")
        if not hand or self.told(view).reaches(seat, sides.teams(view)):
            return
        played = [k for k in self.deal(view) if k not in hand]
        unplayed = [k for k in self.nightmares() if k not in played]
        progress(view)["hand"] = rng.sample(sorted(unplayed), len(hand))

    def private_notes(self, state: BetrayalState, seat: int) -> list[str]:
        if not self.told(state).reaches(seat, sides.teams(state)) or state.haunt is None:
            return []
        hand = progress(state).get("hand", [])
        if not hand:
            return [self.text("notes_empty")]
        names = self.nightmares()
        return [self.text("notes", hand=listed([str(names[k]["name"]) for k in hand]))]

    # ---------------------------------------------------------------- nightmares
    def discovered(self, ctx: Ctx, seat: int, tile_id: int) -> None:
        """Seed 000: after a hero enters a new room, before its card and its effects,
        the traitor may tell them of more: one nightmare from the traitor's hand."""
        state = ctx.state
        traitor = sides.traitor(state)
        if not running(state) or traitor is None or sides.is_traitor(state, seat) \
                or not progress(state).get("hand"):
            return
        ctx.push([{"_sn_nightmare": {"hero": seat, "tile": tile_id}}], traitor, KEY, "haunt")

    # ---------------------------------------------------------------- actions
    def offers(self, state: BetrayalState, seat: int) -> list[Offer]:
        if sides.is_traitor(state, seat) or not running(state):
            return []
        kw = {"track": track(state), "target": self.value(state, "through")}
        found = []
        heroes = sides.heroes(state)
        if not connected(state, seat):
            found.append(self.offer(state, "through", **kw))
        here = state.explorers[seat].tile
        if state.tiles[here].room in TRIPLE and any(
                state.explorers[h].tile != here for h in heroes if h != seat):
            found.append(self.offer(state, "help", **kw))
        if all(in_hall(state, h) for h in heroes):
            found.append(self.offer(state, "out", target=self.value(state, "out")))
        return found

    def act(self, ctx: Ctx, seat: int, offer: Offer) -> None:
        state = ctx.state
        # Any: mypy cannot tell these names from say's own keywords.
        kw: dict[str, Any] = {"track": track(state), "target": self.value(state, "through")}
        if offer.id == "through":
            self.say(ctx, "through", who=ctx.who(seat), **kw)
            ctx.push([{"roll": {"choose": ROLL_TRAITS, "purpose": "haunt",
                                "then": [{"_sn_through": {}}]}}], seat, KEY)
        elif offer.id == "help":
            self.say(ctx, "help", who=ctx.who(seat), **kw)
            ctx.push([{"roll": {"choose": ROLL_TRAITS, "purpose": "haunt",
                                "then": [{"_sn_help": {}}]}}], seat, KEY)
        elif offer.id == "out":
            self.say(ctx, "out", target=self.value(state, "out"))
            progress(state)["out"] = []
            ctx.push([{"_sn_out_total": {}}], seat, KEY)
            for hero in reversed(sides.heroes(state)):
                ctx.push([{"roll": {"trait": "sanity", "purpose": "haunt",
                                    "then": [{"_sn_out_roll": {}}]}}], hero, KEY)

    # ---------------------------------------------------------------- winning
    def winner(self, state: BetrayalState) -> tuple[str, Reason] | None:
        assert state.haunt is not None
        if state.haunt.progress.get("escaped"):
            return sides.HERO, self.reason("reason_out")
        return None

    # ---------------------------------------------------------------- the AI
    def goals(self, state: BetrayalState, seat: int) -> set[int]:
        """Heroes cut off explore (the track comes down, the set grows); once joined to
        the house they make for the Entrance Hall when everyone is joined, else they
        explore too, or (the track low) wait on the triple tile to help."""
        if sides.is_traitor(state, seat) or not running(state):
            return set()
        if not connected(state, seat):
            return set()
        hall = state.tile_of(HALL)
        heroes = sides.heroes(state)
        if all(connected(state, h) for h in heroes) or track(state) <= HELP_TRACK:
            return {hall} if hall is not None else set()
        return set()

    def ai_offer(self, state: BetrayalState, seat: int, offers: list[Offer]) -> Offer | None:
        by_id = {o.id: o for o in offers}
        if "out" in by_id:
            return by_id["out"]
        if "through" in by_id:
            return by_id["through"]  # a failure costs nothing
        heroes = sides.heroes(state)
        if "help" in by_id and track(state) <= HELP_TRACK \
                and any(not connected(state, h) for h in heroes):
            return by_id["help"]
        return None

    def ai_pick(self, state: BetrayalState) -> int | None:
        pending = state.pending
        if pending is None or not state.script or not state.script[-1].steps:
            return None
        first = state.script[-1].steps[0]
        if pending.kind == NIGHTMARE_PICK:
            return 0  # the hand is listed in the order the AI plays it
        if pending.kind == "roll_trait" and state.script[-1].source == KEY \
                and "_roll_choose" in first:
            names = list(first["_roll_choose"]["traits"])
            values = [traits.value(state, pending.seat, t) for t in names]
            return values.index(max(values))
        return None

    def monster_goals(self, state: BetrayalState, monster: Monster) -> set[int]:
        return set()


# ---------------------------------------------------------------- steps

@step("_sn_track_down")
def _track_down(ctx: Ctx, frame: Frame, arg: Any) -> None:
    """Seed 000: an Event symbol moves the number track down one space."""
    state = ctx.state
    prog = progress(state)
    room = ctx.room_name(state.explorers[frame.seat].tile)
    if track(state) <= 0:
        plugin().say(ctx, "track_floor", room=room)
        return
    prog["track"] = track(state) - 1
    plugin().say(ctx, "track_down", room=room, track=prog["track"],
                 data={"track": prog["track"]})


@handler("sn_track_up")
def _track_up(ctx: Ctx, frame: Frame, args: Any) -> None:
    """The Flood (designed): the number track moves up one space."""
    prog = progress(ctx.state)
    prog["track"] = track(ctx.state) + 1
    plugin().say(ctx, "track_up", track=prog["track"], data={"track": prog["track"]})


def _hand_choices(state: BetrayalState) -> list[str]:
    """The kinds of nightmare in the traitor's hand, in the order the YAML lists them."""
    hand = progress(state).get("hand", [])
    return [k for k in plugin().nightmares() if k in hand]


@step("_sn_nightmare")
def _nightmare(ctx: Ctx, frame: Frame, arg: dict[str, Any]) -> None:
    """The traitor's choice (its hand is secret: a private choice)."""
    state = ctx.state
    hero = int(arg["hero"])
    if not running(state) or not state.explorers[hero].alive:
        return
    kinds = _hand_choices(state)
    if not kinds:
        return
    names = plugin().nightmares()
    p = plugin()
    labels = [str(names[k]["name"]) for k in kinds] + [p.text("no_nightmare")]
    pause(ctx, frame, {"_sn_nightmare": {**arg, "kinds": kinds}}, NIGHTMARE_PICK,
          p.text("nightmare_prompt", who=ctx.who(hero), room=ctx.room_name(int(arg["tile"]))),
          labels, private=True)


@resumer(NIGHTMARE_PICK)
def _nightmare_picked(ctx: Ctx, frame: Frame, raw: dict[str, Any], pick: int) -> None:
    spec = frame.steps.pop(0)["_sn_nightmare"]
    kinds = list(spec["kinds"])
    if pick >= len(kinds):
        return
    play(ctx, int(spec["hero"]), kinds[pick], int(spec["tile"]))


def play(ctx: Ctx, hero: int, kind: str, tile_id: int) -> None:
    """One nightmare on this hero: out of the traitor's hand, said to the table, then
    its monsters appear or its steps run for the hero."""
    state = ctx.state
    p = plugin()
    card = p.nightmares()[kind]
    hand = progress(state)["hand"]
    hand.remove(kind)
    p.say(ctx, "nightmare", who=ctx.who(hero), name=card["name"], text=card["text"],
          data={"nightmare": kind, "seat": hero})
    if card.get("monster"):
        for _ in range(int(card.get("count", 1))):
            monsters.spawn(ctx, str(card["monster"]), tile_id)
    if card.get("steps"):
        ctx.push(list(card["steps"]), hero, KEY, "haunt")


@step("_sn_through")
def _through(ctx: Ctx, frame: Frame, arg: Any) -> None:
    """Seed 000, Find a Way Through: the roll minus the track, 4+: the traitor joins
    the hero's set of tiles to the house."""
    state = ctx.state
    p = plugin()
    result = int(frame.vars.get("roll", 0)) - track(state)
    if result < p.value(state, "through"):
        p.say(ctx, "through_fail", result=result)
        return
    p.say(ctx, "through_ok", who=ctx.who(frame.seat), result=result)
    spots = join_spots(state, frame.seat)[:JOIN_CHOICES]
    if not spots:
        p.say(ctx, "through_none", who=ctx.who(frame.seat))
        return
    traitor = sides.traitor(state)
    if len(spots) == 1 or traitor is None:
        _join(ctx, frame.seat, spots[0])
        return
    labels = [p.text("join_label", room=ctx.room_name(s["tile"]),
                     dir=content.betrayal_line(f"dirs.{opposite(s['dir'])}"),
                     house=ctx.room_name(s["house"])) for s in spots]
    pause(ctx, frame, {"_sn_join": {"spots": spots}}, JOIN_PICK,
          p.text("join_prompt", who=ctx.who(frame.seat)), labels, seat=traitor)


@resumer(JOIN_PICK)
def _join_picked(ctx: Ctx, frame: Frame, raw: dict[str, Any], pick: int) -> None:
    spec = frame.steps.pop(0)["_sn_join"]
    _join(ctx, frame.seat, spec["spots"][pick])


def _join(ctx: Ctx, seat: int, spot: dict[str, Any]) -> None:
    state = ctx.state
    group = door_group(state, state.explorers[seat].tile)
    move_group(state, group, int(spot["dx"]), int(spot["dy"]))
    plugin().say(ctx, "joined", who=ctx.who(seat), room=ctx.room_name(int(spot["tile"])),
                 house=ctx.room_name(int(spot["house"])),
                 data={"tiles": sorted(group), "dx": spot["dx"], "dy": spot["dy"]})


@step("_sn_help")
def _help(ctx: Ctx, frame: Frame, arg: Any) -> None:
    """Seed 000, Help Another Hero: the roll minus the track, 4+: go to a tile with
    another hero on it, and the turn ends."""
    state = ctx.state
    p = plugin()
    result = int(frame.vars.get("roll", 0)) - track(state)
    if result < p.value(state, "through"):
        p.say(ctx, "help_fail", result=result)
        return
    p.say(ctx, "help_ok", who=ctx.who(frame.seat), result=result)
    here = state.explorers[frame.seat].tile
    heroes = [h for h in sides.heroes(state) if h != frame.seat]
    # cut-off heroes first: the AI answers the first
    heroes.sort(key=lambda h: (connected(state, h), h))
    tiles = list(dict.fromkeys(state.explorers[h].tile for h in heroes
                               if state.explorers[h].tile != here))
    frame.steps.insert(0, {"_sn_end_turn": {}})
    ask_tile(ctx, frame, {"_sn_helped": {}}, p.text("help_prompt"), tiles)


def _hero_halves(state: BetrayalState, seat: int, tile_id: int) -> list[str]:
    """The halves of a split room (the Winding Tunnels: seed 000, "This tile counts as
    two unconnected tiles") with another hero on them, cut-off heroes' first (the AI's
    pick); none for a plain room, where no one stands on a side."""
    heroes = sorted((h for h in sides.heroes(state) if h != seat
                     and state.explorers[h].tile == tile_id),
                    key=lambda h: (connected(state, h), h))
    return [str(s) for s in dict.fromkeys(state.explorers[h].side for h in heroes)
            if s is not None]


@step("_sn_helped")
def _helped(ctx: Ctx, frame: Frame, arg: dict[str, Any]) -> None:
    """Seed 000: "Place your figure on any tile with another hero on it": beside them,
    on their half of a split room; heroes on both halves: the helper picks the half."""
    tile = int(arg["tile"])
    halves = _hero_halves(ctx.state, frame.seat, tile)
    if len(halves) > 1:
        labels = [content.betrayal_line("views.side", dir=content.betrayal_line(f"dirs.{h}"))
                  for h in halves]
        pause(ctx, frame, {"_sn_help_side": {"tile": tile, "halves": halves}}, HELP_SIDE_PICK,
              plugin().text("help_prompt"), labels)
        return
    place_explorer(ctx, frame.seat, tile, side=halves[0] if halves else None, forced=True)


@step("_sn_help_side")
def _help_side(ctx: Ctx, frame: Frame, arg: dict[str, Any]) -> None:
    """Only ever run through its choice (`sn_help_side`)."""


@resumer(HELP_SIDE_PICK)
def _help_side_picked(ctx: Ctx, frame: Frame, raw: dict[str, Any], pick: int) -> None:
    spec = frame.steps.pop(0)["_sn_help_side"]
    place_explorer(ctx, frame.seat, int(spec["tile"]), side=str(spec["halves"][pick]),
                   forced=True)


@step("_sn_end_turn")
def _end_turn(ctx: Ctx, frame: Frame, arg: Any) -> None:
    if running(ctx.state) and ctx.state.turn.seat == frame.seat \
            and ctx.state.explorers[frame.seat].alive:
        turn.end_turn(ctx)


@step("_sn_out_roll")
def _out_roll(ctx: Ctx, frame: Frame, arg: Any) -> None:
    total = int(frame.vars.get("roll", 0))
    progress(ctx.state).setdefault("out", []).append(total)  # the roll's own line told it


@step("_sn_out_total")
def _out_total(ctx: Ctx, frame: Frame, arg: Any) -> None:
    """Seed 000, Find a Way Out: the highest plus the lowest (one hero: both), 8+."""
    state = ctx.state
    p = plugin()
    rolls = [int(r) for r in progress(state).get("out", [])]
    progress(state)["out"] = []
    if not rolls:
        return
    high, low = max(rolls), min(rolls)
    total = high + low
    if total >= p.value(state, "out"):
        progress(state)["escaped"] = True
        p.say(ctx, "out_ok", high=high, low=low, total=total)
        return
    p.say(ctx, "out_fail", high=high, low=low, total=total)

