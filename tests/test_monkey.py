"""Random walks through every page (see ``tests/monkey.py``).

A few seeds per page run in the default suite; ``python3 -m pytest -m monkey``
runs many more (``KPCA_MONKEY_SEEDS`` and ``KPCA_MONKEY_STEPS`` set how many).
The Denoising page uses USPS when ``KPCA_USPS_DIR`` is set, else the 8 × 8 digits.
"""

from __future__ import annotations

import os

import pytest
from monkey import DOMAINS, walk

PAGES = tuple(DOMAINS)
QUICK_SEEDS = (1, 2)
QUICK_STEPS = 12
MANY_SEEDS = range(100, 100 + int(os.environ.get("KPCA_MONKEY_SEEDS", "20")))
MANY_STEPS = int(os.environ.get("KPCA_MONKEY_STEPS", "100"))


@pytest.mark.parametrize("seed", QUICK_SEEDS)
@pytest.mark.parametrize("page", PAGES)
def test_a_short_random_walk_never_breaks_the_page(page: str, seed: int) -> None:
    walk(page, seed, QUICK_STEPS)


@pytest.mark.monkey
@pytest.mark.parametrize("seed", MANY_SEEDS)
@pytest.mark.parametrize("page", PAGES)
def test_a_long_random_walk_never_breaks_the_page(page: str, seed: int) -> None:
    walk(page, seed, MANY_STEPS)
