"""The actions of a turn, what makes each legal, and its button label.

Kinds (args): `move` (dir=N|E|S|W, or via=<link kind> and to=<tile id>), `explore`
(dir), `use` (card), `trade` (with=<seat>, give=<card>), `drop` (card),
`pickup` (card), `act` (what=<offer id>: a room's or a token's voluntary roll),
`end_turn`, and `choose` (pick) while a choice is pending. `legal(state, seat)` is the
single source of truth: options() shows it and apply() accepts exactly what it lists.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from bot.core.actions import Action
from bot.core.errors import IllegalAction
from bot.games.betrayal import content, explore, hooks, items, movement, turn
from bot.games.betrayal.cards import Offer, TurnPassive
from bot.games.betrayal.content import betrayal_line
from bot.games.betrayal.context import Ctx, card_name, explorer_name
from bot.games.betrayal.haunting import actions as haunt_actions
from bot.games.betrayal.haunting import monsters
from bot.games.betrayal.house import Plan, plan
from bot.games.betrayal.state import BetrayalState

MOVE, EXPLORE, USE, TRADE, DROP, PICKUP, ACT, END_TURN = (
    "move", "explore", "use", "trade", "drop", "pickup", "act", "end_turn")
ATTACK = haunt_actions.ATTACK
# kind -> its group of buttons (texts.yaml `groups`: the name a select shows)
GROUPS = {MOVE: "move", EXPLORE: "explore", USE: "items", TRADE: "items", DROP: "items",
          PICKUP: "items", ACT: "room", END_TURN: "turn", ATTACK: "attack",
          monsters.M_MOVE: "monster_move", monsters.M_ATTACK: "attack",
          monsters.M_END: "turn"}


@dataclass(frozen=True)
class Legal:
    action: Action
    label: str
    style: str = "secondary"


def _crossing_note(crossing: tuple[str, int] | None) -> str:
    if crossing is None:
        return ""
    return betrayal_line("labels.crossing", trait=content.trait_name(crossing[0]),
                         target=crossing[1])


def room_offers(state: BetrayalState, seat: int) -> list[tuple[Offer, TurnPassive, Any]]:
    """Voluntary actions here, once a turn each; a held explorer (Webs) keeps only what
    its own cards offer (the chance to break free)."""
    blocked = hooks.blocked(state, seat)
    sources = list(hooks.of_explorer(state, seat, TurnPassive))
    if not blocked:
        sources += list(hooks.of_tile(state, state.explorers[seat].tile, TurnPassive))
    return [(o, p, ref) for p, ref in sources for o in p.actions(state, seat, ref)
            if o.id not in state.turn.rolls]


def legal(state: BetrayalState, seat: int, kind: str | None = None) -> list[Legal]:
    """Every legal action of the active explorer (no choice pending); with `kind`, only
    those of that kind. A click is checked against its own kind's actions (`perform`,
    `listed`): the others' lists, and the labels, were most of a check's cost (issue
    23)."""
    if state.over or state.pending is not None or seat != state.turn.seat:
        return []
    if haunt_actions.monster_stage(state):
        return [Legal(a, label, "success" if a.kind == monsters.M_END else "secondary")
                for a, label in monsters.legal(state)
                if kind is None or a.kind == kind]
    found: list[Legal] = []

    def wanted(what: str) -> bool:
        return kind is None or kind == what

    tiles = state.tiles
    # The house's door map, looked up once for the moves and the doors to explore.
    house = plan(state) if wanted(MOVE) else None
    if house is not None:
        for action, m in _moves(state, seat, house):
            room = content.room(tiles[m.target].room).name
            note = _crossing_note(m.crossing)
            if m.dir:
                found.append(Legal(action, betrayal_line(
                    "labels.move", dir=betrayal_line(f"dirs.{m.dir}"), room=room) + note))
            elif m.link:
                found.append(Legal(action, betrayal_line(f"link_labels.{m.link.kind}",
                                                         room=room) + note))
    if wanted(EXPLORE) and movement.can_spend(state, seat, 1, movement.slowed(state, seat)):
        for d in explore.explorable(state, seat, house.layout if house else None):
            found.append(Legal(Action(EXPLORE, {"dir": d}), betrayal_line(
                "labels.explore", dir=betrayal_line(f"dirs.{d}"))
                + _crossing_note(movement.crossing_for(state, seat, d)), "primary"))
    if wanted(USE):
        for key in items.usable(state, seat):
            found.append(Legal(Action(USE, {"card": key}),
                               betrayal_line("labels.use", card=card_name(key))))
    if wanted(TRADE):
        for deal in items.trades(state, seat):
            args: dict[str, int | str] = {"with": deal.other, "give": deal.give}
            label = betrayal_line("labels.give", card=card_name(deal.give),
                                  other=explorer_name(state, deal.other))
            found.append(Legal(Action(TRADE, args), label))
    if wanted(DROP):
        for key in items.droppable(state, seat):
            found.append(Legal(Action(DROP, {"card": key}),
                               betrayal_line("labels.drop", card=card_name(key))))
    if wanted(PICKUP):
        for key in items.pickable(state, seat):
            found.append(Legal(Action(PICKUP, {"card": key}),
                               betrayal_line("labels.pickup", card=card_name(key))))
    if wanted(ACT):
        for offer, _, _ in room_offers(state, seat):
            found.append(Legal(Action(ACT, {"what": offer.id}), offer.label))
        for offer in haunt_actions.offers(state, seat):
            found.append(Legal(Action(ACT, {"what": offer.id}), offer.label, "primary"))
    if wanted(ATTACK):
        for action, label in haunt_actions.attacks(state, seat):
            found.append(Legal(action, label, "danger"))
    if wanted(END_TURN):
        found.append(Legal(Action(END_TURN), betrayal_line("labels.end_turn"), "success"))
    return found


def _moves(state: BetrayalState, seat: int,
           house: Plan | None = None) -> list[tuple[Action, movement.Move]]:
    """Each door and link move the explorer may start, with its action (`legal` words
    them; `perform` takes the one clicked)."""
    found: list[tuple[Action, movement.Move]] = []
    for m in movement.legal_moves(state, seat, house):
        if m.dir:
            found.append((Action(MOVE, {"dir": m.dir}), m))
        elif m.link:
            found.append((Action(MOVE, {"via": m.link.kind, "to": m.target}), m))
    return found


def listed(state: BetrayalState, seat: int, kind: str | None = None) -> list[Action]:
    """The actions `legal` lists (with `kind`, of that kind), in its order: in the
    monsters' turn without their words, which cost as much as the listing itself for
    each monster's every step (a click's check, and the turn's own end, read no
    words)."""
    if (not state.over and state.pending is None and seat == state.turn.seat
            and haunt_actions.monster_stage(state)):
        return [a for a in monsters.deeds(state) if kind is None or a.kind == kind]
    return [entry.action for entry in legal(state, seat, kind)]


def _own_turn(state: BetrayalState, seat: int) -> bool:
    """The explorer whose turn it is acts, nothing pending, not the monsters' turn:
    when `legal` lists the explorer's own actions."""
    return (not state.over and state.pending is None and seat == state.turn.seat
            and not haunt_actions.monster_stage(state))


def perform(ctx: Ctx, seat: int, action: Action) -> None:
    """Start an action the rules allow; refuse anything else, with the reason."""
    state = ctx.state
    if action.kind == MOVE and _own_turn(state, seat):
        # A move is checked against the moves themselves, and the one clicked started:
        # `legal`'s list of them is the same, with words no check reads.
        move = next((m for allowed_move, m in _moves(state, seat) if allowed_move == action),
                    None)
        if move is None:
            raise IllegalAction(_refusal(state, seat, action))
        movement.start_move(ctx, seat, move)
        return
    allowed = listed(state, seat, action.kind)
    if action not in allowed:
        raise IllegalAction(_refusal(state, seat, action))
    kind, args = action.kind, action.args
    if haunt_actions.monster_stage(state):
        haunt_actions.perform_monsters(ctx, action)
    elif kind == ATTACK:
        haunt_actions.perform_attack(ctx, seat, action)
    elif kind == EXPLORE:
        d = str(args["dir"])
        state.turn.moves += movement.slowed(state, seat)
        after = [*movement.leave_steps(state, seat),
                 {"_explore": {"from": state.explorers[seat].tile, "dir": d}}]
        movement.push_with_crossing(ctx, seat, movement.crossing_for(state, seat, d), d, after)
    elif kind == USE:
        items.use(ctx, seat, str(args["card"]))
    elif kind == TRADE:
        items.trade(ctx, seat, items.Trade(int(args["with"]), str(args["give"])))
    elif kind == DROP:
        items.drop(ctx, seat, str(args["card"]))
    elif kind == PICKUP:
        items.pick_up(ctx, seat, str(args["card"]))
    elif kind == ACT:
        haunting = next((o for o in haunt_actions.offers(state, seat) if o.id == args["what"]),
                        None)
        if haunting is not None:
            haunt_actions.perform_offer(ctx, seat, haunting)
            return
        offer, passive, ref = next(o for o in room_offers(state, seat) if o[0].id == args["what"])
        state.turn.rolls.append(offer.id)
        passive.act(ctx, seat, offer, ref)
    else:
        turn.end_turn(ctx)


def _refusal(state: BetrayalState, seat: int, action: Action) -> str:
    """Why an action is not allowed, as a player should read it."""
    kind, args = action.kind, action.args
    if kind not in GROUPS:
        return betrayal_line("errors.unknown_action", kind=kind)
    if haunt_actions.monster_stage(state):
        return betrayal_line("errors.monsters_turn")
    if kind in (monsters.M_MOVE, monsters.M_ATTACK, monsters.M_END):
        return betrayal_line("errors.not_monsters_turn")
    if kind == ATTACK:
        return haunt_actions.attack_refusal(state, seat)
    if hooks.blocked(state, seat) and kind != END_TURN:
        return betrayal_line("errors.held")
    if kind in (MOVE, EXPLORE):
        if state.turn.movement_over:
            return betrayal_line("errors.movement_over")
        if not movement.can_spend(state, seat, 1):
            return betrayal_line("errors.no_speed", speed=movement.speed_limit(state, seat))
        slowed = movement.slowed(state, seat)
        if slowed and not movement.can_spend(state, seat, 1, slowed):
            # Seed 003: each opponent in the room costs 1 more Speed to leave it; a door
            # that is there is not "no way", the opponents are what stops the move.
            left = movement.speed_limit(state, seat) - state.turn.moves
            return betrayal_line("errors.no_speed_slowed", opponents=slowed, speed=left)
        return betrayal_line("errors.no_way" if kind == MOVE else "errors.cannot_explore",
                             dir=args.get("dir", args.get("via", "?")))
    key = str(args.get("card") or args.get("give") or "")
    if kind != ACT and key not in content.get().cards:
        return betrayal_line("errors.unknown_card", card=key)
    if kind == USE:
        return betrayal_line("errors.cannot_use", card=card_name(key))
    if kind == TRADE:
        if state.turn.traded:
            return betrayal_line("errors.traded")
        return betrayal_line("errors.cannot_trade", card=card_name(key))
    if kind == DROP:
        return betrayal_line("errors.cannot_drop", card=card_name(key))
    if kind == PICKUP:
        return betrayal_line("errors.cannot_pickup", card=card_name(key))
    return betrayal_line("errors.cannot_act")
