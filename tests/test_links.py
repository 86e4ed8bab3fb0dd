"""Links into the views: unusable values fall back with a notice, and a link to copy."""

from __future__ import annotations

import ast
import os
import re
from pathlib import Path
from urllib.parse import parse_qsl, urlsplit

import pytest
from conftest import APP, ROOT, figures, open_view
from streamlit.testing.v1 import AppTest
from test_page_home import gallery_links

from kpca_ui.presenter import APP as APP_SETTINGS
from kpca_ui.settings import PREFIXES
from kpca_ui.views import class_room, contours, demo, denoising, features, lesson, spectrum
from kpca_ui.views.denoising import TABS
from kpca_ui.views.features import TABS as FT_TABS

USPS_DIR = os.environ.get("KPCA_USPS_DIR") or "/work/shared/data/usps"


def open_link(page: str, **query: str) -> AppTest:
    """A page opened from a link with these query parameters, after its first run."""
    return open_view(page, query=query)


def notices(at: AppTest) -> list[str]:
    """The link notices as shown: markdown's backslash escapes resolved."""
    return [unescape(line) for toast in at.toast for line in toast.value.split("\n\n")]


def unescape(markdown: str) -> str:
    return re.sub(r"\\(.)", r"\1", markdown)


def test_invalid_values_fall_back_to_the_default_with_a_notice():
    at = open_link("contours", ct_k="99", ct_kernel="Nonsense", ct_n="abc")
    assert at.slider(key="ct_k").value == 3
    assert at.selectbox(key="ct_kernel").value == "poly"
    assert at.slider(key="ct_n").value == 300
    assert sorted(notices(at)) == [
        "The link's value for “Components” (99) is not allowed here; showing the default 3.",
        "The link's value for “Kernel” (Nonsense) is not allowed here; "
        "showing the default Polynomial.",
        "The link's value for “Number of points” (abc) is not allowed here; "
        "showing the default 300.",
    ]
    # the contour grid is drawn all the same
    assert any(chart.key == "ct_contours" for chart in figures(at))


def test_valid_values_and_defaults_give_no_notice():
    at = open_link("contours", ct_k="2", ct_kernel="Gaussian", ct_center="false", ct_n="300.0")
    assert at.slider(key="ct_k").value == 2
    assert at.selectbox(key="ct_kernel").value == "rbf"
    assert at.toggle(key="ct_center").value is False
    assert notices(at) == []


def test_a_notice_is_shown_once_per_link():
    at = open_link("contours", ct_k="99")
    assert len(notices(at)) == 1
    at.run()
    assert notices(at) == []
    at.slider(key="ct_k").set_value(2).run()
    assert notices(at) == []


def test_a_preset_changing_linked_values_gives_no_notice():
    at = open_link("contours", ct_k="5", ct_kernel="Gaussian")
    assert notices(at) == []
    at.button(key="ct_preset_fig2").click().run()
    assert at.slider(key="ct_k").value == 3
    assert notices(at) == []


def test_unknown_parameters_that_look_like_ours_are_reported():
    at = open_link("contours", ct_kernal="Gaussian", utm_source="mail")
    assert notices(at) == [
        "The link's parameter “ct_kernal” is not a setting of this view; it was ignored."
    ]


def test_a_setting_not_drawn_with_these_settings_is_not_reported():
    # ct_degree has no slider while the columns sweep the degree
    at = open_link("contours", ct_degree="3")
    assert notices(at) == []


def test_spectrum_link_with_an_unknown_kernel():
    at = open_link("spectrum", sp_kernel="Nonsense", sp_n="100", sp_nw="20")
    assert at.selectbox(key="sp_kernel").value == "rbf"
    assert notices(at) == [
        "The link's value for “Kernel and swept parameter” (Nonsense) is not allowed here; "
        "showing the default Gaussian: width σ."
    ]


@pytest.mark.skipif(
    not Path(USPS_DIR, "zip.test.gz").exists(), reason="the USPS files are not available"
)
def test_denoising_link_with_text_for_a_number(monkeypatch: pytest.MonkeyPatch):
    monkeypatch.setenv("KPCA_USPS_DIR", USPS_DIR)
    at = open_link("denoising", dn_tab="Side by side", dn_n="abc", dn_train="20", dn_test="10")
    assert at.select_slider(key="dn_n").value == 64
    assert notices(at) == [
        "The link's value for “Number of components n” (abc) is not allowed here; "
        "showing the default 64."
    ]


def test_the_home_gallery_links_give_no_notice(monkeypatch: pytest.MonkeyPatch):
    at = AppTest.from_file(APP, default_timeout=120).run()
    links = gallery_links(at)
    assert links
    small = {"dn_train": "20", "dn_test": "10"}  # keep the fits small in a test
    for page, query in links:
        if page == "denoising":
            if not Path(USPS_DIR, "zip.test.gz").exists():
                continue
            monkeypatch.setenv("KPCA_USPS_DIR", USPS_DIR)
            query = {**query, **small}
        assert notices(open_link(page, **query)) == [], (page, query)


def shared_link(at: AppTest, prefix: str) -> str:
    at.session_state[f"{prefix}_share"] = True  # open the popover
    at.run()
    (code,) = [code.value for code in at.sidebar.get("code")]
    return code


def test_link_to_this_view_carries_the_settings():
    at = open_link("contours", ct_k="2", ct_kernel="Gaussian")
    assert not at.sidebar.get("code")  # built only when opened
    link = urlsplit(shared_link(at, "ct"))
    assert link.path.endswith("/contours")
    assert dict(parse_qsl(link.query)) == {"ct_k": "2", "ct_kernel": "Gaussian"}


VIEWS = (contours, spectrum, denoising, demo, features, lesson, class_room)
TABLES = [APP_SETTINGS, *(module.SETTINGS for module in VIEWS)]
"""Every settings table of the app."""
WIDGETS = (
    *("slider", "number_input", "selectbox", "radio", "select_slider"),
    *("toggle", "checkbox", "text_input"),
)
PRODUCT = [ROOT / "app.py", *ROOT.glob("app_pages/*.py"), *ROOT.glob("kpca_ui/**/*.py")]


def literal_keys() -> dict[str, list[str]]:
    """Every widget key the product's code writes (``key="..."``, ``key=NAME`` of a constant,
    ``key=f"{prefix}_..."``), as a pattern, and where."""
    found: dict[str, list[str]] = {}
    for path in PRODUCT:
        tree = ast.parse(path.read_text(encoding="utf-8"))
        constants = {}
        for node in ast.walk(tree):
            if isinstance(node, ast.Assign) and len(node.targets) == 1:
                names, values = node.targets[0], node.value
                pairs = zip(
                    getattr(names, "elts", [names]), getattr(values, "elts", [values]), strict=False
                )
                for name, value in pairs:
                    if isinstance(name, ast.Name) and isinstance(value, ast.Constant):
                        constants[name.id] = value.value
        for node in ast.walk(tree):
            if not (isinstance(node, ast.keyword) and node.arg == "key"):
                continue
            value = node.value
            if isinstance(value, ast.Name) and isinstance(constants.get(value.id), str):
                pattern = re.escape(constants[value.id])
            elif isinstance(value, ast.Constant) and isinstance(value.value, str):
                pattern = re.escape(value.value)
            elif isinstance(value, ast.JoinedStr):
                pattern = "".join(
                    re.escape(part.value) if isinstance(part, ast.Constant) else r"\w+"
                    for part in value.values
                )
            else:
                continue
            found.setdefault(pattern, []).append(path.name)
    return found


def test_every_setting_is_declared_once_in_one_table():
    declared = [key for table in TABLES for key in table.entries]
    assert len(declared) == len(set(declared)), [k for k in declared if declared.count(k) > 1]
    assert set(PREFIXES.values()) == set(TABLES)  # no table outside the list
    free = (APP_SETTINGS, lesson.SETTINGS, class_room.SETTINGS)  # the app's, "step", "room"
    for table in TABLES:
        prefixed = all(key.startswith(f"{table.prefix}_") for key in table.entries)
        assert prefixed or table in free, table.prefix


def test_no_widget_is_bound_to_the_link_but_by_its_declaration():
    """A widget's link and its values come from its setting: never ``bind=`` by hand, and
    never a widget drawn under a setting's key but by the table."""
    settings = {key for table in TABLES for key in table.entries}
    for path in PRODUCT:
        text = path.read_text(encoding="utf-8")
        assert "bind=" not in text, path
    clashes = {
        key: where
        for key in settings
        for pattern, where in literal_keys().items()
        if re.fullmatch(pattern, key)
    }
    assert not clashes, clashes


PAGE_STATES = [
    ("home", {}),
    ("contours", {}),
    ("contours", {"ct_kernel": "Gaussian", "ct_sweep": "nothing (one column)"}),
    ("contours", {"ct_kernel": "Sigmoid", "ct_sweep": "offset c"}),
    ("spectrum", {"sp_n": "100", "sp_nw": "20", "sp_film": "true"}),
    ("spectrum", {"sp_n": "100", "sp_kernel": "Polynomial: degree d"}),
    ("spectrum", {"sp_n": "100", "sp_nw": "20", "sp_kernel": "Polynomial: offset c"}),
    *[("denoising", {"dn_train": "10", "dn_test": "5", "dn_tab": tab}) for tab in TABS],
    (
        "denoising",
        {
            "dn_train": "10",
            "dn_test": "5",
            "dn_noise": "Speckle (salt and pepper)",
            "dn_method": "Learned (kernel ridge regression)",
        },
    ),
    ("demo", {}),
    ("features", {}),
    ("features", {"ft_kernel": "Polynomial (x·y + 1)^d"}),
    ("features", {"ft_tab": FT_TABS[1]}),
    ("lesson", {}),
    ("class_room", {}),
]
"""Pages in states that between them draw every widget of the app."""


def test_every_widget_key_of_every_page_is_declared_exactly_once():
    """Each key a page draws is a setting of exactly one table, or a control's key (a
    button, a listener) written once in the product's code."""
    settings = {key: table.prefix for table in TABLES for key in table.entries}
    literals = literal_keys()
    seen = set()
    for page, query in PAGE_STATES:
        at = open_view(page, query=query)
        for kind in (*WIDGETS, "button", "tabs"):
            seen |= {widget.key for widget in at.get(kind) if widget.key}
    assert len(seen) > 80
    undeclared = set()
    for key in seen - set(settings):
        where = [
            place
            for pattern, places in literals.items()
            if re.fullmatch(pattern, key)
            for place in places
        ]
        undeclared |= {(key, *where)} if len(where) != 1 else set()
    assert not undeclared, undeclared


@pytest.mark.parametrize(("page", "query"), PAGE_STATES)
def test_the_widgets_are_their_settings(page, query):
    """What a link may hold is what the widget can show: bounds and options alike."""
    tables = [table for table in TABLES if table.page in (page, "")]
    at = open_view(page, query=query)
    checked = 0
    for kind in WIDGETS:
        for widget in at.get(kind):
            setting = next((t[widget.key] for t in tables if widget.key in t), None)
            if setting is None:
                continue
            checked += 1
            assert widget.label.split()[0] == setting.label.split()[0], widget.key
            if setting.widget in ("slider", "number", "range"):
                assert (setting.low, setting.high) == (widget.proto.min, widget.proto.max)
            elif setting.options:
                assert set(widget.options) <= {setting.name(o) for o in setting.options}
    assert checked >= (1 if page in ("home", "demo", "class_room") else 3)


def test_a_former_data_set_title_in_a_link_opens_that_data_set():
    """The sidebar's titles were shortened (cut in their box, issue #31): old links still work."""
    at = open_view("contours", query={"ct_data": "Square outline (Mika et al. Fig. 1)"})
    assert at.selectbox(key="ct_data").value == "square"
    assert at.query_params["ct_data"] == "Square outline"
    assert not at.toast, [t.value for t in at.toast]
