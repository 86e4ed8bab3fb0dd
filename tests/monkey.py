"""A seeded random walk ("monkey") through one page of the app, as a new user would click.

Each step is one random action on the page as it is now: a widget of any kind
set to a random allowed value (both ends included), a preset button, a tab, an
upload from a small corpus of good and bad files, a gallery link, or a link
with random valid and invalid values.  After every step the page must show no
exception, no error box (other than the explanations of bad input listed in
:data:`EXPLAINED`), no safety-net message, and what the widgets show must be
what the figures are drawn for.  A failure names the seed and the actions that
lead to it: rerunning the seed repeats them.

Sizes (points, digits, widths) are drawn from a small range (:data:`SIZE_CAPS`),
so that a step costs about one cheap rerun; the cost of the largest requests is
bounded by the views' limits, not tested here.  For the same reason the walk
never clicks the buttons of :data:`NOT_CLICKED`.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from urllib.parse import urlencode

from browser_like import BrowserLike
from conftest import APP, chart, figures
from streamlit.testing.v1 import AppTest

from kpca_core import budget
from kpca_ui.safety import MESSAGE
from kpca_ui.settings import Setting
from kpca_ui.shell import NAVIGATION
from kpca_ui.views import (
    class_room,
    contours,
    demo,
    denoising,
    features,
    home,
    lesson,
    spectrum,
)
from kpca_ui.views.home import GALLERY

SIZE_CAPS = {
    "ct_n": 200,
    "sp_n": 200,
    "sp_nw": 40,
    "dn_train": 20,
    "dn_test": 10,
    "dn_sbs_draw": 20,
    "ft_points": 200,
}
"""Largest value drawn for the widgets that set how much is computed."""
NOT_CLICKED = {"ft_live"}
"""Buttons that start a long computation: a cell of Table 2 is a minute of SVMs on 7291
digits even with few digits fitted (``tests/test_page_features.py`` runs it, marked slow)."""
SMALL_DIGITS = {"dn_train": "10", "dn_test": "5"}
VIEWS = {
    "home": home,
    "contours": contours,
    "spectrum": spectrum,
    "denoising": denoising,
    "demo": demo,
    "features": features,
    "lesson": lesson,
    "class_room": class_room,
}
DOMAINS: dict[str, dict[str, Setting]] = {
    page: dict(getattr(VIEWS[page], "SETTINGS", None).entries) if page != "home" else {}
    for page, *_ in NAVIGATION
}
"""What each page takes from a link: every page of the navigation."""
TABS = {"denoising": ("dn_tab", denoising.TABS), "features": ("ft_tab", features.TABS)}
PREFIXES = {page: VIEWS[page].SETTINGS.prefix for page in DOMAINS if page != "home"}
EXPLAINED = (
    "Values of ",  # a bad list of column values, with the default shown instead
    "**",  # an upload that cannot be used: "**name** cannot be used: why"
    "The spectrum cannot be computed",
    "Kernel PCA could not be fitted",
)
"""How the error boxes that explain bad input begin; any other error box is a failure
(but a request above the budget, :data:`REFUSED`)."""
REFUSED = f"; this shared server allows {budget.REQUEST_BUDGET_S:.0f} s per request. To "
"""What every refusal of a request above the budget says (``kpca_core.budget.Cost.refusal``):
the settings a walk reaches (3000 training digits, 500 test digits, the learned pre-image
too) may cost more than a request may take, and the page says what to reduce instead."""
VALUES_TEXTS = ["1, 2, 3, 4", "0.5, 1, 2", "2", "1, 3", "0.1, 10", "1, 2, 3, 4, 5, 6"]
TEXTS = {
    "step": [str(number) for number in range(-1, 13)],
    "ls_lesson": [lesson.DEFAULT, "no_such_lesson"],
}
"""Link values of the text parameters that are no list of values: a lesson's step and name."""
BAD_TEXTS = [
    "abc",
    "",
    "1, 1",
    "1e999",
    "-5",
    "[x](https://evil.example)",
    "9" * 400,
    "1,2,3,4,5,6,7",
]
BAD_URL_VALUES = ["inf", "-inf", "nan", "1e999", "", "abc", "-1", "2.5", "99999999999", "![x](y)"]
UPLOADS = [
    ("good.csv", b"x,y\n0,0\n1,0.5\n2,2\n3,1\n0.5,3\n", True),
    ("groups.csv", b"x;y;group\n1;2;a\n3;4;b\n5;6;a\n2;1;b\n", True),
    ("tabs.txt", b"1\t2\n3\t4\n0\t1\n", True),
    ("empty.csv", b"", False),
    ("one-column.csv", b"1\n2\n3\n", False),
    ("words.csv", b"a,b\nc,d\n", False),
    ("nan.csv", b"1,2\n3,nan\n", False),
    ("inf.csv", b"1,2\n3,inf\n", False),
    ("picture.csv", b"\x89PNG\r\n\x1a\n\x00\x00\x00", False),
    ("same.csv", b"1,1\n1,1\n", False),
    ("[click](https:evil.example).csv", b"1,2\n3,4\n", True),
]
"""Good and bad files, after ``tests/test_uploads.py``'s corpus."""
WIDGET_KINDS = (
    "slider",
    "select_slider",
    "number_input",
    "selectbox",
    "radio",
    "toggle",
    "checkbox",
    "text_input",
    "button",
    "file_uploader",
)


@dataclass
class Walk:
    """One random walk: the page it starts on, its seed, and what it did so far."""

    page: str
    seed: int
    rng: random.Random = field(init=False)
    actions: list[str] = field(default_factory=list)
    browser: BrowserLike | None = None
    where: str = ""

    def __post_init__(self) -> None:
        self.rng = random.Random(f"{self.page}-{self.seed}")

    # --- opening pages -------------------------------------------------------------

    def open(self, page: str, query: dict[str, str | list[str]]) -> None:
        """Open a page from a link (a fresh session), as pasting it in the address bar does."""
        if page == "denoising":
            query = {**SMALL_DIGITS, **query}
        self.actions.append(f"open /{page}?{urlencode(query, doseq=True)[:300]}")
        at = AppTest.from_file(APP, default_timeout=300)
        if page != "home":
            at.switch_page(f"app_pages/{page}.py")
        for key, value in query.items():
            at.query_params[key] = value
        at.run()
        self.where = page
        self.browser = BrowserLike(at)

    @staticmethod
    def page_of(script: str) -> str:
        """The page name of a page script's path (``app_pages/contours.py`` → ``contours``)."""
        return script.removeprefix("app_pages/").removesuffix(".py")

    def random_link(self) -> None:
        """A gallery card, or the current view with random valid and invalid values."""
        if self.rng.random() < 0.3:
            card = self.rng.choice([card for card in GALLERY if self.page_of(card.page) in DOMAINS])
            self.open(self.page_of(card.page), dict(card.query))
            return
        domains = DOMAINS[self.where]
        query: dict[str, str | list[str]] = {}
        for key in self.rng.sample(sorted(domains), min(3, len(domains))):
            query[key] = self.url_value(key, domains[key])
        if self.rng.random() < 0.3:
            query["presenter"] = self.rng.choice(["true", "1", "yes", "no", "maybe", "[x](y)"])
        if self.rng.random() < 0.2:
            prefix = PREFIXES.get(self.where, self.where[:2])
            query[f"{prefix}_unknown"] = self.rng.choice(BAD_URL_VALUES)
        self.open(self.where, query)

    def url_value(self, key: str, setting: Setting) -> str | list[str]:
        """A valid value of the setting, or (one time in three) an invalid one."""
        rng = self.rng
        if rng.random() < 1 / 3:
            bad = rng.choice(BAD_URL_VALUES)
            return [bad, bad] if rng.random() < 0.2 else bad
        if setting.options:
            return setting.name(rng.choice(setting.options))
        if setting.widget in ("toggle", "checkbox"):
            return rng.choice(["true", "false"])
        if setting.low is None:  # text, options the page knows, a drawing
            return rng.choice(TEXTS.get(key, VALUES_TEXTS))
        high = min(setting.high, SIZE_CAPS.get(key, setting.high))
        if setting.widget == "range":
            ends = [rng.choice([setting.low, high, rng.uniform(setting.low, high)]) for _ in "ab"]
            return [f"{x:g}" for x in sorted(ends)]
        value = rng.choice([setting.low, high, rng.uniform(setting.low, high)])
        whole = isinstance(setting.default, int) and not isinstance(setting.default, bool)
        return str(round(value)) if whole else f"{value:.3g}"

    # --- acting on the page --------------------------------------------------------

    def step(self) -> None:
        """One random action on the page as it is now."""
        at = self.browser.at
        roll = self.rng.random()
        if roll < 0.08:
            self.random_link()
            return
        if roll < 0.14 and self.where in TABS:
            key, tabs = TABS[self.where]
            tab = self.rng.choice(tabs)
            self.actions.append(f"tab {tab!r}")
            at.session_state[key] = tab
            self.browser.run()
            return
        widgets = [
            w
            for kind in WIDGET_KINDS
            for w in at.get(kind)
            if w.key
            and not w.key.endswith("_share")
            and "_reset_" not in w.key
            and w.key not in NOT_CLICKED
            and not w.proto.disabled  # the browser cannot change it
        ]
        if not widgets:
            self.random_link()
            return
        self.act(self.rng.choice(widgets))
        self.browser.run()

    def act(self, widget) -> None:
        rng, kind = self.rng, widget.type
        if kind in ("selectbox", "radio", "select_slider"):
            options = list(widget.options)
            label = rng.choice([options[0], options[-1], rng.choice(options)])
            self.actions.append(f"{kind} {widget.key} <- {label!r}")
            self.browser.choose(widget, label)
            return
        if kind == "slider":
            value = self.slider_value(widget)
        elif kind == "number_input":
            value = self.number_value(widget)
        elif kind in ("toggle", "checkbox"):
            value = not widget.value
        elif kind == "text_input":
            value = rng.choice(rng.choice([VALUES_TEXTS, BAD_TEXTS]))
        elif kind == "button":
            self.actions.append(f"click {widget.key}")
            widget.click()
            return
        else:  # file_uploader
            name, data, _ = rng.choice(UPLOADS)
            self.actions.append(f"upload {widget.key} <- {name}")
            widget.set_value((name, data, "text/csv"))
            return
        self.actions.append(f"{kind} {widget.key} <- {value!r}")
        widget.set_value(value)

    def slider_value(self, widget) -> object:
        proto, rng = widget.proto, self.rng
        low, step = proto.min, proto.step or 1
        high = min(proto.max, SIZE_CAPS.get(widget.key, proto.max))
        grid = int((high - low) // step)
        is_int = proto.data_type == proto.INT

        def pick() -> float:
            value = low + step * rng.choice([0, grid, rng.randint(0, max(grid, 0))])
            return round(value) if is_int else round(value, 10)

        if len(proto.default) == 2:
            return tuple(sorted((pick(), pick())))
        return pick()

    def number_value(self, widget) -> object:
        proto, rng = widget.proto, self.rng
        low = proto.min if proto.has_min else -1e6
        high = min(proto.max if proto.has_max else 1e6, SIZE_CAPS.get(widget.key, 1e300))
        value = rng.choice([low, high, rng.uniform(low, high)])
        return int(value) if proto.data_type == proto.INT else value

    # --- what must hold after every step -------------------------------------------

    def problems(self) -> list[str]:
        """What is wrong with the page now (empty when all is well)."""
        at = self.browser.at
        found = [f"exception: {e.value}" for e in at.exception]
        found += [
            f"error box: {e.value}"
            for e in at.error
            if not e.value.startswith(EXPLAINED) and REFUSED not in e.value
        ]
        found += [f"safety net: {w.value}" for w in at.warning if w.value.startswith(MESSAGE)]
        found += [f"widget and server disagree: {m}" for m in self.browser.mismatches()]
        if not found:
            found += self.titles_disagree()
        return found

    def drawn(self, kind: str, key: str) -> bool:
        """Whether the page draws this widget (presenter mode draws only the stepping ones)."""
        return any(widget.key == key for widget in self.browser.at.get(kind))

    def titles_disagree(self) -> list[str]:
        """The figures are titled with what the widgets show (the column, the chosen width)."""
        at, shown = self.browser.at, self.browser.shown
        charts = {c.key for c in figures(at)}
        wrong = []
        if "ct_projection" in charts and self.drawn("selectbox", "ct_pcol"):
            label = shown[at.selectbox(key="ct_pcol").id]
            title = chart(at, "ct_projection")["layout"]["title"]["text"]
            if not title.startswith(f"{label}:"):
                wrong.append(f"Column box shows {label!r}, the projection is of {title!r}")
        if "sp_fig_bars" in charts:
            (width,) = shown[at.select_slider(key="sp_at").id]
            title = chart(at, "sp_fig_bars")["layout"]["title"]["text"]
            if f"= {width}" not in title:
                wrong.append(f"chosen width shows {width!r}, the spectrum is {title!r}")
        return wrong + self.features_disagree(charts) + self.lesson_disagrees()

    def features_disagree(self, charts: set[str]) -> list[str]:
        """The toy is drawn for the width or degree shown, the USPS cell is the one chosen."""
        at, shown = self.browser.at, self.browser.shown
        wrong = []
        if "ft_toy_chart" in charts and self.drawn("selectbox", "ft_kernel"):
            title = chart(at, "ft_toy_chart")["layout"]["annotations"][0]["text"]
            if at.selectbox(key="ft_kernel").value == "rbf":
                (label,) = shown[at.select_slider(key="ft_sigma").id]
                asked = f"σ = {float(label):g}"
            else:
                asked = f"d = {at.slider(key='ft_pdegree').value}"
            if asked not in title:
                wrong.append(f"the toy's control shows {asked!r}, its figure is {title!r}")
        if "ft_table_chart" in charts and self.drawn("select_slider", "ft_degree"):
            (degree,) = shown[at.select_slider(key="ft_degree").id]
            (n,) = shown[at.select_slider(key="ft_n").id]
            cell = f"The cell d = {degree}, n = {n}"
            if cell not in [header.value for header in at.subheader]:
                wrong.append(f"the cell chosen is d = {degree}, n = {n}; it is not shown")
        return wrong

    def lesson_disagrees(self) -> list[str]:
        """The lesson's title, its place and its link name the same step."""
        at = self.browser.at
        if not [b for b in at.button if b.key == lesson.NEXT]:
            return []
        number = at.title[0].value.split(".", 1)[0]
        place = [m.value for m in at.markdown if "kpca-lesson-place" in m.value]
        linked = at.query_params.get("step")
        linked = linked[-1] if isinstance(linked, list) else linked
        if not place or f">{number} of " not in place[0] or linked != number:
            return [f"the lesson's title is step {number}; its place {place}, its link {linked}"]
        return []

    def report(self, problems: list[str]) -> str:
        lines = "\n".join(f"  {i + 1}. {action}" for i, action in enumerate(self.actions))
        return (
            f"monkey on {self.page!r}, seed {self.seed}: after step {len(self.actions)}:\n"
            + "\n".join(f"  - {p[:600]}" for p in problems)
            + f"\nactions (rerun the seed to repeat them):\n{lines}"
        )


def walk(page: str, seed: int, steps: int) -> Walk:
    """Walk ``steps`` random steps from ``page``'s default; raise AssertionError on a problem."""
    monkey = Walk(page, seed)
    monkey.open(page, {})
    for _ in range(steps):
        problems = monkey.problems()
        if problems:
            raise AssertionError(monkey.report(problems))
        monkey.step()
    problems = monkey.problems()
    if problems:
        raise AssertionError(monkey.report(problems))
    return monkey
