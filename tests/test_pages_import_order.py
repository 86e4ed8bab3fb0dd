"""Every script Streamlit runs first imports the kpca_core package itself.

``kpca_core/__init__`` imports all its modules while it holds the package's
import lock.  A session thread whose first import is a submodule path locks
that submodule first and can deadlock with it on a fresh server, where many
sessions import at once (seen in bench/load_test.py).
"""

import ast
import pathlib

import pytest
from conftest import ROOT

SCRIPTS = [ROOT / "app.py", *sorted((ROOT / "pages").glob("*.py"))]


def first_kpca_import(path: pathlib.Path) -> str | None:
    for node in ast.parse(path.read_text(encoding="utf-8")).body:
        if isinstance(node, ast.ImportFrom) and node.module:
            if node.module == "pages.common":
                return "pages.common"
            if node.module.split(".")[0] == "kpca_core":
                return node.module
        if isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name.split(".")[0] == "kpca_core":
                    return alias.name
    return None


@pytest.mark.parametrize("path", SCRIPTS, ids=lambda p: p.name)
def test_first_import_is_the_package(path):
    assert first_kpca_import(path) in (None, "kpca_core", "pages.common")


def test_pages_common_imports_the_package_first():
    assert first_kpca_import(ROOT / "pages" / "common.py") == "kpca_core"
