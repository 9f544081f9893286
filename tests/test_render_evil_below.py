"""The IT: Evil Below picture: the board with the last roll's dice and the fight's cards
on it (renderers/evilbelow/), drawn from the view (bot/games/evilbelow/pictures.py) and
never from anything face down, on one canvas of the chat's shape for the whole game."""

from __future__ import annotations

import io
import random

import pytest
from PIL import Image

from bot.games.evilbelow import EvilBelowGame, content
from bot.games.evilbelow.content import BALLOON, HAND, HEART
from bot.games.evilbelow.pictures import CHILD, DOWN, OPEN, board_view
from bot.games.evilbelow.state import DRAINPIPE, EvilBelowState
from renderers import canvas, evilbelow, render_public, renderer_of
from renderers.evilbelow import (
    BALLOON as BALLOON_INK,
)
from renderers.evilbelow import (
    CHILD_FILL,
    DOWN_FILL,
    HOLE,
    MIN_TEXT,
    U,
    geometry,
    render_board,
)
from renderers.evilbelow.layout import READ_PX, TEXT_SIZES, displayed_px
from tests.evil_below_helpers import (
    BARRENS,
    NEIBOLT,
    SQUARE,
    actions_phase,
    ai_states,
    arrange,
    card,
)

GAME = EvilBelowGame()
SIGNATURE = b"\x89PNG\r\n\x1a\n"
SEVEN = ["bill", "bev", "mike", "richie", "eddie", "ben", "stan"]


def decode(data: bytes) -> Image.Image:
    return Image.open(io.BytesIO(data)).convert("RGB")


def count(img: Image.Image, box: tuple[int, int, int, int], colour: tuple[int, int, int]) -> int:
    colours = img.crop(box).getcolors(1 << 20) or []
    return sum(n for n, px in colours if px == colour)


@pytest.mark.parametrize("players", range(2, 8))
def test_ai_game_boards_are_small_pngs_of_the_width(players: int) -> None:
    for state in ai_states(players, seed=players):
        data = render_board(state)
        assert data.startswith(SIGNATURE)
        img = Image.open(io.BytesIO(data))
        assert img.size == (1100, 700)  # the same canvas all game long: the chat's shape
        assert len(data) < 120_000


def test_found_by_the_game_key() -> None:
    state = arrange(["bill", "bev"])
    assert renderer_of(GAME.key).render_board is render_board
    assert render_public(GAME.key, state) == render_board(state)


def test_renders_are_deterministic_and_cache_free() -> None:
    state = ai_states(4, seed=11)[-2]
    first = render_board(state)
    assert render_board(GAME.copy_state(state)) == first
    canvas.clear_caches()
    assert render_board(state) == first


def test_smallest_text_is_legible_at_chat_size() -> None:
    # Discord shows the board inside 550 x 350: every text size the layout draws is
    # still READ_PX there, and no size is drawn under MIN_TEXT.
    width = render_board.__kwdefaults__["width"]
    assert min(TEXT_SIZES) == MIN_TEXT
    assert all(displayed_px(size, width) >= READ_PX for size in TEXT_SIZES)
    assert displayed_px(MIN_TEXT, width) == round(MIN_TEXT * width / U) * 550 / width
    assert evilbelow.layout.height_of(width) * 550 == 350 * width


def pennywise_pixels(state: EvilBelowState) -> list[int]:
    img = decode(render_board(state))
    geo = geometry(board_view(state))
    return [count(img, box, BALLOON_INK) for box in (*geo.locations, geo.drainpipe)]


def test_pennywise_is_drawn_in_his_location_and_moves_with_him() -> None:
    state = arrange(["bill", "bev", "stan"])
    assert state.pennywise == DRAINPIPE
    start = pennywise_pixels(state)
    assert start[-1] > 100 and max(start[:-1]) == 0  # in the Drainpipe
    state.pennywise = SQUARE
    there = pennywise_pixels(state)
    assert there[SQUARE] > 100
    assert sum(there) == there[SQUARE]
    state.pennywise = 0
    moved = pennywise_pixels(state)
    assert moved[0] > 100 and sum(moved) == moved[0]


def circle_colour(state: EvilBelowState, where: int, circle: int) -> tuple[int, int, int]:
    img = decode(render_board(state))
    geo = geometry(board_view(state))
    cx, cy = geo.circles[where][circle]
    return img.getpixel((cx - round(6 * geo.scale), cy))  # inside the ring, off the glyph


def test_circles_show_face_down_child_and_open_apart() -> None:
    state = arrange(["bill", "bev"])
    child = state.circles[SQUARE][0]
    assert child is not None and child >= content.board().attack_tokens
    assert circle_colour(state, SQUARE, 1) == DOWN_FILL
    state.circles[SQUARE][0] = None
    state.track.append(child)
    assert board_view(state).locations[SQUARE].circles[0].token == OPEN
    assert circle_colour(state, SQUARE, 0) == HOLE
    # Rescued (seed 001: courage, "rescue a victim"): back in the circle, face up.
    state.circles[SQUARE][0] = child
    state.track.pop()
    state.face_up.append(child)
    assert board_view(state).locations[SQUARE].circles[0].token == CHILD
    assert circle_colour(state, SQUARE, 0) == CHILD_FILL
    assert circle_colour(state, SQUARE, 1) == DOWN_FILL


def test_a_rescue_lies_face_up_until_taken_again() -> None:
    from tests.evil_below_helpers import act, rolled

    state = arrange(["bill", "bev"], where={0: SQUARE})
    state, _ = rolled(state, {SQUARE: BALLOON})
    assert board_view(state).locations[SQUARE].circles[0].token == OPEN
    state.dice = [HEART if d == SQUARE else HAND for d in range(7)]
    state.dice_used = [False] * 7
    state, _ = act(state, 0, "courage", die=SQUARE, what="rescue")
    assert [c.token for c in board_view(state).locations[SQUARE].circles] == [
        CHILD, DOWN, DOWN, DOWN]
    state.phase = "sightings"
    state, _ = rolled(state, {SQUARE: BALLOON})
    assert state.face_up == []


def scramble(state: EvilBelowState, seed: int) -> EvilBelowState:
    """The same table with every face-down identity changed: victims in their circles,
    the Fight Stack (same attack count), the decks, the attack pile. Hands are face up
    (seed 001), so they stay."""
    rng = random.Random(seed)
    new = GAME.copy_state(state)
    down = [(w, i) for w, circles in enumerate(new.circles) for i, t in enumerate(circles)
            if t is not None and t not in new.face_up]
    tokens = [new.circles[w][i] for w, i in down]
    rng.shuffle(tokens)
    for (w, i), t in zip(down, tokens, strict=True):
        new.circles[w][i] = t
    held = {c for hero in new.heroes for c in hero.hand}
    pool = [c for c in range(content.totem_count()) if c not in held]
    rng.shuffle(pool)
    new.fight_stack = [c if content.is_attack(c) else pool.pop() for c in new.fight_stack]
    rng.shuffle(new.fight_stack)
    rng.shuffle(new.totem_deck)
    rng.shuffle(new.attack_pile)
    return new


def test_nothing_face_down_is_drawn() -> None:
    for state in ai_states(5, seed=3, every=40)[1:]:
        other = scramble(state, 7)
        assert other.circles != state.circles or other.fight_stack != state.fight_stack
        assert board_view(other) == board_view(state)
        assert render_board(other) == render_board(state)


def test_the_hands_are_drawn_face_up() -> None:
    """Seed 001: "Drawn cards are kept faceup in front of you." Each card in a hand
    shows as its location's colour and its totem's letter; past three, "+n"."""
    state = arrange(["bill", "bev"])
    state.heroes[0].hand = [card(BARRENS, 1)]
    view = board_view(state)
    assert view.heroes[0].cards == ((content.board().colours[BARRENS], "R"),)
    other = GAME.copy_state(state)
    other.heroes[0].hand = [card(BARRENS, 2)]
    assert render_board(other) != render_board(state)
    state.heroes[1].hand = [card(NEIBOLT, t) for t in range(5)]  # Ben-sized
    assert len(board_view(state).heroes[1].cards) == 5
    assert render_board(state)[:8] == b"\x89PNG\r\n\x1a\n"


def test_the_fight_stack_shows_its_size_and_attacks() -> None:
    state = arrange(["bill", "bev"])
    view = board_view(state)
    assert (view.fight_stack, view.fight_attacks) == (7, 1)  # seed 001: 6 totems + 1 attack
    state.fight_stack.append(state.attack_pile.pop())
    view = board_view(state)
    assert (view.fight_stack, view.fight_attacks) == (8, 2)
    assert render_board(state) != render_board(arrange(["bill", "bev"]))


def test_the_dice_of_the_last_roll_are_on_the_board() -> None:
    state = arrange(["bill", "bev"])
    assert board_view(state).dice == ()
    empty = decode(render_board(state))
    rolled = actions_phase(state, {0: BALLOON, 1: HEART})
    view = board_view(rolled)
    assert [d.face for d in view.dice] == [BALLOON, HEART] + [HAND] * 5
    assert view.roller == rolled.players[0]
    img = decode(render_board(rolled))
    geo = geometry(view)
    for box in geo.dice:  # each location's die is drawn in its place, nowhere else
        assert img.crop(box).tobytes() != empty.crop(box).tobytes()
    assert img.size == empty.size

    # A real roll is remembered past its turn: the board told after an AI's whole turn
    # still shows the dice it rolled, none used, and who rolled them.
    state = arrange(["bill", "bev"])
    state, _ = GAME.apply(state, 0, next(o.action for o in GAME.options(state, 0)
                                         if o.action.kind == "roll"))
    faces = list(state.dice)
    ended = GAME.copy_state(state)
    ended.dice, ended.dice_used, ended.turn = [""] * 7, [False] * 7, 1
    after = board_view(ended)
    assert [d.face for d in after.dice] == faces and after.roller == state.players[0]
    assert not any(d.used for d in after.dice)


def test_composed_in_the_palette_as_the_rgb_board_quantized() -> None:
    # Pieces pasted in the palette give the picture drawing the board whole in RGB and
    # quantizing it gives, pixel for pixel.
    from renderers.common import to_png

    for state in ai_states(7, seed=5, every=60):
        rgb = evilbelow.render_image(state)
        plain = to_png(rgb, palette=evilbelow.palette(rgb.width))
        assert decode(render_board(state)).tobytes() == decode(plain).tobytes()
