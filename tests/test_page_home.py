"""The home page: the five steps of kernel PCA, and the gallery of classic figures."""

from urllib.parse import parse_qsl

import pytest
import streamlit as st
from conftest import APP, figures, open_view
from streamlit.testing.v1 import AppTest

from kpca_ui import presenter, shell
from kpca_ui.views import home, home_pictures


def test_home_shows_the_five_steps():
    at = AppTest.from_file(APP).run(timeout=60)
    assert not at.exception
    assert at.title[0].value == "Kernel PCA Explorer"
    steps = [header.value for header in at.subheader]
    for step in ("Kernel matrix", "Centring", "Eigenproblem", "Normalisation", "Projection"):
        assert any(step in header for header in steps), step
    equations = " ".join(latex.value for latex in at.latex)
    for number in ("(10)", "(49)", "(12)", "(16, 50)", "(17, 51)"):
        assert number in equations


def test_the_no_maths_demo_is_the_first_link_on_home():
    at = AppTest.from_file(APP).run(timeout=60)
    first = at.get("page_link")[0]
    assert first.proto.page == "demo"
    assert home.DEMO_ENTRY == "No maths: watch a computer clean up handwriting"
    assert home.DEMO_ENTRY in first.proto.label


def gallery_links(at: AppTest) -> list[tuple[str, dict[str, str]]]:
    return [
        (link.proto.page, dict(parse_qsl(link.proto.query_string)))
        for link in at.get("page_link")
        if link.proto.query_string
    ]


def open_link(page: str, query: dict[str, str]) -> AppTest:
    return open_view(page, query=query)


def test_gallery_cards_open_their_views_with_the_papers_settings():
    at = AppTest.from_file(APP).run(timeout=60)
    assert at.header[0].value == "Classic figures"  # the gallery comes first
    pictures = [c for c in figures(at) if c.key and c.key.startswith("home_pic_")]
    assert len(pictures) == len(home.GALLERY)  # each card has its picture
    for picture in pictures:  # no titles, which ran into each other on a card's width
        layout = picture.spec["layout"]
        assert not layout.get("annotations"), picture.key
        if picture.key.endswith("fig5"):  # two panels' axis titles collided too
            assert not [k for k, v in layout.items() if "axis" in k and v.get("title")]
    links = gallery_links(at)
    assert [page for page, _ in links] == [
        "contours",
        "spectrum",
        "denoising",
        "denoising",
        "denoising",
        "contours",
        "features",
    ]

    fig2 = open_link(*links[0])
    assert fig2.text_input(key="ct_values").value == "1, 2, 3, 4"
    assert fig2.selectbox(key="ct_data").value == "parabola"

    rings = open_link(*links[1])
    assert rings.selectbox(key="sp_data").value == "three_rings"

    small = {"dn_train": "20", "dn_test": "5"}  # keep the fits small in a test
    toy = open_link(links[2][0], {**links[2][1], **small})
    assert any(text.value.startswith("Mika et al. Fig. 1") for text in toy.markdown)
    speckle = open_link(links[4][0], {**links[4][1], **small})
    assert speckle.radio(key="dn_noise").value == "speckle"

    dk = open_link(*links[5])
    assert dk.selectbox(key="ct_data").value == "three_rings"
    assert dk.text_input(key="ct_values").value == "5.423"
    assert [c for c in figures(dk) if c.key == "ct_fig5"]
    table2 = open_link(*links[6])
    assert any(chart.key == "ft_table_chart" for chart in figures(table2))


def test_gallery_cards_keep_presenter_mode():
    at = AppTest.from_file(APP)
    at.query_params["presenter"] = "true"
    links = gallery_links(at.run(timeout=60))
    assert len(links) == len(home.GALLERY)
    assert all(query["presenter"] == "true" for _, query in links)
    plain = gallery_links(AppTest.from_file(APP).run(timeout=60))
    assert all("presenter" not in query for _, query in plain)


def test_gallery_pictures_grow_with_the_presenters_room():
    """At 3840 × 2160 presenter mode draws the gallery's pictures three times as tall as at
    1280 × 720, as it does the views' figures (they were 180 px on any screen: Fig. 2's
    panels 160 px, the digits 87 px tall, under the room's 270 and 144 px)."""
    at = AppTest.from_file(APP)
    at.query_params["presenter"] = "true"
    at.session_state[presenter.ROOM] = {"viewport": {"width": 3840, "height": 2160}}
    shown = [f for f in figures(at.run(timeout=60)) if f.key.startswith("home_pic_")]
    assert len(shown) == len(home.GALLERY)
    assert all(f.spec["layout"]["height"] == 3 * home_pictures.HEIGHT_PX for f in shown)


@pytest.mark.parametrize(
    ("here", "pinned", "told"),
    [("app2", "app1", True), ("app2", "app2", False), ("app2", "", False), ("", "app1", False)],
)
def test_a_session_moved_from_a_dead_replica_is_told_once(monkeypatch, here, pinned, told):
    """Behind HAProxy (deploy/haproxy.cfg) a browser pinned to a replica that died reconnects
    to another, which the balancer tells the pinned one; only then a toast says so."""
    monkeypatch.setenv(shell.REPLICA_ENV, here)
    headers = {shell.PINNED_HEADER: pinned} if pinned else {}
    monkeypatch.setattr(type(st.context), "headers", property(lambda self: headers))
    at = open_view("home")
    expected = [shell.MOVED.format(pinned=pinned, here=here)] if told else []
    assert [toast.value for toast in at.toast] == expected
    at.run()
    assert not at.toast


def test_without_usps_home_draws_no_message_from_its_digit_pictures(no_usps):
    """The digits' fallback message belongs to the Denoising page: drawn while Home's
    cached pictures were built, it was recorded into them and replayed on every visit
    to Home, and in the warm-up's thread, once per element, as "missing
    ScriptRunContext" warnings."""
    home_pictures.picture.clear()
    for _ in range(2):  # built, then replayed from the cache
        at = AppTest.from_file(APP).run(timeout=120)
        assert not at.exception
        assert [alert.value for alert in (*at.warning, *at.info)] == []
