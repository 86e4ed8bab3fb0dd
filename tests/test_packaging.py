"""The package as ``pipx install`` gets it: the engine, the app's machinery and the app itself."""

from __future__ import annotations

import subprocess
import sys
import tomllib
import zipfile
from pathlib import Path

import pytest
from conftest import ROOT

from kpca_ui import cli


def test_every_package_of_the_project_is_in_the_wheel():
    listed = set(
        tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]["packages"]
    )
    found = {
        ".".join(path.parent.relative_to(ROOT).parts)
        for top in ("kpca_core", "kpca_ui")
        for path in (ROOT / top).rglob("__init__.py")
    }
    assert found <= listed
    assert {"kpca_explorer", "kpca_explorer.app_pages"} <= listed


def test_the_wheel_carries_the_app_its_pages_settings_and_files(tmp_path: Path):
    subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", "-w", str(tmp_path), str(ROOT)],
        check=True,
        capture_output=True,
    )
    (wheel,) = tmp_path.glob("*.whl")
    names = set(zipfile.ZipFile(wheel).namelist())
    pages = {f"kpca_explorer/app_pages/{p.name}" for p in (ROOT / "app_pages").glob("*.py")}
    assert pages <= names and "kpca_explorer/app.py" in names
    assert "kpca_explorer/.streamlit/config.toml" in names
    lessons = {f"kpca_explorer/assets/lessons/{p.name}" for p in ROOT.glob("assets/lessons/*")}
    assert lessons and lessons <= names and "kpca_explorer/assets/features_table2.csv" in names
    assert {
        "kpca_ui/explanations.toml",
        "kpca_ui/chart.js",
        "kpca_ui/vendor/plotly.min.js.gz",
    } <= names
    entry = zipfile.ZipFile(wheel).read(next(n for n in names if n.endswith("entry_points.txt")))
    assert b"kpca-explorer = kpca_ui.cli:main" in entry


def test_the_console_script_serves_the_app_next_to_its_files():
    assert (cli.app_dir() / "app.py").is_file()
    assert (cli.app_dir() / "assets" / "lessons").is_dir()


@pytest.mark.slow
def test_kpca_explorer_in_a_fresh_environment_serves_every_view(tmp_path: Path):
    """As a ``pipx`` user: the wheel in a new virtual environment, then ``kpca-explorer``;
    the Lesson and Table 2 read their files from the installed app."""
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
    python = venv / "bin" / "python"
    subprocess.run([python, "-m", "pip", "install", "-q", str(ROOT)], check=True)
    probe = (
        "from kpca_ui.cli import app_dir; from kpca_ui.views import lesson, features;"
        "print(app_dir(), lesson.lesson_names(), features.TABLE_PATH.is_file())"
    )
    out = subprocess.run([python, "-c", probe], cwd=tmp_path, capture_output=True, text=True)
    assert "site-packages/kpca_explorer" in out.stdout, out.stderr
    assert "kernel_pca_10_steps" in out.stdout and out.stdout.strip().endswith("True")
