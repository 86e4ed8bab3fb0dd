"""The link encoding of drawn points: round trip, limits, damaged and oversized links."""

import base64

import numpy as np
import pytest

from kpca_core import drawing
from kpca_core.drawing import MAX_POINTS, Drawing, decode, encode, from_data, from_points


def random_drawing(n: int, seed: int, half_width: float = 2.0) -> Drawing:
    rng = np.random.default_rng(seed)
    cells = rng.integers(0, drawing.STEPS + 1, size=(n, 2))
    groups = rng.integers(1, drawing.N_GROUPS + 1, size=n)
    return Drawing(
        tuple((int(x), int(y), int(g)) for (x, y), g in zip(cells, groups, strict=True)),
        half_width,
    )


@pytest.mark.parametrize("n", [0, 1, 3, 4, 5, 8, 99, MAX_POINTS])
@pytest.mark.parametrize("half_width", drawing.HALF_WIDTHS)
def test_round_trip_is_exact(n, half_width):
    original = random_drawing(n, seed=n, half_width=half_width)
    decoded, notes = decode(encode(original))
    assert decoded == original
    assert notes == []


def test_the_encoding_is_compact_and_url_safe():
    text = encode(random_drawing(MAX_POINTS, seed=1))
    assert len(text) == drawing.max_link_length()
    # 3.25 bytes per point in base64: 4.33 characters
    assert len(text) < 4.4 * MAX_POINTS
    assert set(text) <= set("0123456789.ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz-_")


def test_coordinates_span_the_square_and_round_to_the_grid():
    half_width = 5.0
    rows = [[-5, -5, 1], [5, 5, 2], [0.0, 1.2345, 3]]
    drawn, notes = from_points(rows, half_width)
    assert notes == []
    step = 2 * half_width / drawing.STEPS
    np.testing.assert_allclose(drawn.X, np.array(rows, float)[:, :2], atol=step / 2)
    np.testing.assert_array_equal(drawn.X[:2], [[-5, -5], [5, 5]])
    np.testing.assert_array_equal(drawn.groups, [1, 2, 3])


def test_points_outside_the_square_move_onto_its_edge():
    drawn, _ = from_points([[7.0, -9.0, 1]], 2.0)
    np.testing.assert_array_equal(drawn.X, [[2.0, -2.0]])


@pytest.mark.parametrize(
    "row", [[0, 0], [0, 0, 4], [0, 0, 0], ["a", 0, 1], [float("nan"), 0, 1], None, [0, 0, True]]
)
def test_unreadable_edit_rows_are_left_out_with_a_note(row):
    drawn, notes = from_points([[0.5, 0.5, 2], row], 2.0)
    assert len(drawn) == 1
    assert notes == ["1 point could not be read and was left out."]


def test_edits_beyond_the_limit_keep_the_first_points():
    rows = [[0.01 * k, 0.0, 1] for k in range(MAX_POINTS + 5)]
    drawn, notes = from_points(rows, 10.0)
    assert len(drawn) == MAX_POINTS
    assert drawn.X[-1, 0] == pytest.approx(0.01 * (MAX_POINTS - 1), abs=0.01)
    assert "at most 300 points" in notes[0]


@pytest.mark.parametrize("text", ["", None])
def test_no_drawing_is_the_empty_drawing(text):
    assert decode(text) == (Drawing(), [])


@pytest.mark.parametrize("text", ["garbage", "2.2.AAAA", "1.2", "1.2.AA.AA", "%%%"])
def test_a_link_in_another_form_gives_an_empty_canvas_and_a_note(text):
    drawn, notes = decode(text)
    assert len(drawn) == 0
    assert len(notes) == 1 and "not in the form" in notes[0]


@pytest.mark.parametrize("cut", [1, 2, 3, 5, 7])
def test_a_cut_link_keeps_the_points_before_the_cut(cut):
    original = random_drawing(10, seed=3)
    text = encode(original)
    drawn, notes = decode(text[:-cut])
    assert 0 < len(drawn) < 10
    assert drawn.cells == original.cells[: len(drawn)]
    assert len(notes) == 1 and "damaged" in notes[0]
    assert f"the {len(drawn)} points before" in notes[0]


def test_a_foreign_character_cuts_the_drawing_there():
    original = random_drawing(8, seed=4)
    text = encode(original)
    head = len("1.2.")
    drawn, notes = decode(text[: head + 14] + "!" + text[head + 14 :])
    # 14 characters are 10 bytes: a group byte and three points
    assert drawn.cells == original.cells[:3]
    assert "damaged" in notes[0]


def test_an_invalid_group_leaves_out_only_that_point():
    payload = bytes([0b11_00_10_01, 0, 0, 1, 0, 0, 2, 0, 0, 3, 0, 0, 4])
    text = "1.2." + base64.urlsafe_b64encode(payload).decode().rstrip("=")
    drawn, notes = decode(text)
    assert [cell[1:] for cell in drawn.cells] == [(1, 2), (2, 3), (3, 1)]
    assert notes == ["1 point of the link's drawing had no valid group and was left out."]


def test_an_unknown_size_places_the_points_in_the_default_square():
    original = random_drawing(5, seed=5, half_width=10.0)
    text = encode(original).replace("1.10.", "1.7.", 1)
    drawn, notes = decode(text)
    assert drawn.cells == original.cells and drawn.half_width == drawing.DEFAULT_HALF_WIDTH
    assert "unknown size" in notes[0]


@pytest.mark.parametrize("extra", [1, 50, 5000])
def test_an_oversized_link_keeps_the_first_points_with_a_note(extra):
    original = random_drawing(MAX_POINTS + extra, seed=6)
    drawn, notes = decode(encode(original))
    assert drawn.cells == original.cells[:MAX_POINTS]
    assert notes == [
        f"The link's drawing has more than {MAX_POINTS} points; the first {MAX_POINTS} are shown."
    ]


def test_copying_a_data_set_picks_the_smallest_square_and_maps_labels_to_groups():
    X = np.array([[0.0, 0.0], [3.0, -1.0], [-2.0, 4.0], [1.0, 1.0]])
    drawn, note = from_data(X, np.array([7, 3, 9, 3]))
    assert drawn.half_width == 5.0
    assert note is None
    np.testing.assert_allclose(drawn.X, X, atol=5.0 / drawing.STEPS)
    assert drawn.X[0].tolist() == [0.0, 0.0]
    np.testing.assert_array_equal(drawn.groups, [2, 1, 3, 1])


def test_copying_more_than_four_groups_merges_the_rest_into_the_last():
    drawn, _ = from_data(np.zeros((5, 2)), np.arange(5))
    np.testing.assert_array_equal(drawn.groups, [1, 2, 3, 3, 3])


def test_copying_a_large_set_keeps_the_limit_spread_over_it():
    X = np.column_stack([np.linspace(-1, 1, 1000), np.zeros(1000)])
    drawn, note = from_data(X)
    assert len(drawn) == MAX_POINTS
    np.testing.assert_allclose(drawn.X[[0, -1], 0], [-1, 1], atol=1e-3)
    assert note == "300 of its 1000 points are kept (spread over the whole set)"


def test_copying_a_set_larger_than_the_largest_square_clips_it_with_a_note():
    drawn, note = from_data(np.array([[0.0, 0.0], [500.0, 0.0]]))
    assert drawn.half_width == drawing.HALF_WIDTHS[-1]
    assert drawn.X[1, 0] == drawing.HALF_WIDTHS[-1]
    assert "moved onto the canvas's edge" in note
