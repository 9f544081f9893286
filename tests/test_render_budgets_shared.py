"""The fonts' signature is one object that many small caches' keys name (renderers.common
.font_signature): weighed whole in each key it made the tile strips' layouts keep 230
looks in their budget where they needed 470 with 50 channels (issue 23). It is weighed as
a pointer in the keys and whole where it is kept."""

from __future__ import annotations

from renderers import budgets, common


def test_a_shared_tuple_is_weighed_as_a_pointer_in_a_key() -> None:
    names = ("DejaVu Sans", "Book") * 4
    key = (("Game Room", 124), budgets.Shared(names))
    assert budgets.rough_bytes(budgets.Shared(names)) < budgets.rough_bytes(names)
    assert budgets.rough_bytes(key) < budgets.rough_bytes((("Game Room", 124), names))


def test_the_font_signature_is_shared_equal_to_its_tuple_and_weighed_where_kept() -> None:
    signature = common.font_signature()
    assert isinstance(signature, budgets.Shared)
    assert signature == tuple(signature) and hash(signature) == hash(tuple(signature))
    assert common._font_signature.weigh(signature) == budgets.rough_bytes(tuple(signature))
