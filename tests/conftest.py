"""Shared test settings."""

import pathlib

ROOT = pathlib.Path(__file__).resolve().parent.parent
APP = str(ROOT / "app.py")
