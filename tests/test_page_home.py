"""The home page renders the five steps of kernel PCA with their equations."""

from conftest import APP
from streamlit.testing.v1 import AppTest


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
