"""Betrayal, outside the haunts: a third rules pass over seed 003's exploration chapters
(lines 222-268), its rooms (513-626) and its cards (322-902), one test per sentence the
earlier passes left unquoted. Each test drives the engine through GAME.apply (or a
card's steps, as a drawn card runs them) and quotes the sentence it holds it to.

Explorers (tests/test_betrayal_engine_helpers.py): Ox Bellows, Missy Dubourde, Peter
Akimoto, all in the Entrance Hall, Ox to play. Ox: Speed 4, Might 5, Sanity 3,
Knowledge 3.
"""

from __future__ import annotations

import pytest

from bot.games.betrayal import GAME, content, sheet_view, traits
from bot.games.betrayal.house import doors, opposite
from bot.games.betrayal.state import BetrayalState
from tests.test_betrayal_cards_events_a import draw
from tests.test_betrayal_engine_helpers import (
    MISSY,
    OX,
    PETER,
    apply,
    at,
    choose,
    deck_top,
    dice,
    hold,
    labels,
    new_game,
    put,
    stack_top,
    tile,
)
from tests.test_betrayal_engine_traits import run_steps

__all__ = ["dice"]


def kinds(state: BetrayalState, seat: int = OX) -> set[str]:
    return {o.action.kind for o in GAME.options(state, seat)}


def settle(state: BetrayalState, pick: int = 0) -> BetrayalState:
    """Answer every pending choice with `pick` (0: the first offered)."""
    while state.pending is not None:
        state, _ = choose(state, pick)
    return state


# ---------------------------------------------------------------- the house

def test_the_front_door_is_locked() -> None:
    """Seed 003, line 522: 入口Entrance Hall的正門Front door平常是鎖上的，玩家無法穿越此門。
    [The Entrance Hall's front door is locked; no one may go through it.] The Entrance
    Hall's printed doors are its side doors and the Foyer's (betrayal-facts.md: N S W);
    the front door (east, the strip's open end) is neither a way out nor a way to
    explore."""
    state = new_game()
    hall = state.tiles[tile(state, "entrance_hall")]
    assert "E" not in doors(hall)
    assert "Explore east" not in labels(state)
    assert not any(label.startswith("Move east") for label in labels(state))


def test_a_stair_link_costs_one_speed() -> None:
    """Seed 003, line 519: 經由特殊通道在兩個房間往返，皆只算作進入一間房間計算，即只需耗用1點
    速度Speed。 [Going between two rooms by a special passage counts as entering one
    room: 1 Speed.] Ox (Speed 4) walks to the Grand Staircase (2), climbs (3) and has
    one room left to enter."""
    state = new_game()
    hold(state, OX, "bottle")  # something left to do: his turn waits for him
    state, _ = apply(state, "move", dir="W")
    state, _ = apply(state, "move", dir="W")
    landing = tile(state, "upper_landing")
    state, _ = apply(state, "move", via="stairs_up", to=landing)
    assert state.explorers[OX].tile == landing and state.turn.moves == 3
    assert "explore" in kinds(state)
    state, _ = apply(state, "move", via="stairs_down", to=tile(state, "grand_staircase"))
    assert state.turn.moves == 4
    assert not kinds(state) & {"move", "explore"}


# ---------------------------------------------------------------- exploring

def test_a_card_drawn_ends_movement_even_by_a_passage_it_opens() -> None:
    """Seed 003, line 236: 在翻過卡片並完成牌上的指示後，縱然玩家尚未全數耗盡人物的速度Speed數，
    該人物在這回合中亦不可再移動。 [After drawing a card and doing what it says, the
    explorer may not move again this turn, whatever Speed is left.] Ox finds the
    Ballroom (an event room) with Speed to spare; its event is a Secret Passage: the
    passage is there for later, not for now."""
    state = new_game()
    hold(state, OX, "bottle")  # something left to do: his turn waits for him
    stack_top(state, "ballroom")
    deck_top(state, "event", "secret_passage")
    state, _ = apply(state, "explore", dir="N")
    state = settle(state)
    assert state.turn.moves == 1 and state.turn.movement_over
    assert not kinds(state) & {"move", "explore"}


def test_forced_rolls_come_as_often_as_their_cause(dice) -> None:  # type: ignore[no-untyped-def]
    """Seed 003, line 245: 一回合中人物可進行多次能力考驗，特別是強迫的能力考驗。 [An explorer
    may make many trait rolls a turn, forced ones above all.] Leaving the Junk Room
    twice in one turn is two Might rolls."""
    state = new_game()
    put(state, "junk_room", "ground", 0, -1)  # doors N E S W, north of the Hall
    at(state, OX, "junk_room")
    dice.extend([2] * 16)
    state, first = apply(state, "move", dir="S")
    state, _ = apply(state, "move", dir="N")
    state, second = apply(state, "move", dir="S")
    assert sum("rolls Might" in e for e in first + second) == 2


def test_the_collapsed_room_tests_only_its_finder() -> None:
    """Seed 003, line 560: 第一個進入這房間(即翻出這房間)的人物，需以速度Speed作能力考驗。
    [The first to enter this room (the one who finds it) rolls Speed.] Whoever walks in
    later makes no roll and does not fall."""
    state = new_game()
    put(state, "collapsed_room", "ground", 0, -1)
    state, events = apply(state, "move", dir="N")
    assert state.explorers[OX].tile == tile(state, "collapsed_room")
    assert not any("rolls" in e for e in events) and state.pending is None


def test_no_jump_down_the_collapsed_room_before_anyone_fell() -> None:
    """Seed 003, line 564: 隨後其他人物可選擇從崩塌的房間Collapsed Room躍下，進入放有崩塌的房間
    之下Below Collapsed Room標記的房間中。 [Later, others may jump down into the room that
    has the Below Collapsed Room token.] With no token laid (its finder passed the
    Speed roll), there is nowhere to jump to."""
    state = new_game()
    put(state, "collapsed_room", "ground", 0, -1)
    at(state, OX, "collapsed_room")
    assert not any(o.action.args.get("via") == "collapsed_jump"
                   for o in GAME.options(state, OX))


def test_no_jump_from_the_gallery_before_the_ballroom_is_found() -> None:
    """Seed 003, line 566: 在舞廳Ballroom經已放置後，人物可選擇從樓座Gallery躍下 [once the
    Ballroom is placed, an explorer may jump down from the Gallery]. Before that, the
    Gallery offers no way down; after, it does."""
    state = new_game()
    put(state, "gallery", "upper", 0, -1)
    at(state, OX, "gallery")
    assert not any(o.action.args.get("via") == "gallery_jump" for o in GAME.options(state, OX))
    put(state, "ballroom", "ground", 0, -1)
    assert any(o.action.args.get("via") == "gallery_jump" for o in GAME.options(state, OX))


def test_the_vault_may_be_tried_the_turn_it_is_found(dice) -> None:  # type: ignore[no-untyped-def]
    """Seed 003, line 587: 翻開這房間時，玩家只可翻開1張預兆牌Omen card。若人物仍停留在這房間，
    人物即可嘗試開啟保險庫Vault。 [Finding the room draws one card only; if the explorer is
    still in the room, it may try to open the Vault.] The translation names an omen card
    there; betrayal-facts.md prints the Vault's symbol as an event (its 13 omen rooms
    match the 13 omens without it), and the engine draws that one event: left as it is.
    One card on discovery, and the Knowledge roll offered the same turn."""
    state = new_game()
    put(state, "research_laboratory", "upper", 0, -1)  # doors N S: south to the landing
    at(state, OX, "research_laboratory")
    stack_top(state, "vault")
    deck_top(state, "event", "night_view")
    dice.extend([0] * 8)
    state, _ = apply(state, "explore", dir="N")
    state = settle(state)
    assert state.explorers[OX].tile == tile(state, "vault")
    assert state.discards["event"] == ["night_view"] and not state.explorers[OX].cards
    assert any("Vault" in label for label in labels(state))


def test_the_vault_once_open_stays_open_and_empty(dice) -> None:  # type: ignore[no-untyped-def]
    """Seed 003, line 591: 當保險庫Vault被開啟並放上空盪盪Vault Empty標記後，則人物再不可嘗試
    開啟保險庫，保險庫亦不會再關上。 [Once opened and marked empty, no one may try it again,
    and it never shuts.] Ox opens it; Missy, there the next turn, is offered nothing."""
    state = new_game()
    put(state, "vault", "upper", 0, -1, rotation=2)  # its one door faces south
    at(state, OX, "vault")
    at(state, MISSY, "vault")
    dice.extend([2] * 8)
    offer = next(o for o in GAME.options(state, OX) if "Vault" in o.label)
    state, _ = apply(state, "act", **offer.action.args)
    state = settle(state)
    assert len(state.explorers[OX].cards) == 2
    state, _ = apply(state, "end_turn")
    assert GAME.to_act(state) == MISSY
    assert not any("Vault" in label for label in labels(state, MISSY))


def test_finding_the_mystic_elevator_is_entering_it(dice) -> None:  # type: ignore[no-untyped-def]
    """Seed 003, Mystic Elevator: 當人物進入升降梯Mystic Elevator後，這升降梯即會移動。擲骰2顆
    決定升降梯的去向 [when an explorer enters the Mystic Elevator it moves: 2 dice say
    where]. Finding it is entering it: its finder rides it off at once, and, the tile
    having no card symbol, may walk on with the Speed left (line 236 stops only a
    card)."""
    state = new_game()
    stack_top(state, "mystic_elevator")
    dice.extend([1, 0])  # 1: the basement
    state, _ = apply(state, "explore", dir="N")
    state = settle(state)
    elevator = tile(state, "mystic_elevator")
    assert state.tiles[elevator].floor == "basement"
    assert state.explorers[OX].tile == elevator
    assert state.turn.moves == 1 and not state.turn.movement_over
    assert "move" in kinds(state)


def test_the_underground_lake_draws_its_event_where_it_lands(dice) -> None:  # type: ignore[no-untyped-def]
    """Seed 003, Underground Lake: 人物進入這未知的空間時，直接墜進地下湖Underground Lake的
    湖水中。翻開這房間時，玩家需如同探險般任意將地下湖擺放到地下basement。 [Whoever enters
    this unexplored space falls straight into the lake; it is placed in the basement as
    if explored.] And line 237: a room a card-free fall lands one in is still found: its
    event symbol draws its event, and the finder's movement is over."""
    state = new_game()
    hold(state, OX, "bottle")  # something left to do: his turn waits for him
    at(state, OX, "upper_landing")
    stack_top(state, "underground_lake")
    deck_top(state, "event", "night_view")
    dice.extend([0] * 8)
    state, _ = apply(state, "explore", dir="E")
    state = settle(state)
    lake = tile(state, "underground_lake")
    assert state.tiles[lake].floor == "basement" and state.explorers[OX].tile == lake
    assert "night_view" in state.discards["event"]
    assert state.turn.movement_over and not kinds(state) & {"move", "explore"}


def test_the_furnace_room_burns_only_the_explorer_whose_turn_ends() -> None:
    """Seed 003, Furnace Room: 遊戲回合完結時，若人物停留在這房間，則人物受到1點肉體損傷。
    [At the end of a turn, an explorer who stays in this room takes 1 physical damage.]
    The turn is the explorer's own: Missy, standing there while Ox's turn ends, is not
    burned."""
    state = new_game()
    put(state, "furnace_room", "basement", 5, 5)
    at(state, MISSY, "furnace_room")
    before = dict(state.explorers[MISSY].traits)
    state, _ = apply(state, "end_turn")
    assert state.pending is None and GAME.to_act(state) == MISSY
    assert state.explorers[MISSY].traits == before
    state, _ = apply(state, "end_turn")  # Missy's own turn ends there
    assert state.pending is not None and state.pending.seat == MISSY
    assert "1 physical damage" in state.pending.prompt


def test_the_library_teaches_only_the_explorer_whose_turn_ends() -> None:
    """Seed 003, Library: 當人物完結其遊戲回合時仍留在這房間，其知識Knowledge即上升1個級別。
    [When an explorer ends its turn still in this room, it gains 1 Knowledge.] Peter, who
    is there while Ox ends his turn, gains nothing and keeps his one benefit."""
    state = new_game()
    put(state, "library", "ground", 5, 5)
    at(state, PETER, "library")
    before = state.explorers[PETER].traits["knowledge"]
    state, _ = apply(state, "end_turn")
    assert state.explorers[PETER].traits["knowledge"] == before
    assert "library" not in state.explorers[PETER].benefits
    state, _ = apply(state, "end_turn")  # Missy
    state, _ = apply(state, "end_turn")  # Peter's own turn ends there
    assert state.explorers[PETER].traits["knowledge"] == before + 1


def test_a_turn_may_be_ended_with_nothing_done() -> None:
    """Seed 003, line 223: 玩家可只執行部份活動，或完全不作任何活動，因此玩家必須公告其回合是否
    完結。 [A player may do some of the actions or none, so it must say when its turn is
    over.] Ending at once is always offered, and the turn passes left."""
    state = new_game()
    assert "end_turn" in kinds(state)
    state, _ = apply(state, "end_turn")
    assert GAME.to_act(state) == MISSY and state.turn.moves == 0


def test_cards_in_hand_are_shown_to_the_whole_table() -> None:
    """Seed 003, line 248: 玩家必須將這些卡片放到自己的面前，讓每位玩家知曉。 [Players keep
    these cards in front of them where everyone can see them.] Missy's sheet, which any
    seat may look at (`/betrayal sheet`), lists her cards."""
    state = new_game()
    hold(state, MISSY, "axe", "book")
    names = [c.name for c in sheet_view(state, MISSY).cards]
    assert names == ["Axe", "Book"]


def test_events_are_read_omens_and_items_are_kept(dice) -> None:  # type: ignore[no-untyped-def]
    """Seed 003, line 247: 玩家翻開的預兆牌Omen card、或物品牌Item card皆由玩家保有。 [The omen
    and item cards a player turns up are kept by it.] An event that does not say to keep
    it is read and goes to the discards."""
    state = new_game()
    deck_top(state, "omen", "holy_symbol")
    deck_top(state, "item", "axe")
    deck_top(state, "event", "night_view")
    dice.extend([0] * 8)
    for deck in ("omen", "item", "event"):
        state, _ = run_steps(state, [{"draw": {"deck": deck, "count": 1}}])
        state = settle(state)
    assert state.explorers[OX].cards == ["holy_symbol", "axe"]
    assert state.discards["event"] == ["night_view"] and not state.explorers[OX].lasting


def test_the_coal_chute_is_one_way() -> None:
    """Seed 003, Coal Chute: 煤導槽永遠連接下臺階Basement Landing，這是一條單向的特殊通道。
    [The Coal Chute always leads to the Basement Landing, a one-way special passage.]
    From the landing no way leads up it (without the Rope)."""
    state = new_game()
    chute = put(state, "coal_chute", "ground", 0, -1, rotation=2)
    at(state, OX, "basement_landing")
    assert not any(o.action.args.get("to") == chute for o in GAME.options(state, OX))


def test_a_failed_safe_is_not_tried_again_that_turn(dice) -> None:  # type: ignore[no-untyped-def]
    """Seed 003, line 245: 但同一回合中每項自主的能力考驗僅可進行一次。 [Each voluntary trait
    roll may be made only once a turn.] Locked Safe (line 751: 任何身處這房間人物可…嘗試打開
    這保險箱 [anyone in the room may try to open it]): Ox fails and may not try again this
    turn; Missy, there on hers, may."""
    state = new_game()
    state, _ = draw(state, "locked_safe")
    dice.extend([1, 1, 0, 0])  # Knowledge 3: 2; 1 die of damage: 0
    state, _ = apply(state, "act", what="locked_safe-0")
    state = settle(state)
    assert "act" not in kinds(state)
    state, _ = apply(state, "end_turn")
    assert GAME.to_act(state) == MISSY and "act" in kinds(state, MISSY)


def test_only_the_searcher_bears_the_skeletons_search(dice) -> None:  # type: ignore[no-untyped-def]
    """Seed 003, Skeletons: 只有進行搜尋的人物需承受行動的後果。 [Only the explorer who
    searches bears what comes of it.] Ox's failed search hurts Ox, not Missy beside him."""
    state = new_game()
    dice.extend([0])
    state, _ = draw(state, "skeletons")  # Ox's 1 die of mental damage: 0
    missy = dict(state.explorers[MISSY].traits)
    dice[:] = [0, 0, 0, 2]  # Sanity 3: 0; 1 die of mental damage: 2
    state, _ = apply(state, "act", what="skeletons-0")
    assert state.pending is not None and state.pending.seat == OX
    state = settle(state)
    assert state.explorers[MISSY].traits == missy


def test_the_vault_failed_stays_shut_for_the_next_to_try(dice) -> None:  # type: ignore[no-untyped-def]
    """Seed 003, Vault: 否則保險庫Vault尚未開啟。若保險庫Vault尚未開啟，隨後任何在這房間內的
    人物，皆可嘗試開啟保險庫。 [Else the Vault stays shut; while it is shut, anyone in the
    room later may try to open it.] Ox fails (Knowledge 6+ needed) and may not try twice
    this turn (line 245); Missy, in the Vault on her turn, may."""
    state = new_game()
    put(state, "vault", "upper", 0, -1, rotation=2)
    at(state, OX, "vault")
    at(state, MISSY, "vault")
    dice.extend([2, 2, 1])  # Ox's Knowledge 3: 5
    state, _ = apply(state, "act", what="vault")
    assert not state.explorers[OX].cards and "act" not in kinds(state)
    state, _ = apply(state, "end_turn")
    assert "act" in kinds(state, MISSY)


def test_no_one_dies_before_the_haunt() -> None:
    """Seed 003, line 264: 在進入後段遊戲(作祟Haunt)前，任何人物皆不會死亡，人物的該項能力只會停留
    在骷髏圖案上一個數字。 [Before the haunt no explorer dies: the trait stays at the value
    just above the skull.] Ox, his Speed and Might at their lowest, ends his turn in the
    Furnace Room: the burn takes nothing and he lives."""
    state = new_game()
    put(state, "furnace_room", "basement", 5, 5)
    at(state, OX, "furnace_room")
    state.explorers[OX].traits.update(speed=0, might=0)
    state, _ = apply(state, "end_turn")
    state = settle(state)
    assert state.explorers[OX].alive
    assert state.explorers[OX].traits["speed"] == 0 == state.explorers[OX].traits["might"]
    assert traits.value(state, OX, "might") == 4  # Ox's lowest Might, not the skull


def test_bite_is_no_object_to_carry(dice) -> None:  # type: ignore[no-untyped-def]
    """Seed 003, Bite: 這咭牌並非物件，保留這牌只作計算已翻開的預兆牌Omen card數目。 [This card
    is no object: it is kept only to count the omens turned up.] Ox, bitten, has nothing
    to give or drop, and the omen counts."""
    state = new_game()
    deck_top(state, "omen", "bite")
    dice.extend([2] * 4 + [2] * 5)  # the bite's 4 dice: 8; Ox's Might 5: 10, he wins
    state, _ = run_steps(state, [{"draw": {"deck": "omen", "count": 1}}])
    state = settle(state)
    assert state.omens_drawn == 1 and "bite" in state.omen_table
    assert "bite" not in state.explorers[OX].cards
    assert not kinds(state) & {"trade", "drop"}


NO_RULE = sorted(k for k, r in content.get().rooms.items()
                 if not r.edition and not r.start and not r.custom and not r.on_leave
                 and not r.on_enter and not r.on_end_turn and not r.on_discover)


def test_the_rooms_without_a_rule_are_seed_003s_list() -> None:
    """Seed 003, lines 604-626: the rooms listed there with 以上房間皆無特別規則 [the rooms
    above have no special rule] are exactly the rooms the engine gives no rule."""
    listed = ["abandoned_room", "balcony", "ballroom", "bedroom", "bloody_room",
              "charred_room", "conservatory", "creaky_hallway", "dining_room", "dusty_hallway",
              "game_room", "gardens", "kitchen", "master_bedroom", "operating_laboratory",
              "organ_room", "patio", "research_laboratory", "servants_quarters",
              "statuary_corridor", "storeroom", "wine_cellar"]
    assert listed == NO_RULE


FOUR_DOORS = ("creaky_hallway", "dusty_hallway", "bloody_room", "charred_room", "ballroom")


@pytest.mark.parametrize("room", NO_RULE)
def test_a_room_without_a_rule_does_nothing(room: str) -> None:
    """Seed 003, line 626: 以上房間皆無特別規則。 [The rooms above have no special rule.]
    Walking out, walking back in and ending a turn there make no roll, ask nothing and
    change no trait."""
    state = new_game()
    floor = content.room(room).floors[0]
    placed = put(state, room, floor, 5, 5)
    fillers = [r for r in FOUR_DOORS if r != room]  # plain rooms, doors on every side
    for (dx, dy), filler in zip(((0, -1), (1, 0), (0, 1), (-1, 0)), fillers, strict=False):
        put(state, filler, floor, 5 + dx, 5 + dy)
    state.explorers[OX].tile = placed
    before = dict(state.explorers[OX].traits)
    out = next(o.action.args["dir"] for o in GAME.options(state, OX) if o.action.kind == "move")
    state, events = apply(state, "move", dir=out)
    state, more = apply(state, "move", dir=opposite(out))
    assert state.explorers[OX].tile == placed
    state, last = apply(state, "end_turn")
    assert not any(" rolls " in e for e in events + more + last) and state.pending is None
    assert state.explorers[OX].traits == before and GAME.to_act(state) == MISSY


def test_the_vault_is_tried_only_when_its_explorer_asks(dice) -> None:  # type: ignore[no-untyped-def]
    """Seed 003, line 244: 自主的能力考驗則多數附有回報。走捷徑、打開保險庫Vault…皆需玩家主動
    提出執行。 [Voluntary rolls mostly bring a reward: a shortcut, opening the Vault ...
    are made only when the player asks.] Walking into a placed Vault rolls nothing; the
    roll waits among the explorer's actions."""
    state = new_game()
    put(state, "research_laboratory", "upper", 0, -1)
    put(state, "vault", "upper", 0, -2, rotation=2)  # its door faces the laboratory
    at(state, OX, "research_laboratory")
    state, events = apply(state, "move", dir="N")
    assert state.explorers[OX].tile == tile(state, "vault")
    assert not any(" rolls " in e for e in events) and state.pending is None
    assert any(o.action.kind == "act" and "Vault" in o.label for o in GAME.options(state, OX))


def test_moving_and_handling_cards_may_be_mixed() -> None:
    """Seed 003, line 222: 其中移動、行動、物件及襲擊等活動，皆可夾雜進行 [moving, acting, cards
    and attacks may be mixed in any order]. Ox walks a room, drops his Axe, and walks on
    with the Speed left."""
    state = new_game()
    hold(state, OX, "axe")
    state, _ = apply(state, "move", dir="W")
    state, _ = apply(state, "drop", card="axe")
    assert "move" in kinds(state)
    state, _ = apply(state, "move", dir="W")
    assert state.explorers[OX].tile == tile(state, "grand_staircase") and state.turn.moves == 2
    assert state.tiles[tile(state, "foyer")].items == ["axe"]
