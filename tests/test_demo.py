"""The Demo's cases: measured, spread over the classes, and each a clear win for kernel PCA."""

from __future__ import annotations

import dataclasses
import json
import os
import re
from pathlib import Path

import numpy as np
import pytest
from conftest import chart, decode, figures, open_view

from kpca_core import usps
from kpca_core.demo import (
    CLEAN,
    MAX_RATIO,
    DemoCases,
    Verdict,
    in_turns,
    measure,
    most_convincing,
    noise_gone,
    showing_order,
)
from kpca_core.denoise import DEMO_N, DigitDenoiser, Noise, demo_images, sample_digits
from kpca_core.figures.denoise import demo_text
from kpca_core.handwriting import EMPTY, encode, from_pad, to_digit
from kpca_ui.views import demo as view

USPS_DIR = os.environ.get("KPCA_USPS_DIR") or "/work/shared/data/usps"
SEEDS = (0, 1, 2)


def usps_pair():
    if not Path(USPS_DIR, "zip.test.gz").exists():
        pytest.skip("the USPS files are not available (set KPCA_USPS_DIR)")
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("KPCA_USPS_DIR", USPS_DIR)
        return usps.load_usps("train"), usps.load_usps("test")


def small_fit(seed: int):
    """Kernel and linear PCA on 60 USPS digits per class; 10 test digits per class."""
    train, test = usps_pair()
    subsets = sample_digits(train, test, 60, 10, side=16, source="USPS", random_state=seed)
    return DigitDenoiser(0.5, center=False).fit(subsets.X_train), subsets


@pytest.fixture(scope="module")
def small_model():
    return small_fit(0)


def page_cases(model, subsets) -> DemoCases:
    """The cases the page measures: the level of :func:`most_convincing` over its levels."""
    levels = [level for level in view.DEMO_LEVELS.values() if level > 0]
    return most_convincing(
        measure(model, subsets.X_test, subsets.y_test, level) for level in levels
    )


def assert_the_rule(cases: DemoCases, labels: np.ndarray) -> None:
    """Every shown digit a win (ratio ≤ 0.5), every class, no class twice in a row."""
    chosen = cases.chosen
    assert np.all(cases.ratios[chosen] <= MAX_RATIO)
    assert set(labels[chosen]) == set(range(10))
    shown = labels[np.append(chosen, chosen[0])]  # "show me another" wraps round
    assert np.all(shown[1:] != shown[:-1])
    eligible = cases.ratios <= MAX_RATIO
    assert cases.clarity[chosen[0]] == cases.clarity[eligible].max()  # the clearest first
    noise, _, kernel = cases.errors[:, chosen[0]]
    assert 1 - kernel / noise >= CLEAN  # kernel PCA's picture is clean


@pytest.mark.usps
@pytest.mark.parametrize("seed", SEEDS)
def test_the_chosen_digits_meet_the_rule_for_every_class(seed):
    model, subsets = small_fit(seed)
    cases = page_cases(model, subsets)
    assert_the_rule(cases, subsets.y_test)
    # Independently, through the Denoising view's demo_images (same noise, same n): the
    # shown pictures' errors give the same ratio.
    for index in cases.chosen[:3]:
        grid = demo_images(
            model,
            subsets.X_test[index],
            Noise("gaussian", cases.level),
            side=16,
            n_linear=DEMO_N["linear"],
            n_kernel=DEMO_N["kernel"],
            random_state=int(index),
        )
        _, linear, kernel = grid.errors[0]
        assert kernel / linear == pytest.approx(cases.ratios[index], rel=1e-6)
        assert kernel / linear <= MAX_RATIO


def test_the_showing_order_goes_round_the_classes_clearest_first():
    labels = np.array([1, 1, 1, 1, 7, 7, 0, 3])
    ratios = np.array([0.1, 0.2, 0.3, 0.4, 0.05, 0.45, 0.6, 0.3])
    order = showing_order(-ratios, labels, ratios <= 0.5)
    # classes by their clearest digit: 7 (0.05), 1 (0.1), 3 (0.3); 0 is not eligible;
    # the third round would hold only 1s, so the order stops before it
    assert list(order) == [4, 0, 7, 5, 1]
    assert list(showing_order(-ratios, labels, labels == 1)) == [0]  # one class: one digit


def test_the_level_covering_most_classes_then_with_the_widest_verdict_is_chosen():
    def cases(level: float, gap: float, classes: int) -> DemoCases:
        # noise 1, linear 0.5 + gap, kernel 0.5: kernel removes `gap` more of the noise
        errors = np.array([[1.0] * 4, [0.5 + gap] * 4, [0.5] * 4])
        return DemoCases(level, errors, np.arange(4), classes)

    assert cases(0.2, 0.3, 10).gap == pytest.approx(0.3)
    picked = most_convincing([cases(0.2, 0.1, 10), cases(0.4, 0.3, 10), cases(0.6, 0.2, 10)])
    assert picked.level == 0.4
    assert most_convincing([cases(0.6, 0.4, 9), cases(0.4, 0.2, 10)]).level == 0.4
    assert most_convincing([cases(0.6, 0.3, 10), cases(0.4, 0.3, 10)]).level == 0.4  # tie


def test_any_digit_goes_through_every_digit_in_turns_over_the_classes():
    labels = np.array([0, 0, 0, 1, 1, 2])
    assert list(in_turns(labels)) == [0, 3, 5, 1, 4, 2]
    assert sorted(in_turns(np.repeat(np.arange(10), 50))) == list(range(500))


@pytest.mark.usps
def test_the_sentence_on_the_selection_states_what_is_computed(small_model):
    """The Demo's two sentences (the digits picked, or all with the medians), their numbers
    recomputed digit by digit through the pictures the page shows (``view.cleaned``)."""
    model, subsets = small_model
    cases = page_cases(model, subsets)
    noise, n = Noise("gaussian", cases.level), len(subsets.X_test)
    verdicts, ratios = [], []
    for index in range(n):
        grid, verdict = view.cleaned(model, subsets.X_test[index], noise, index, 16)
        _, _, linear, kernel = (np.sum((im - subsets.X_test[index]) ** 2) for im in grid.images[0])
        verdicts.append(verdict)
        ratios.append(kernel / linear)
    wins = int(np.sum(np.array(ratios) <= 0.5))
    amount = {0.2: "a little", 0.4: "some", 0.6: "a lot", 0.8: "very much"}[cases.level]
    picked = view.selection(cases, every=False)
    assert numbers(picked) == [wins, n]
    assert "at most half as much noise" in picked and MAX_RATIO == 0.5
    assert f"with {amount} noise" in picked
    kernel = round(100 * np.median([v.kernel for v in verdicts]))
    classic = round(100 * np.median([v.classic for v in verdicts]))
    every = view.selection(cases, every=True)
    assert numbers(every) == [n, kernel, classic]
    assert every.index("kernel") < every.index("classic")
    assert 0 < wins < n and kernel > classic  # the selection is a selection


def numbers(text: str) -> list[int]:
    """The whole numbers a sentence states, in order."""
    return [int(number) for number in re.findall(r"\d+", text)]


def test_the_pictures_text_alternative_names_the_digit_and_each_picture():
    grid = view.ImageGrid(np.zeros((1, 4, 4)), 2, ("",), view.TITLES)
    assert demo_text(grid, "a handwritten 3, test digit #41 of 500") == (
        "A handwritten 3, test digit #41 of 500, in 4 pictures: written by hand, with noise, "
        "classic method, kernel method."
    )


def test_noise_gone_is_the_share_of_the_squared_error_removed():
    clean = np.zeros(4)
    noisy = np.array([1.0, -1.0, 1.0, -1.0])  # ‖noisy − clean‖² = 4
    assert noise_gone(clean, noisy, clean) == 1.0
    assert noise_gone(clean, noisy, noisy) == 0.0
    assert noise_gone(clean, noisy, np.array([1.0, 0, 0, 0])) == pytest.approx(0.75)
    verdict = Verdict.of(clean, noisy, classic=noisy * 0.8, kernel=noisy * 0.5)
    assert verdict.words() == "kernel method: 75 % of the noise gone; classic: 36 %"
    worse = Verdict.of(clean, noisy, classic=noisy * 2, kernel=clean)
    assert "further from the original" in worse.words()


@pytest.fixture
def small_demo(monkeypatch: pytest.MonkeyPatch) -> None:
    """The Demo page on 60 training and 10 test digits per class (real USPS)."""
    if not Path(USPS_DIR, "zip.test.gz").exists():
        pytest.skip("the USPS files are not available (set KPCA_USPS_DIR)")
    monkeypatch.setenv("KPCA_USPS_DIR", USPS_DIR)
    monkeypatch.setattr(
        view, "PRESET", dataclasses.replace(view.PRESET, n_train_per_class=60, n_test_per_class=10)
    )


def shown_digit(at) -> int:
    """The test digit the Demo shows, from its camera button's file name."""
    (element,) = [c for c in figures(at) if c.key == "dm_chart"]
    name = element.config["toImageButtonOptions"]["filename"]
    return int(name.removeprefix("demo_digit"))


@pytest.mark.usps
def test_the_demo_page_shows_convincing_cases_and_another_on_click(small_demo, small_model):
    at = open_view("demo")
    assert at.title[0].value == "Can a computer clean up handwriting?"
    assert not at.warning
    words = at.markdown[0].value
    assert "kernel method" in words and "$" not in words  # one sentence, no formula
    model, subsets = small_model
    expected = page_cases(model, subsets)
    assert view.selection(expected, every=False) in [m.value for m in at.markdown]  # how picked
    spec = chart(at, "dm_chart")
    assert [t.replace("<br>", " ") for t in spec["layout"]["xaxis"]["ticktext"]] == [
        "Written by hand",
        "With noise",
        "Classic method",
        "Kernel method",
    ]
    # four frames of one size: the written digit drawn as wide as the others
    frames = spec["layout"]["shapes"]
    assert len(frames) == 4
    assert len({(f["x1"] - f["x0"], f["y1"] - f["y0"]) for f in frames}) == 1
    # The same digits and model as the page: the level and digits it must choose.
    shown = [shown_digit(at)]
    verdicts = [verdict_line(at)]
    for _ in range(4):
        at.button(key=view.NEXT).click().run()
        assert not at.exception
        shown.append(shown_digit(at))
        verdicts.append(verdict_line(at))
    assert shown == list(expected.chosen[:5])  # "show me another": the next clear case
    labels = subsets.y_test[shown]
    assert np.all(labels[1:] != labels[:-1])
    for index, words in zip(shown, verdicts, strict=True):
        _, verdict = view.cleaned(
            model, subsets.X_test[index], Noise("gaussian", expected.level), index, 16
        )
        assert verdict.words().capitalize() in words
        assert verdict.kernel > verdict.classic
    bars = [p.proto.text for p in at.get("progress")]
    assert bars[0].startswith("Kernel method: ") and bars[1].startswith("Classic method: ")


def verdict_line(at) -> str:
    (words,) = [m.value for m in at.markdown if "Kernel method: " in m.value]
    return words


def pictures_text(at) -> str:
    """The line above the Demo's pictures that says what they show (their text alternative)."""
    (words,) = [c.value for c in at.caption if "test digit #" in c.value]
    return words


@pytest.mark.usps
def test_any_test_digit_shows_the_unpicked_ones_and_the_medians_over_all(small_demo, small_model):
    model, subsets = small_model
    expected = page_cases(model, subsets)
    at = open_view("demo")
    index = shown_digit(at)
    label, n = subsets.y_test[index], len(subsets.X_test)
    # which digit, in words, with each picture named: the pictures' text alternative
    assert pictures_text(at) == (
        f"A handwritten {label}, test digit #{index} of {n}, in 4 pictures: written by hand, "
        "with noise, classic method, kernel method."
    )
    at.button(key=view.NEXT).click().run()
    at.toggle(key=view.ANY).set_value(True).run()  # back to the first of every digit
    assert not at.exception
    assert at.query_params[view.ANY] == "true"
    assert view.selection(expected, every=True) in [m.value for m in at.markdown]
    shown = [shown_digit(at)]
    for _ in range(11):
        at.button(key=view.NEXT).click().run()
        shown.append(shown_digit(at))
    assert shown == list(in_turns(subsets.y_test)[:12])
    assert not set(shown) <= set(expected.chosen)  # digits the selection leaves out
    assert f"test digit #{shown[-1]} of {n}" in pictures_text(at)
    # the link opens it so
    linked = open_view("demo", query={view.ANY: "true"})
    assert shown_digit(linked) == in_turns(subsets.y_test)[0]
    assert linked.toggle(key=view.ANY).value is True


def test_offline_the_demo_says_in_one_plain_line_which_small_set_it_shows(no_usps):
    at = open_view("demo")
    assert not at.warning and not at.error and not at.exception
    shown = [
        element.value
        for kind in ("markdown", "caption", "title", "info")
        for element in at.get(kind)
    ]
    assert usps.FALLBACK_PLAIN in shown
    assert not [text for text in shown if "Errno" in text or "http" in text or "KPCA" in text]
    assert "could not be downloaded" in usps.FALLBACK_PLAIN and "8 × 8" in usps.FALLBACK_PLAIN
    # the small set still shows the difference: the rule holds on it
    spec = chart(at, "dm_chart")
    assert len(spec["layout"]["shapes"]) == 4
    cases = view.convincing_cases.__wrapped__(*cached_demo_arguments())
    assert_the_rule(cases, fallback_subsets().y_test)


def fallback_subsets():
    train, test = (usps._fallback(subset, OSError("offline")) for subset in ("train", "test"))
    preset = view.PRESET
    return sample_digits(
        (train.images, train.labels),
        (test.images, test.labels),
        preset.n_train_per_class,
        preset.n_test_per_class,
        side=8,
        source=train.source,
        random_state=0,
    )


def cached_demo_arguments():
    subsets = fallback_subsets()
    model = DigitDenoiser(view.PRESET.c, center=view.PRESET.center).fit(subsets.X_train)
    return view.model_key(subsets.source), model, subsets


SEVEN = [[(10, 8), (50, 8), (28, 60)]]
"""A "7": a bar and a slanted downstroke, on the pad's 64 × 64 grid."""


def pad_data(at) -> dict:
    """What the page sent the pad (its ``data``)."""
    (proto,) = [e.proto for e in at.get("bidi_component") if e.proto.id.endswith("_pad_widget")]
    return json.loads(proto.json if proto.WhichOneof("data") == "json" else proto.mixed.json)


def write(at, seq: str, strokes) -> None:
    """The pad's state at a stroke's end, as the browser sends it; then a rerun."""
    at.session_state["dm_pad_widget"] = {
        "strokes": {"seq": seq, "strokes": [[list(p) for p in s] for s in strokes]}
    }
    at.run()
    assert not at.exception, [e.value for e in at.exception]


def pad_chart(at) -> list:
    return [c for c in figures(at) if c.key == "dm_pad_chart"]


@pytest.mark.usps
def test_an_empty_pad_says_what_to_do_and_fits_nothing(small_demo):
    at = open_view("demo")
    assert EMPTY in [info.value for info in at.info]
    assert pad_chart(at) == []
    assert pad_data(at)["strokes"] == []


@pytest.mark.usps
def test_a_written_digit_is_cleaned_up_with_a_verdict_and_goes_into_the_link(small_demo):
    at = open_view("demo")
    write(at, "x:1", SEVEN)
    spec = chart(at, "dm_pad_chart")
    assert spec["layout"]["xaxis"]["ticktext"][0] == "Written<br>by you"
    image = decode(spec["data"][0]["z"])
    assert image.shape == (16, 16 * 4 + 3 * 4)  # four 16 × 16 pictures, 4 pixels apart
    written_digit = to_digit(from_pad([[list(p) for p in s] for s in SEVEN])[0])
    assert np.allclose(image[:, :16], written_digit.reshape(16, 16))
    verdicts = [m.value for m in at.markdown if "Kernel method: " in m.value]
    assert len(verdicts) == 2  # the shown case's and the written digit's
    assert (
        "The digit you wrote, in 4 pictures: written by you, with noise, classic method, "
        "kernel method." in [c.value for c in at.caption]
    )
    assert at.query_params["dm_pad"] == encode(from_pad([[list(p) for p in s] for s in SEVEN])[0])
    # "Add noise again": the same digit, other noise
    before = decode(spec["data"][0]["z"])[:, 20:36]
    at.button(key="dm_pad_again").click().run()
    after = decode(chart(at, "dm_pad_chart")["data"][0]["z"])[:, 20:36]
    assert not np.allclose(before, after)
    # "Clear": the empty pad again, out of the link
    write(at, "x:2", [])
    assert pad_chart(at) == [] and "dm_pad" not in at.query_params


@pytest.mark.usps
def test_a_written_digit_link_round_trips(small_demo):
    text = encode(from_pad([[list(p) for p in s] for s in SEVEN])[0])
    at = open_view("demo", query={"dm_pad": text})
    assert pad_data(at)["strokes"] == [[list(p) for p in s] for s in SEVEN]
    assert len(pad_chart(at)) == 1
    damaged = open_view("demo", query={"dm_pad": text + ".**"})
    assert any("damaged" in w.value for w in damaged.warning)
    assert len(pad_chart(damaged)) == 1
