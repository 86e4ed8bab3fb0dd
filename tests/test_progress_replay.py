"""A progress bar drawn by a cached computation is drawn by the run that computes, only.

Streamlit's own caches record every element a cached function draws and replay them on
each hit: a bar's every update (for a model's fit, ~200 messages) in each visitor's
rerun and, with no session to draw in, as ~200 "missing ScriptRunContext" warnings in
the warm-up's thread.  The app's cache (:mod:`kpca_ui.cache`) records nothing.
"""

from streamlit.testing.v1 import AppTest


def _script() -> None:
    import streamlit as st

    from kpca_ui.cache import memo
    from kpca_ui.views.denoising_cache import progress_bar

    @memo
    def computed() -> int:
        report, done = progress_bar("Computing")
        for step in range(20):
            report(step / 20, f"step {step}")
        done()
        return 1

    computed()  # a miss: the bar is drawn, updated and removed
    computed()  # a hit: nothing to replay
    st.write("end")


def test_a_cache_hit_replays_no_progress_bar() -> None:
    at = AppTest.from_function(_script).run(timeout=120)
    assert not at.exception
    blocks = at.main.children.values()
    assert [node.type for node in blocks] == ["empty", "markdown"]
