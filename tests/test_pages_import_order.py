"""Every script Streamlit runs first imports the kpca_core package itself.

``kpca_core/__init__`` imports all its modules while it holds the package's
import lock.  A session thread whose first import is a submodule path locks
that submodule first and can deadlock with it on a fresh server, where many
sessions import at once (seen in bench/load_test.py).  A page's imports of
:mod:`kpca_ui` run that package's modules first, so they are followed.
"""

import ast
import pathlib

import pytest
from conftest import ROOT

SCRIPTS = [ROOT / "app.py", *sorted((ROOT / "app_pages").glob("*.py"))]
UI_MODULES = sorted((ROOT / "kpca_ui").rglob("*.py"))


def module_files(module: str) -> list[pathlib.Path]:
    """The files a first import of a ``kpca_ui`` module runs: its packages' ``__init__``, it."""
    parts = module.split(".")
    files = [ROOT.joinpath(*parts[:i], "__init__.py") for i in range(1, len(parts) + 1)]
    return [*files, ROOT.joinpath(*parts).with_suffix(".py")]


def imported_modules(node: ast.stmt) -> list[str]:
    """The modules an import statement imports (``from a import b`` may import ``a.b``)."""
    if isinstance(node, ast.Import):
        return [alias.name for alias in node.names]
    if isinstance(node, ast.ImportFrom) and node.module:
        return [node.module, *(f"{node.module}.{alias.name}" for alias in node.names)]
    return []


def first_kpca_import(path: pathlib.Path) -> str | None:
    """The first ``kpca_core`` module that running ``path`` imports, through ``kpca_ui``."""
    for node in ast.parse(path.read_text(encoding="utf-8")).body:
        for module in imported_modules(node):
            if module.split(".")[0] == "kpca_core":
                return module
            if module.split(".")[0] == "kpca_ui":
                for file in module_files(module):
                    found = first_kpca_import(file) if file.is_file() else None
                    if found:
                        return found
    return None


@pytest.mark.parametrize("path", SCRIPTS, ids=lambda p: p.name)
def test_first_import_is_the_package(path):
    assert first_kpca_import(path) in (None, "kpca_core")


@pytest.mark.parametrize("path", UI_MODULES, ids=lambda p: str(p.relative_to(ROOT)))
def test_kpca_ui_modules_import_the_package_first(path):
    assert first_kpca_import(path) in (None, "kpca_core")


def test_the_data_picker_imports_the_package_first():
    assert first_kpca_import(ROOT / "kpca_ui" / "points.py") == "kpca_core"
