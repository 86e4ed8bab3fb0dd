"""The explanations under the figures: "The maths" and "What am I looking at"."""

from __future__ import annotations

import os
import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from conftest import key_of, open_view, sent_payload
from streamlit.testing.v1 import AppTest

from kpca_ui.explain import EXPLANATIONS, MATHS, MIKA, SSM, WORDS, text

USPS_DIR = os.environ.get("KPCA_USPS_DIR") or "/work/shared/data/usps"
PAPERS = Path(os.environ.get("KPCA_PAPERS_DIR") or "/work/shared/papers")


def open_page(page: str, **state: object) -> AppTest:
    return open_view(page, state=state)


def shown_in_order(node: object) -> Iterator[tuple[str, object]]:
    """The charts (by key) and our expanders of the page, in the order they are drawn."""
    for child in getattr(node, "children", {}).values():
        kind = getattr(child, "type", None)
        if kind == "plotly_chart":
            yield "chart", child.key
        elif kind == "bidi_component" and sent_payload(child) is not None:
            yield "chart", key_of(child)
        elif kind == "expander" and child.label in (MATHS, WORDS):
            yield child.label, child
            continue
        yield from shown_in_order(child)


def explanations(at: AppTest) -> dict[str, dict[str, object]]:
    """Each chart's key -> the expanders drawn after it, before the next chart."""
    found: dict[str, dict[str, object]] = {}
    chart = None
    for kind, item in shown_in_order(at._tree):
        if kind == "chart":
            chart = item
            found[chart] = {}
        elif chart is not None:
            found[chart][kind] = item
    return found


def latex(expander: object) -> str:
    return " ".join(item.value for item in expander.get("latex"))


def words(expander: object) -> str:
    return " ".join(item.value for item in expander.get("markdown"))


def test_contours_figures_have_their_maths_and_words():
    found = explanations(open_page("contours"))
    assert set(found) == {"ct_contours", "ct_projection"}
    grid, projection = found["ct_contours"], found["ct_projection"]
    assert set(grid) == set(projection) == {MATHS, WORDS}
    for number in ("(10)", "(49)", "(12)", "(16, 50)", "(17, 51)", "(54)"):
        assert number in latex(grid[MATHS]), number
    assert r"M\lambda_k\,\alpha_j^k" in latex(projection[MATHS])
    assert "height lines" in words(grid[WORDS])
    assert SSM in [caption.value for caption in grid[MATHS].get("caption")]


def test_spectrum_figures_have_their_maths_and_words():
    at = open_page("spectrum", sp_n=100, sp_nw=20, sp_film=True)
    found = explanations(at)
    charts = ["lines", "components", "heatmap", "bars", "maps", "film"]
    assert set(found) == {f"sp_fig_{name}" for name in charts}
    for name in charts:
        assert set(found[f"sp_fig_{name}"]) == {MATHS, WORDS}, name
    assert r"\frac{1}{M-1}" in latex(found["sp_fig_lines"][MATHS])
    assert "p = 0.90" in latex(found["sp_fig_components"][MATHS])
    assert r"\log_{10}" in latex(found["sp_fig_heatmap"][MATHS])
    # the page's own text on the two limits is still there
    assert "The two limits" in " ".join(m.value for m in at.markdown)


@pytest.mark.skipif(
    not Path(USPS_DIR, "zip.test.gz").exists(), reason="the USPS files are not available"
)
@pytest.mark.parametrize(
    ("tab", "chart", "has_words"),
    [
        ("Fig. 4 grid", "dn_fig4_chart", True),
        ("Side by side", "dn_sbs_chart", True),
        ("Error vs n", "dn_error_chart", True),
        ("2-D toy", "dn_toy_chart", True),
        ("Demo", "dn_demo_chart", False),
        ("Fig. 3", "dn_fig3_chart", True),
        ("Pre-images", "dn_methods_chart", True),
        ("Pre-images", "dn_fixed_point_chart", True),
    ],
)
def test_denoising_tabs_have_their_maths_and_words(monkeypatch, tab, chart, has_words):
    monkeypatch.setenv("KPCA_USPS_DIR", USPS_DIR)
    at = open_page("denoising", dn_train=20, dn_test=5, dn_tab=tab, dn_pre_digits=10)
    expanders = explanations(at)[chart]
    assert set(expanders) == ({MATHS, WORDS} if has_words else {MATHS})
    maths = latex(expanders[MATHS])
    assert r"\mathbf z_{t+1}" in maths
    assert "(10)" in maths
    if tab == "Demo":  # the plain words are the page's own, above
        assert any(e.label.startswith("How it works") for e in at.expander)


def test_features_figures_have_their_maths_and_words():
    found = explanations(open_page("features"))
    assert set(found) == {"ft_toy_chart"}
    assert set(found["ft_toy_chart"]) == {MATHS, WORDS}
    assert "(54)" in latex(found["ft_toy_chart"][MATHS])
    table = explanations(open_page("features", ft_tab="USPS: Table 2"))["ft_table_chart"]
    assert set(table) == {MATHS, WORDS}
    assert "(22)" in latex(table[MATHS]) and "C\\sum_i" in latex(table[MATHS])
    assert "Degree 1 is ordinary PCA" in words(table[WORDS])


def tags(equation: str) -> list[str]:
    """The equation numbers at the end of a LaTeX line: "(16, 50)" -> ["16", "50"]."""
    match = re.search(r"\((?:SSM )?([\d, ]+)\)\}?$", equation.strip())
    return re.findall(r"\d+", match.group(1)) if match else []


def numbered(paper: str) -> dict[str, str]:
    """Each displayed equation of a paper's text by its number."""
    equations = {}
    for block in re.findall(r"\$\$(.*?)\$\$", (PAPERS / paper).read_text(encoding="utf-8"), re.S):
        for number in re.findall(r"(?:\\quad \(|\\tag\{)(\d+)[)}]", block):
            equations[number] = block
    return equations


# A piece of each equation the explanations cite, as the paper's text writes it.
IN_THE_PAPER = {
    "ssm": {
        "10": r"K_{ij} := (\Phi(\mathbf{x}_i) \cdot \Phi(\mathbf{x}_j))",
        "12": r"M \lambda \boldsymbol{\alpha} = K \boldsymbol{\alpha}",
        "16": r"\lambda_k (\boldsymbol{\alpha}^k \cdot \boldsymbol{\alpha}^k)",
        "17": r"(\mathbf{V}^k \cdot \Phi(\mathbf{x}))",
        "49": r"1_M K 1_M",
        "50": r"\tilde{\lambda}_k (\tilde{\alpha}^k \cdot \tilde{\alpha}^k) = 1",
        "51": r"\tilde{K}(\mathbf{x}_i, \mathbf{t})",
        "54": r"1'_M K 1_M",
        "22": r"(\mathbf{x} \cdot \mathbf{y})^d",
        "62": r"2\sigma^2",
    },
    "mika": {
        "4": r"P_n \Phi(\mathbf{x}) = \sum_{k=1}^n \beta_k \mathbf{V}^k",
        "5": r"\rho(\mathbf{z}) = \|\Phi(\mathbf{z}) - \mathbf{P}_n \Phi(\mathbf{x})\|^2",
        "7": r"\beta_k \sum_{i=1}^{\ell} \alpha_i^k \mathbf{k}(\mathbf{z}, \mathbf{x}_i)",
        "10": r"\mathbf{z}_{t+1}",
    },
}


@pytest.mark.skipif(not PAPERS.is_dir(), reason="the papers are not available")
def test_equation_numbers_are_the_papers():
    papers = {
        "ssm": numbered("scholkopf-smola-muller-1996-kernel-pca.md"),
        "mika": numbered("mika-et-al-1999-kpca-denoising.md"),
    }
    cited = set()
    for name, entry in EXPLANATIONS.items():
        assert entry.source in (SSM, MIKA), name
        for equation, sentence in entry.maths:
            assert sentence, name
            paper = "ssm" if entry.source == SSM or "(SSM " in equation else "mika"
            for number in tags(equation):
                assert number in papers[paper], (name, paper, number)
                cited.add((paper, number))
    assert {("ssm", "49"), ("ssm", "54"), ("mika", "10")} <= cited
    for paper, number in cited:
        assert number in IN_THE_PAPER[paper], f"add a piece of {paper} ({number}) to the table"
        assert IN_THE_PAPER[paper][number] in papers[paper][number], (paper, number)


@pytest.mark.parametrize("page", ["contours", "spectrum", "features"])
def test_presenter_mode_draws_no_explanation_it_would_hide(page: str) -> None:
    """Presenter mode's style sheet hides the expanders; drawn, their equations cost the
    browser's typesetting on the projector and on a lesson's slide."""
    at = open_view(page, query={"presenter": "true"})
    assert [e.label for e in at.expander if e.label in (MATHS, WORDS)] == []
    assert [e.label for e in open_view(page).expander if e.label == MATHS] != []


def test_a_views_paragraph_reads_as_written_its_lines_joined_its_lists_kept():
    """``texts.toml`` wraps its paragraphs at 90 characters: a sentence is whole in the text
    shown (and searched), while paragraphs and a list's items stay on lines of their own."""
    preset = text("dn_preset")
    assert "with N = 256 pixels and c = 0.5, and adds" in preset  # wrapped in the file
    assert preset.count("\n") == 2 and "\n\n**Error measure**" in preset
    protocol = text("ft_protocol", n_fit=3000, c_grid="1, 10", held_out=20)
    assert "\n2. the first n components" in protocol and "\n5. the test error" in protocol
    assert "on the first 3000 of the 7291" in protocol
