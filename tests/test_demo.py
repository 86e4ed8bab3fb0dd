"""The Demo's cases: measured, and each shown digit is one where kernel PCA clearly wins."""

from __future__ import annotations

import dataclasses
import json
import os
from pathlib import Path

import numpy as np
import pytest
from conftest import chart, open_view

from kpca_core import usps
from kpca_core.demo import THRESHOLD, DemoCases, measure, most_convincing
from kpca_core.denoise import DEMO_N, DigitDenoiser, Noise, demo_images, sample_digits
from kpca_ui.views import demo as view

USPS_DIR = os.environ.get("KPCA_USPS_DIR") or "/work/shared/data/usps"


@pytest.fixture(scope="module")
def small_model():
    """Kernel and linear PCA on 60 USPS digits per class; 10 test digits per class."""
    if not Path(USPS_DIR, "zip.test.gz").exists():
        pytest.skip("the USPS files are not available (set KPCA_USPS_DIR)")
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("KPCA_USPS_DIR", USPS_DIR)
        train, test = usps.load_usps("train"), usps.load_usps("test")
    subsets = sample_digits(train, test, 60, 10, side=16, source="USPS", random_state=0)
    return DigitDenoiser(0.5, center=False).fit(subsets.X_train), subsets


@pytest.mark.usps
@pytest.mark.parametrize("level", [0.4, 0.8])
def test_every_chosen_digit_has_a_ratio_above_the_threshold(small_model, level):
    model, subsets = small_model
    cases = measure(model, subsets.X_test, level)
    assert len(cases.chosen) > 0
    assert np.all(cases.ratios[cases.chosen] >= THRESHOLD)
    assert np.all(np.diff(cases.ratios[cases.chosen]) <= 0)  # the clearest first
    others = np.setdiff1d(np.arange(len(subsets.X_test)), cases.chosen)
    assert np.all(cases.ratios[others] < THRESHOLD)
    # Independently, through the Denoising view's demo_images (same noise, same n): the
    # shown pictures' errors give the same ratio.
    for index in cases.chosen[:3]:
        grid = demo_images(
            model,
            subsets.X_test[index],
            Noise("gaussian", level),
            side=16,
            n_linear=DEMO_N["linear"],
            n_kernel=DEMO_N["kernel"],
            random_state=int(index),
        )
        _, linear, kernel = grid.errors[0]
        assert linear / kernel == pytest.approx(cases.ratios[index], rel=1e-6)
        assert linear / kernel >= THRESHOLD


def test_the_level_with_the_most_convincing_digits_is_chosen():
    def cases(level: float, n: int) -> DemoCases:
        return DemoCases(level, np.full(5, 4.0), np.arange(n))

    assert most_convincing([cases(0.2, 1), cases(0.4, 3), cases(0.6, 2)]).level == 0.4
    assert most_convincing([cases(0.6, 3), cases(0.4, 3)]).level == 0.4  # the lower on a tie


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
    (element,) = [c for c in at.get("plotly_chart") if c.key == "dm_chart"]
    name = json.loads(element.proto.config)["toImageButtonOptions"]["filename"]
    return int(name.removeprefix("demo_digit"))


@pytest.mark.usps
def test_the_demo_page_shows_convincing_cases_and_another_on_click(small_demo, small_model):
    at = open_view("demo")
    assert at.title[0].value == "Can a computer clean up handwriting?"
    assert not at.warning
    words = at.markdown[0].value
    assert "kernel method" in words and "$" not in words  # one sentence, no formula
    spec = chart(at, "dm_chart")
    assert [t.replace("<br>", " ") for t in spec["layout"]["xaxis"]["ticktext"]] == [
        "Written by hand",
        "With noise",
        "Classic method",
        "Kernel method",
    ]
    # The same digits and model as the page: the level and digits it must choose.
    model, subsets = small_model
    levels = [level for level in view.DEMO_LEVELS.values() if level > 0]
    expected = most_convincing(measure(model, subsets.X_test, level) for level in levels)
    shown = [shown_digit(at)]
    for _ in range(2):
        at.button(key=view.NEXT).click().run()
        assert not at.exception
        shown.append(shown_digit(at))
    n = min(3, len(expected.chosen))
    assert shown[:n] == list(expected.chosen[:n])  # "show me another": the next clear case
    assert np.all(expected.ratios[shown] >= THRESHOLD)
