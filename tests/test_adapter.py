"""What the app assumes of Streamlit beyond its public API (kpca_ui/adapter.py), pinned.

Each assumption is checked against the installed Streamlit: on a release that changes
one, these tests fail and say which, before a guard silently switches itself off.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest
import streamlit
from conftest import ROOT
from streamlit.runtime.scriptrunner import RerunException, StopException
from streamlit.testing.v1 import AppTest

from kpca_ui import adapter

PRODUCT = [ROOT / "app.py", *ROOT.glob("app_pages/*.py"), *ROOT.glob("kpca_ui/**/*.py")]


def test_the_installed_streamlit_is_one_the_adapter_was_checked_against():
    release = ".".join(streamlit.__version__.split(".")[:2])
    assert release in adapter.TESTED_WITH, (
        f"Streamlit {streamlit.__version__}: check each assumption of kpca_ui/adapter.py "
        "against it (these tests), then add its release to TESTED_WITH"
    )


def test_only_the_adapter_imports_streamlits_internals():
    """``streamlit.<module>`` imports name internals but for the public ``streamlit.testing``,
    ``components`` and ``starlette`` entry points and type annotations' ``delta_generator``."""
    public = ("streamlit.testing", "streamlit.delta_generator", "streamlit.navigation.page")
    importers = set()
    for path in PRODUCT:
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            module = node.module if isinstance(node, ast.ImportFrom) else None
            if module and module.startswith("streamlit.") and not module.startswith(public):
                importers.add(path.relative_to(ROOT).as_posix())
    assert importers == {"kpca_ui/adapter.py"}


def test_nothing_assigns_over_streamlits_functions():
    """No ``<a Streamlit name>.attribute = …`` (``st.session_state[key] = …`` is public API)."""
    for path in PRODUCT:
        tree = ast.parse(path.read_text(encoding="utf-8"))
        names = {
            alias.asname or alias.name.split(".")[0]
            for node in ast.walk(tree)
            if (
                isinstance(node, ast.Import | ast.ImportFrom)
                and (getattr(node, "module", None) or "").startswith("streamlit")
            )
            or (
                isinstance(node, ast.Import)
                and any(alias.name.startswith("streamlit") for alias in node.names)
            )
            for alias in node.names
        }
        for node in ast.walk(tree):
            for target in node.targets if isinstance(node, ast.Assign) else []:
                root = target
                while isinstance(root, ast.Attribute):
                    root = root.value
                if isinstance(target, ast.Attribute) and isinstance(root, ast.Name):
                    assert root.id not in names, (path, ast.unparse(target))


def _script() -> None:
    import streamlit as st

    from kpca_ui.adapter import in_script_run, interruption_point

    interruption_point()  # in a run that nothing stops: returns
    st.write(f"in a script run: {in_script_run()}")


def test_a_script_run_is_told_from_another_thread():
    at = AppTest.from_function(_script).run()
    assert not at.exception
    assert at.markdown[0].value == "in a script run: True"
    assert not adapter.in_script_run()
    adapter.interruption_point()  # outside a script run: nothing


def test_a_script_run_asked_to_stop_stops_at_the_interruption_point():
    """What :func:`kpca_ui.adapter.interruption_point` relies on: the run's context has a
    ``yield_check`` that raises Streamlit's rerun or stop exception once a request is
    pending (a worker's wait checks it every 50 ms)."""
    from streamlit.runtime.scriptrunner_utils.script_run_context import ScriptRunContext

    assert "yield_check" in ScriptRunContext.__dataclass_fields__
    from streamlit.runtime.scriptrunner import script_runner

    handled = script_runner.ScriptRunner._maybe_handle_execution_control_request
    assert handled.__code__.co_argcount == 1  # (self): what the context calls
    assert {RerunException, StopException} <= {
        getattr(script_runner, name) for name in ("RerunException", "StopException")
    }


def test_the_theme_choice_key_is_streamlits():
    """:data:`kpca_ui.adapter.THEME_KEY`, the browser's record of the Light/Dark choice, is the
    key Streamlit's own script writes (``stActiveTheme-<path>-v<version>``)."""
    static = Path(streamlit.__file__).parent / "static" / "static" / "js"
    found = [
        match
        for path in static.glob("*.js")
        for match in re.findall(
            r"(\w+)=(\d+),(\w+)=`stActiveTheme-\$\{window\.location\.pathname\}`",
            path.read_text(encoding="utf-8", errors="ignore"),
        )
    ]
    if not found:
        pytest.fail("Streamlit's script no longer names the theme key as kpca_ui.adapter expects")
    ((_, version, _),) = set(found)
    assert f"stActiveTheme-{{path}}-v{version}" == adapter.THEME_KEY
