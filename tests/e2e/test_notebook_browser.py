"""Take it home in a real browser: the view's state downloaded as a notebook, which runs."""

from __future__ import annotations

import ast

import nbformat
import pytest
from appserver import AppServer
from browser import IDLE
from nbclient import NotebookClient

pytestmark = pytest.mark.e2e


def test_a_views_notebook_is_downloaded_from_the_page_and_draws_its_state(
    page, app_server: AppServer, artifacts
) -> None:
    page.goto(f"{app_server.url}/contours?ct_values=1%2C+3&ct_k=2")
    page.wait_for_selector(IDLE, timeout=90_000)
    page.get_by_role("button", name="Open as a notebook").click()
    with page.expect_download(timeout=60_000) as asked:
        page.get_by_role("button", name="Notebook (.ipynb)").click()
    download = asked.value
    assert download.suggested_filename == "kpca-contours.ipynb"
    path = artifacts / download.suggested_filename
    download.save_as(path)
    page.screenshot(path=artifacts / "notebook-popover.png")
    nb = nbformat.read(path, as_version=4)
    settings = next(cell.source for cell in nb.cells if cell.cell_type == "code")
    given = {node.targets[0].id: ast.literal_eval(node.value) for node in ast.parse(settings).body}
    assert (given["KERNEL"], given["VALUES"], given["N_COMPONENTS"]) == ("poly", [1, 3], 2)
    # run as a student would, in a real kernel
    NotebookClient(nb, timeout=300, resources={"metadata": {"path": str(artifacts)}}).execute()
    shown = [
        output
        for cell in nb.cells
        if cell.cell_type == "code"
        for output in cell.outputs
        if "application/vnd.plotly.v1+json" in output.get("data", {})
    ]
    assert shown, "the notebook drew no figure"
    titles = " ".join(
        str(annotation.get("text", ""))
        for output in shown
        for annotation in output["data"]["application/vnd.plotly.v1+json"]["layout"].get(
            "annotations", []
        )
    )
    assert "degree 3" in titles and "kPC 2" in titles
