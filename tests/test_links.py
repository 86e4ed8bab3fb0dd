"""Links into the views: unusable values fall back with a notice, and a link to copy."""

from __future__ import annotations

import ast
import importlib
import os
import re
from pathlib import Path
from urllib.parse import parse_qsl, urlsplit

import pytest
from conftest import APP, ROOT, figures, open_view
from streamlit.testing.v1 import AppTest
from test_page_home import gallery_links

from kpca_ui.links import LABELS, PAGES
from kpca_ui.shell import NAVIGATION
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


def bound_keys(path: Path) -> set[str]:
    """The literal keys of the widgets a page script or view module binds to the URL."""
    keys = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if not isinstance(node, ast.Call):
            continue
        words = {kw.arg: kw.value for kw in node.keywords}
        bind, key = words.get("bind"), words.get("key")
        if (
            isinstance(bind, ast.Constant)
            and bind.value == "query-params"
            and isinstance(key, ast.Constant)
        ):
            keys.add(key.value)
    return keys


@pytest.mark.parametrize("prefix", sorted(PAGES))
def test_every_bound_widget_has_a_label_for_the_notices(prefix):
    view = PAGES[prefix]
    files = [ROOT / "app_pages" / f"{view}.py", *(ROOT / "kpca_ui" / "views").glob(f"{view}*.py")]
    keys = set().union(*map(bound_keys, files))
    assert keys, "no bound widget found: has the page moved?"
    missing = {key for key in keys if key.removeprefix(f"{prefix}_") not in LABELS[prefix]}
    assert not missing, f"add these keys to kpca_ui/links.py LABELS[{prefix!r}]: {missing}"


DOMAIN_PAGES = [
    ("contours", {}),
    ("contours", {"ct_kernel": "Gaussian", "ct_sweep": "nothing (one column)"}),
    ("spectrum", {"sp_n": "100", "sp_nw": "20"}),
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
]


@pytest.mark.parametrize("page", [name for name, _, _ in NAVIGATION])
def test_every_page_checks_each_bound_widgets_link_value_before_the_widgets(page):
    script = ROOT / "app_pages" / f"{page}.py"
    files = [script, *(ROOT / "kpca_ui" / "views").glob(f"{page}*.py")]
    keys = set().union(*map(bound_keys, files))
    domains = importlib.import_module(f"kpca_ui.views.{page}").LINK_DOMAINS
    missing = keys - set(domains)
    assert not missing, f"add these keys to kpca_ui/views/{page}.py LINK_DOMAINS: {missing}"
    (call,) = [
        node
        for node in ast.walk(ast.parse(script.read_text(encoding="utf-8")))
        if isinstance(node, ast.Call) and getattr(node.func, "id", "") == "require_app_shell"
    ]
    assert [ast.unparse(arg) for arg in call.args] == ["view.LINK_DOMAINS"]


DOMAIN_PAGES += [
    ("features", {}),
    ("features", {"ft_kernel": "Polynomial (x·y + 1)^d"}),
    ("features", {"ft_tab": FT_TABS[1]}),
    ("lesson", {}),
]


@pytest.mark.parametrize(("page", "query"), DOMAIN_PAGES)
def test_the_declared_link_domains_are_the_widgets_own(page, query):
    """What a link may hold is what the widget can show: bounds and options alike."""
    domains = importlib.import_module(f"kpca_ui.views.{page}").LINK_DOMAINS
    at = open_view(page, query=query)
    checked = 0
    for kind in (
        "slider",
        "number_input",
        "selectbox",
        "radio",
        "select_slider",
        "toggle",
        "checkbox",
        "text_input",
    ):
        for widget in at.get(kind):
            if widget.key not in domains:
                continue
            domain, checked = domains[widget.key], checked + 1
            if domain.kind in ("int", "float", "pair") and hasattr(widget, "options"):
                assert all(domain.accepts([option]) for option in widget.options), widget.key
            elif domain.kind in ("int", "float", "pair"):
                assert (domain.low, domain.high) == (widget.proto.min, widget.proto.max), widget.key
            elif domain.kind == "choice":
                # the union over the page's settings (the sweeps of every kernel)
                assert set(widget.options) <= set(domain.options), widget.key
            else:
                assert domain.kind == ("flag" if kind in ("toggle", "checkbox") else "text")
    assert checked >= (1 if page == "lesson" else 3)  # the lesson's step is no widget


def test_a_former_data_set_title_in_a_link_opens_that_data_set():
    """The sidebar's titles were shortened (cut in their box, issue #31): old links still work."""
    at = open_view("contours", query={"ct_data": "Square outline (Mika et al. Fig. 1)"})
    assert at.selectbox(key="ct_data").value == "square"
    assert at.query_params["ct_data"] == "Square outline"
    assert not at.toast, [t.value for t in at.toast]
