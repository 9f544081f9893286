"""Cthulhu in the House (seed 002): the pure rules engine.

A turn is one move or one fight; a fight in a room with portals flips one of them, and
an abyss or a teleport may pause the turn on a PendingChoice for the active seat. When
one character is left the rumble is scored, secrets become public, and the next rumble
is dealt, until three have been played. Rulings where the rulebook is silent are listed
in data/cthulhu/rules.yaml (topic `rulings`) and marked RULING below. What is legal and
what a rumble scores is in moves.py, which the AI (ai.py) builds on too.
"""

from __future__ import annotations

from functools import partial
from typing import Any

from bot.core.actions import MENU_LIMIT, Action, Option
from bot.core.choices import CHOOSE
from bot.core.errors import IllegalAction
from bot.core.events import Event, to_player
from bot.core.rng import Rng
from bot.core.seats import next_seat
from bot.core.story import LogLine, Story
from bot.games.base import About, Game, PlayerInfo
from bot.games.cthulhu import chapters, content, knowledge, layouts, story
from bot.games.cthulhu.ai import choose_action
from bot.games.cthulhu.asking import asked, worded
from bot.games.cthulhu.content import cthulhu_line
from bot.games.cthulhu.moves import (
    FIGHT,
    MOVE,
    PICK_ABYSS,
    PICK_DESTINATION,
    PICK_TELEPORTER,
    is_alone,
    legal_fights,
    legal_moves,
    next_starter,
    removal_points,
    rumble_points,
    winners,
)
from bot.games.cthulhu.moves import legal_actions as legal_actions  # kept importable here
from bot.games.cthulhu.names import character_name, character_word, room_name
from bot.games.cthulhu.state import (
    ABYSS,
    RUMBLES,
    STATE_FORMATS,
    TELEPORT,
    Character,
    CthulhuState,
    Room,
    RumbleResult,
)
from bot.locales import ENGLISH, speaking
from bot.texts import and_list, listed

PORTALS: tuple[str, ...] = (ABYSS, ABYSS, ABYSS, TELEPORT, TELEPORT, TELEPORT)
PORTALS_IN_HOUSE = 3
SECRETS_EACH = 2


def ordinal(n: int) -> str:
    """A place in an order ("3rd"): the English suffix rule picks the template, each
    language writes its own (texts.yaml's `ordinals`)."""
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return cthulhu_line(f"ordinals.{suffix}", n=n)


def _names(state: CthulhuState, characters: list[int]) -> str:
    return and_list([cthulhu_line("the_character", name=character_name(state, c))
                     for c in characters])


def _winners_line(state: CthulhuState, alone: str, shared: str) -> str:
    top = state.scores[state.winners[0]]
    if len(state.winners) == 1:
        return cthulhu_line(alone, player=state.players[state.winners[0]], points=top)
    return cthulhu_line(shared, points=top,
                        players=and_list([state.players[s] for s in state.winners]))


class CthulhuGame(Game[CthulhuState]):
    key = "cthulhu"
    state_type = CthulhuState
    state_formats = STATE_FORMATS
    words_choices_when_read = True  # bot/games/cthulhu/asking.py

    @property
    def title(self) -> str:  # type: ignore[override]
        """The game's name in the language spoken (its texts' `title`)."""
        return cthulhu_line("title")

    colour = 0x2E7D5B  # eldritch green
    min_players = 2
    max_players = 6

    # ------------------------------------------------------------ setup

    def setup(self, players: list[PlayerInfo], seed: int,
              options: dict[str, Any]) -> tuple[CthulhuState, list[Event]]:
        self.check_player_count(len(players), partial(cthulhu_line, "errors.bad_player_count"))
        rng = Rng.from_seed(seed)
        keys = layouts.layout_keys()
        key = str(options.get("layout") or rng.choice(keys))
        if key not in keys:
            raise IllegalAction(cthulhu_line("errors.unknown_layout", name=key,
                                             choices=listed(keys)))
        layout = layouts.get_layout(key, rng)
        with speaking(ENGLISH):  # the state keeps English names: lines look them up (names.py)
            names, cast = content.room_names(), content.characters()
        state = CthulhuState(
            players=[p.name for p in players],
            ai=[p.ai for p in players],
            layout=key,
            rooms=[Room(names[i], col, row) for i, (col, row) in enumerate(layout.slots)],
            passages=list(layout.passages),
            characters=[Character(c.name, c.colour) for c in cast],
            location=[], room_portals=[], reserve=[],
            scores=[0] * len(players),
            salts=knowledge.seat_salts(seed, len(players)),
            rng=rng,
        )
        events: list[Event] = []
        self._begin_rumble(state, events)
        state.starter = state.turn = rng.below(len(players))
        events.append(Event(cthulhu_line("events.first_starter", player=state.players[state.turn]),
                            kind="starter"))
        events.append(self._turn_event(state))
        return state, events

    def _begin_rumble(self, state: CthulhuState, events: list[Event]) -> None:
        """Characters back one per room, portals reshuffled, new secrets dealt."""
        rng = state.rng
        count = len(state.rooms)
        rooms = list(range(count))
        rng.shuffle(rooms)
        state.location = list(rooms)
        portals = list(PORTALS)
        rng.shuffle(portals)
        state.room_portals = [[] for _ in range(count)]
        for room in rng.sample(range(count), PORTALS_IN_HOUSE):  # RULING: distinct rooms
            state.room_portals[room].append(portals.pop())
        state.reserve = portals
        state.removed = []
        state.last = {}  # a new rumble: nothing has moved yet
        state.pending = None
        deck = list(range(len(state.characters)))
        rng.shuffle(deck)
        state.secrets = [sorted(deck[SECRETS_EACH * s:SECRETS_EACH * (s + 1)])
                         for s in range(len(state.players))]
        events.append(Event(
            cthulhu_line("events.rumble_begins", number=state.rumble, total=RUMBLES,
                         house=layouts.layout_title(state.layout)),
            kind="rumble", data={"rumble": state.rumble}))
        for seat, (first, second) in enumerate(state.secrets):
            events.append(Event(
                cthulhu_line("events.your_secrets", number=state.rumble,
                             first=character_name(state, first),
                             second=character_name(state, second)),
                audience=to_player(seat), kind="secret",
                data={"rumble": state.rumble, "secrets": [first, second]}))

    # ------------------------------------------------------------ queries

    def to_act(self, state: CthulhuState) -> int | None:
        if state.over:
            return None
        return state.pending.seat if state.pending else state.turn

    def chapter(self, state: CthulhuState) -> str | None:
        return chapters.chapter(state)

    def turn_name(self, state: CthulhuState) -> str | None:
        return chapters.turn_name(state)

    def is_over(self, state: CthulhuState) -> bool:
        return state.over

    def options(self, state: CthulhuState, seat: int) -> list[Option]:
        if seat != self.to_act(state):
            return []
        if state.pending:
            return worded(state, state.pending).options()
        legal = legal_moves(state)
        two_step = len(legal) > MENU_LIMIT  # who, then where, rather than a split menu
        moves = [Option(cthulhu_line("labels.move", character=character_name(state, c),
                                     room=room_name(state, r)),
                        Action(MOVE, {"character": c, "room": r}),
                        group=cthulhu_line("groups.move"),
                        first=cthulhu_line("labels.move_who", character=character_name(state, c))
                        if two_step else "",
                        then=cthulhu_line("labels.move_where", room=room_name(state, r)))
                 for c, r in legal]
        fights = [Option(cthulhu_line("labels.fight", room=room_name(state, r),
                                      character=character_name(state, c)),
                         Action(FIGHT, {"room": r, "remove": c}),
                         group=cthulhu_line("groups.fight"),
                         style="danger")
                  for r, c in legal_fights(state)]
        return moves + fights

    def check_ai_seat(self, state: CthulhuState, seat: int) -> None:
        self._check_actor(state, seat)

    def seat_view(self, state: CthulhuState, seat: int) -> CthulhuState:
        return knowledge.seat_view(state, seat)

    def decide(self, view: CthulhuState, seat: int) -> Action:
        return choose_action(view, seat)

    # ------------------------------------------------------------ apply

    def apply(self, state: CthulhuState, seat: int,
              action: Action) -> tuple[CthulhuState, list[Event]]:
        self._check_actor(state, seat)
        new = self.copy_state(state)
        events: list[Event] = []
        if new.pending is not None:
            self._choose(new, action, events)
        elif action.kind == MOVE:
            self._move(new, action, events)
        elif action.kind == FIGHT:
            self._fight(new, action, events)
        elif action.kind == CHOOSE:
            raise IllegalAction(cthulhu_line("errors.nothing_to_choose"))
        else:
            raise IllegalAction(cthulhu_line("errors.unknown_action", kind=action.kind))
        if new.pending is None:
            self._end_turn(new, events)
        return new, events

    def _check_actor(self, state: CthulhuState, seat: int) -> None:
        if state.over:
            raise IllegalAction(cthulhu_line("errors.game_over"))
        if not 0 <= seat < len(state.players):
            raise IllegalAction(cthulhu_line("errors.not_playing"))
        if state.pending is not None and seat != state.pending.seat:
            raise IllegalAction(cthulhu_line("errors.someone_choosing",
                                             player=state.players[state.pending.seat]))
        if seat != state.turn:
            raise IllegalAction(cthulhu_line("errors.not_your_turn",
                                             player=state.players[state.turn]))

    def _arg(self, state: CthulhuState, action: Action, name: str, kind: str) -> int:
        """An id argument (a character or a room), refused with a readable reason."""
        value = action.args.get(name)
        if value is None:
            raise IllegalAction(cthulhu_line("errors.missing_arg", name=name))
        limit = len(state.characters) if kind == "character" else len(state.rooms)
        if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value < limit:
            raise IllegalAction(cthulhu_line(f"errors.unknown_{kind}", ref=value))
        return value

    def _move(self, state: CthulhuState, action: Action, events: list[Event]) -> None:
        c = self._arg(state, action, "character", "character")
        target = self._arg(state, action, "room", "room")
        name = character_name(state, c)
        source = state.location[c]
        if source is None:
            raise IllegalAction(cthulhu_line("errors.character_gone", character=name))
        names = {"character": name, "source": room_name(state, source),
                 "target": room_name(state, target)}
        if target == source:
            raise IllegalAction(cthulhu_line("errors.already_there", character=name,
                                             room=names["source"]))
        if not is_alone(state, c):
            raise IllegalAction(cthulhu_line("errors.not_alone", character=name,
                                             room=names["source"]))
        if target not in state.neighbours(source):
            raise IllegalAction(cthulhu_line("errors.no_passage", source=names["source"],
                                             target=names["target"]))
        carried = state.room_portals[source]
        state.room_portals[target].extend(carried)
        state.room_portals[source] = []
        state.location[c] = target
        state.last = {"seat": state.turn, "kind": "move", "character": c, "from": source,
                      "to": target}
        key = {0: "move", 1: "move_one_portal"}.get(len(carried), "move_portals")
        events.append(Event(cthulhu_line(f"events.{key}", player=state.players[state.turn],
                                         count=len(carried), **names),
                            kind="move", data={"character": c, "from": source, "to": target,
                                               "portals": len(carried)}))

    def _fight(self, state: CthulhuState, action: Action, events: list[Event]) -> None:
        room = self._arg(state, action, "room", "room")
        c = self._arg(state, action, "remove", "character")
        here = state.in_room(room)
        where_name, name = room_name(state, room), character_name(state, c)
        if len(here) < 2:
            raise IllegalAction(cthulhu_line("errors.too_few_to_fight", room=where_name,
                                             count=len(here)))
        if c not in here:
            raise IllegalAction(cthulhu_line("errors.not_in_room", character=name, room=where_name))
        self._remove(state, c)
        state.last = {"seat": state.turn, "kind": "fight", "room": room, "removed": c}
        events.append(Event(cthulhu_line("events.fight", player=state.players[state.turn],
                                         room=where_name, character=name),
                            kind="fight", data={"room": room, "removed": c}))
        if not state.room_portals[room]:
            return
        kind = state.rng.choice(state.room_portals[room])  # RULING: a random one flips
        events.append(Event(cthulhu_line(f"events.flip_{kind}", room=where_name),
                            kind="portal", data={"room": room, "portal": kind}))
        if kind == ABYSS:
            self._abyss(state, room, c, events)
        else:
            self._teleport_offer(state, room, events)

    def _remove(self, state: CthulhuState, character: int) -> None:
        state.location[character] = None
        state.removed.append(character)

    def _abyss(self, state: CthulhuState, room: int, returned: int,
               events: list[Event]) -> None:
        state.removed.pop()
        state.location[returned] = room
        others = [c for c in state.in_room(room) if c != returned]
        if len(others) == 1:  # RULING: no choice to make
            # One line for the swap: told apart, a glance at the channel could keep the
            # fight's "thrown out" and lose the line that undid it.
            self._remove(state, others[0])
            state.last["removed"] = others[0]
            events.append(Event(cthulhu_line("events.abyss_swap",
                                             returned=character_name(state, returned),
                                             room=room_name(state, room),
                                             character=character_name(state, others[0])),
                                kind="abyss", data={"room": room, "returned": returned,
                                                    "removed": others[0]}))
            self._replace_portal(state, room, ABYSS, room, events)
            return
        events.append(Event(cthulhu_line("events.abyss_return",
                                         character=character_name(state, returned),
                                         room=room_name(state, room)), kind="abyss",
                            data={"room": room, "returned": returned}))
        player = state.players[state.turn]
        state.pending = asked(state, state.turn, PICK_ABYSS,
                              {"room": room, "candidates": others})
        events.append(Event(cthulhu_line("events.abyss_waiting", player=player), kind="choice"))

    def _abyss_take(self, state: CthulhuState, room: int, victim: int, key: str,
                    events: list[Event]) -> None:
        self._remove(state, victim)
        state.last["removed"] = victim
        events.append(Event(cthulhu_line(key, player=state.players[state.turn],
                                         character=character_name(state, victim)),
                            kind="abyss", data={"room": room, "removed": victim}))
        self._replace_portal(state, room, ABYSS, room, events)

    def _teleport_offer(self, state: CthulhuState, room: int, events: list[Event]) -> None:
        if len(state.remaining()) <= 1:  # RULING: nothing left to teleport
            events.append(Event(cthulhu_line("events.teleport_nobody"), kind="teleport"))
            self._replace_portal(state, room, TELEPORT, room, events)
            return
        here = state.in_room(room)
        state.pending = asked(state, state.turn, PICK_TELEPORTER,
                              {"room": room, "candidates": here})
        events.append(Event(cthulhu_line("events.teleport_waiting",
                                         player=state.players[state.turn],
                                         room=room_name(state, room)), kind="choice"))

    def _choose(self, state: CthulhuState, action: Action, events: list[Event]) -> None:
        pending = state.pending
        assert pending is not None
        if action.kind != CHOOSE:
            raise IllegalAction(cthulhu_line("errors.choose_first",
                                             prompt=worded(state, pending).prompt))
        pick = action.args.get("pick")
        if isinstance(pick, bool) or not isinstance(pick, int) \
                or not 0 <= pick < len(pending.labels):
            raise IllegalAction(cthulhu_line("errors.bad_choice"))
        state.pending = None
        room = int(pending.payload["room"])
        if pending.kind == PICK_ABYSS:
            victim = int(pending.payload["candidates"][pick])
            self._abyss_take(state, room, victim, "events.abyss_pick", events)
        elif pending.kind == PICK_TELEPORTER:
            candidates = [int(c) for c in pending.payload["candidates"]]
            if pick == len(candidates):
                events.append(Event(cthulhu_line("events.teleport_declined",
                                                 player=state.players[state.turn]),
                                    kind="teleport"))
                self._replace_portal(state, room, TELEPORT, room, events)
                return
            c = candidates[pick]
            targets = [r for r in range(len(state.rooms)) if r != room]
            state.pending = asked(state, state.turn, PICK_DESTINATION,
                                  {"room": room, "character": c, "targets": targets})
        else:
            c = int(pending.payload["character"])
            target = int(pending.payload["targets"][pick])
            state.location[c] = target
            state.last.update({"character": c, "from": room, "to": target})
            events.append(Event(cthulhu_line("events.teleport", character=character_name(state, c),
                                             source=room_name(state, room),
                                             target=room_name(state, target)),
                                kind="teleport", data={"character": c, "from": room,
                                                       "to": target}))
            self._replace_portal(state, room, TELEPORT, target, events)

    def _replace_portal(self, state: CthulhuState, room: int, kind: str, destination: int,
                        events: list[Event]) -> None:
        """The flipped portal (in `room`) joins the reserve; one of the four, shuffled,
        goes face down into `destination`. RULING: for a teleport that is where the
        teleported character went, since the flipped portal travelled with it."""
        state.room_portals[room].remove(kind)
        pool = [*state.reserve, kind]
        state.rng.shuffle(pool)
        state.room_portals[destination].append(pool.pop())
        state.reserve = pool
        events.append(Event(cthulhu_line("events.portal_replaced",
                                         room=room_name(state, destination)),
                            kind="portal", data={"room": destination}))

    # ------------------------------------------------------------ turns and rumbles

    def _end_turn(self, state: CthulhuState, events: list[Event]) -> None:
        state.turns_played += 1
        if len(state.remaining()) <= 1:
            self._score_rumble(state, events)
            return
        state.turn = next_seat(state.turn, len(state.players))
        events.append(self._turn_event(state))

    def _turn_event(self, state: CthulhuState) -> Event:
        return Event(cthulhu_line("events.turn", player=state.players[state.turn]), kind="turn",
                     data={"seat": state.turn})

    def _score_rumble(self, state: CthulhuState, events: list[Event]) -> None:
        (survivor,) = state.remaining()
        points = rumble_points(state.removed, survivor, state.secrets)
        for seat, gained in enumerate(points):
            state.scores[seat] += gained
        state.results.append(RumbleResult(
            number=state.rumble, removed=list(state.removed), survivor=survivor,
            secrets=[list(pair) for pair in state.secrets], points=list(points)))
        lines = [cthulhu_line("events.rumble_scored", number=state.rumble,
                              character=character_name(state, survivor))]
        lines += [cthulhu_line("events.score_line", player=state.players[seat],
                               first=character_name(state, first),
                               second=character_name(state, second),
                               points=points[seat], total=state.scores[seat])
                  for seat, (first, second) in enumerate(state.secrets)]
        owned = {c for pair in state.secrets for c in pair}
        unowned = [c for c in range(len(state.characters)) if c not in owned]
        if unowned:
            lines.append(cthulhu_line("events.unowned", names=_names(state, unowned)))
        events.append(Event(
            "\n".join(lines), kind="score",
            data={"rumble_scored": state.rumble, "survivor": survivor,
                  "removed": list(state.removed), "secrets": [list(p) for p in state.secrets],
                  "points": list(points), "scores": list(state.scores)}))
        if state.rumble >= RUMBLES:
            self._finish_game(state, events)
            return
        state.rumble += 1
        state.starter = state.turn = next_starter(state.scores, state.starter)
        self._begin_rumble(state, events)
        events.append(Event(cthulhu_line("events.fewest_starter", player=state.players[state.turn],
                                         number=state.rumble), kind="starter"))
        events.append(self._turn_event(state))

    def _finish_game(self, state: CthulhuState, events: list[Event]) -> None:
        state.over = True
        state.pending = None
        state.winners = winners(state.scores)
        text = _winners_line(state, "events.game_over_win", "events.game_over_shared")
        events.append(Event(text, kind="game_over",
                            data={"winners": list(state.winners), "scores": list(state.scores)}))

    # ------------------------------------------------------------ views

    def private_view(self, state: CthulhuState, seat: int) -> str:
        if not 0 <= seat < len(state.players):
            return cthulhu_line("errors.not_playing")
        if state.over:
            last = state.results[-1]
            first, second = last.secrets[seat]
            return "\n".join([
                cthulhu_line("secret.header_over", score=state.scores[seat]),
                cthulhu_line("secret.last_rumble", number=last.number,
                             first=character_name(state, first),
                             second=character_name(state, second), points=last.points[seat])])
        lines = [cthulhu_line("secret.header", number=state.rumble, total=RUMBLES,
                              score=state.scores[seat]), cthulhu_line("secret.yours")]
        lines += [self._whereabouts(state, c) for c in state.secrets[seat]]
        lines += [cthulhu_line("secret.counts"), cthulhu_line("secret.tip")]
        return "\n".join(lines)

    def revealed(self, state: CthulhuState) -> list[str]:
        """Each seat's two secret characters of the last rumble, with its final score."""
        if not state.results:
            return []
        last = state.results[-1]
        return [cthulhu_line("replay.secrets", player=state.players[seat],
                             first=character_name(state, pair[0]),
                             second=character_name(state, pair[1]), score=state.scores[seat])
                for seat, pair in enumerate(last.secrets) if len(pair) == 2]

    def _whereabouts(self, state: CthulhuState, c: int) -> str:
        name = character_name(state, c)
        room = state.location[c]
        if room is None:
            position = state.removed.index(c) + 1
            return cthulhu_line("secret.removed", character=name, ordinal=ordinal(position),
                                points=removal_points(position))
        others = [o for o in state.in_room(room) if o != c]
        if not others:
            return cthulhu_line("secret.alone", character=name, room=room_name(state, room))
        return cthulhu_line("secret.crowded", character=name, room=room_name(state, room),
                            others=_names(state, others))

    def story(self, state: CthulhuState, log: list[LogLine]) -> Story:
        return story.story_of(state, log)

    def character_word(self, stored: str) -> str:
        return character_word(stored)

    def status_text(self, state: CthulhuState) -> str:
        tag = cthulhu_line("status.ai_tag")
        scores = listed([
            cthulhu_line("status.score_item", player=name + (tag if ai else ""), points=points)
            for name, ai, points in zip(state.players, state.ai, state.scores, strict=True)])
        lines = [cthulhu_line("status.house", house=layouts.layout_title(state.layout))]
        if state.over:
            lines.append(_winners_line(state, "status.over_win", "status.over_shared"))
        else:
            lines.append(cthulhu_line("status.rumble", number=state.rumble, total=RUMBLES,
                                      count=len(state.remaining()),
                                      characters=len(state.characters)))
            if state.pending:
                lines.append(cthulhu_line("status.choosing",
                                          player=state.players[state.pending.seat],
                                          prompt=worded(state, state.pending).prompt))
            else:
                lines.append(cthulhu_line("status.turn", player=state.players[state.turn]))
        lines.append(cthulhu_line("status.scores", scores=scores))
        return "\n".join(lines)

    # ------------------------------------------------------------ seats and storage

    def set_player(self, state: CthulhuState, seat: int, info: PlayerInfo) -> CthulhuState:
        return self.seat_handed(state, seat, info, cthulhu_line("errors.not_playing"))

    def detail_kinds(self) -> frozenset[str]:
        """A portal flipping and its replacement are left to the log: what the flip did
        (an abyss's swap, a teleport, its question) is what the channel reads."""
        return super().detail_kinds() | {"portal"}

    def whole_kinds(self) -> frozenset[str]:
        """A rumble's score names every seat's secrets and points: the table reads it
        whole, at the end of the rumble's message. What an abyss or a teleport did is
        always read too: the fight's line before it names a character the abyss sent
        back, and the AI seats' moves after it would push it off the live message; kept
        beside the fight's line, the portal's line leaves the fight the newest headline,
        so an AI seat's fight is not cut between a move and "lets the teleport fizzle"."""
        return frozenset({"score", "abyss", "teleport"})

    def rules_topics(self, options: dict[str, Any] | None = None) -> dict[str, str]:
        return content.rules_topics()

    def rules_titles(self, options: dict[str, Any] | None = None) -> dict[str, str]:
        return content.rules_titles()

    def setup_choices(self) -> dict[str, list[tuple[str, str]]]:
        return {"layout": [(key, layouts.layout_title(key)) for key in layouts.layout_keys()]}

    def about(self, edition: str = "") -> About:
        return About.said(cthulhu_line)

    def command_words(self) -> dict[str, str]:
        return content.command_words()

    def setup_option_help(self) -> dict[str, str]:
        return {"layout": cthulhu_line("setup_help.layout")}

    def option_label(self, name: str) -> str:
        """Its setup options' words (texts.yaml's `options`)."""
        try:
            return cthulhu_line(f"options.{name}")
        except KeyError:  # an option a game built on this one added: said by its key
            return super().option_label(name)
