"""A digit written on the pad: strokes to a USPS-like 16 × 16 image, and the link's encoding."""

from __future__ import annotations

import numpy as np
import pytest

from kpca_core.handwriting import (
    EMPTY,
    MAX_POINTS,
    MAX_STROKES,
    Handwriting,
    decode,
    encode,
    from_pad,
    max_link_length,
    to_digit,
)


def written(*strokes) -> Handwriting:
    handwriting, notes = from_pad([[list(point) for point in stroke] for stroke in strokes])
    assert notes == []
    return handwriting


def test_a_vertical_stroke_becomes_a_centred_one_like_column():
    image = to_digit(written([(20, 5), (20, 60)])).reshape(16, 16)
    ink = image > 0
    assert ink[:, 7:9].all()  # the two middle columns, top to bottom
    assert not ink[:, :7].any() and not ink[:, 9:].any()
    assert np.all(image[:, :6] == -1) and np.all(image[:, 10:] == -1)  # paper around it
    assert image.max() == 1.0 and image.min() == -1.0


def test_a_digit_is_scaled_to_fill_the_box_and_centred_wherever_it_is_written():
    ring = [(int(8 + 6 * np.cos(a)), int(10 + 8 * np.sin(a))) for a in np.linspace(0, 6.3, 40)]
    big = [(int(32 + 24 * np.cos(a)), int(32 + 32 * np.sin(a))) for a in np.linspace(0, 6.3, 40)]
    small, large = to_digit(written(ring)), to_digit(written(big))
    for image in (small, large):
        rows = np.flatnonzero((image.reshape(16, 16) > -1).any(axis=1))
        cols = np.flatnonzero((image.reshape(16, 16) > -1).any(axis=0))
        assert (rows[0], rows[-1]) == (0, 15)  # the taller side spans the box, as in USPS
        assert cols[0] + cols[-1] == pytest.approx(15, abs=1)  # centred left to right
    # grey edges, as in the data set: not only paper and full ink
    assert np.any((small > -1) & (small < 1))
    assert np.abs(small - large).mean() < 0.25


def test_an_empty_pad_says_so_and_gives_no_digit():
    with pytest.raises(ValueError, match="Nothing is written"):
        to_digit(Handwriting())
    assert "write a digit" in EMPTY


def test_a_dot_is_a_blot_in_the_middle():
    image = to_digit(written([(3, 3)])).reshape(16, 16)
    assert np.all(image[7:9, 7:9] > 0) and (image > -1).sum() == 4


def test_the_side_of_the_8x8_digits():
    assert to_digit(written([(20, 5), (20, 60)]), side=8).shape == (64,)


def test_a_written_digit_round_trips_through_its_link():
    handwriting = written([(0, 0), (63, 63), (10, 40)], [(5, 6)])
    text = encode(handwriting)
    assert text == "1.AA__Ko.FG"
    assert decode(text) == (handwriting, [])
    assert decode(None) == (Handwriting(), [])


def test_the_pad_keeps_at_most_so_many_strokes_and_positions():
    many = [[[1, 1]]] * (MAX_STROKES + 5)
    handwriting, notes = from_pad(many)
    assert len(handwriting.strokes) == MAX_STROKES and "strokes" in notes[0]
    long = [[[i % 64, 3] for i in range(MAX_POINTS + 10)]]
    handwriting, notes = from_pad(long)
    assert len(handwriting) == MAX_POINTS and "positions" in notes[0]
    assert len(encode(handwriting)) <= max_link_length()


@pytest.mark.parametrize(
    "value", [None, "text", [[["a", 1]]], [[[1.5, 2]]], [[[64, 0]]], [[[-1, 0]]], [[[True, 1]]]]
)
def test_what_the_pad_sends_is_checked(value):
    handwriting, notes = from_pad(value)
    assert len(handwriting) == 0
    assert notes == [] if not isinstance(value, list) else notes


@pytest.mark.parametrize(
    ("text", "kept", "said"),
    [
        ("2.AAAA", 0, "not in the form"),
        ("1.AA__.K*.FG", 3, "damaged"),  # a character outside the alphabet
        ("1.AAB.FG", 1, "damaged"),  # half a position
        ("1." + ".".join(["AA"] * (MAX_STROKES + 3)), MAX_STROKES, "strokes"),
        ("1." + "AB" * (MAX_POINTS + 50), MAX_POINTS, "positions"),
        ("1." + "A" * 100_000, MAX_POINTS, "damaged"),  # far too long: cut before reading
    ],
)
def test_a_damaged_or_oversized_link_keeps_what_is_valid_and_says_so(text, kept, said):
    handwriting, notes = decode(text)
    assert len(handwriting) == kept
    assert any(said in note for note in notes)


class Unread(list):
    """A stroke, or a pen position, that must never be read."""

    def __len__(self) -> int:
        raise AssertionError("read beyond the pad's caps")

    def __iter__(self):
        raise AssertionError("read beyond the pad's caps")


def test_an_oversized_pad_state_is_not_walked_beyond_the_caps():
    """Issue #50, item 10: a 0.96 MB state was walked whole (3-7 s of a run) before the caps."""
    long = [[[1, 1]] * MAX_POINTS + [Unread()] * 100_000]
    handwriting, notes = from_pad(long)
    assert len(handwriting) == MAX_POINTS and "positions" in notes[-1]
    many = [[[1, 1]]] * MAX_STROKES + [Unread()] * 100_000
    handwriting, notes = from_pad(many)
    assert len(handwriting.strokes) == MAX_STROKES and "strokes" in notes[-1]
    bad = [[["x", 1]] * (MAX_POINTS + 1) + [Unread()] * 100_000]  # unreadable ones count too
    handwriting, notes = from_pad(bad)
    assert len(handwriting) == 0 and "positions" in notes[-1]
