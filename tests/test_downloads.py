"""A download built on click outlives other sessions' runs (kpca_ui/downloads.py)."""

from __future__ import annotations

import pytest
from conftest import open_view
from streamlit.runtime import media_file_manager
from streamlit.runtime.media_file_manager import MediaFileManager
from streamlit.runtime.memory_media_file_storage import MemoryMediaFileStorage

from kpca_ui.downloads import keep_built_downloads

STREAMLIT_BUILD = getattr(
    MediaFileManager.execute_deferred, "__wrapped__", MediaFileManager.execute_deferred
)


def a_click(monkeypatch: pytest.MonkeyPatch, build) -> tuple[MediaFileManager, str]:
    """Session A shows a deferred CSV button and clicks it; the manager and the built file."""
    monkeypatch.setattr(media_file_manager, "_get_session_id", lambda: "A")
    manager = MediaFileManager(MemoryMediaFileStorage("/media"))
    placeholder = manager.add_deferred(lambda: "x,y\n1,2\n", "text/csv", "1.(2).3", "a.csv")
    url = build(manager, placeholder)
    built = url.rsplit("/", 1)[-1].split(".")[0]
    assert manager.read_file(built) is not None
    return manager, built


def other_sessions_run(manager: MediaFileManager, runs: int) -> None:
    """The end of ``runs`` script runs of other sessions: each removes orphaned files."""
    for _ in range(runs):
        manager.remove_orphaned_files()


def test_streamlit_alone_deletes_a_built_download_after_two_runs_of_other_sessions(monkeypatch):
    # the race this module closes; when Streamlit keeps the file itself, this test
    # fails and kpca_ui/downloads.py can go
    manager, built = a_click(monkeypatch, STREAMLIT_BUILD)
    other_sessions_run(manager, 2)
    assert manager.read_file(built) is None


@pytest.mark.parametrize("clicks", [1, 2])
def test_a_built_download_lives_until_its_session_runs_again(monkeypatch, clicks):
    keep_built_downloads()
    keep_built_downloads()  # idempotent: wrapped once
    assert not hasattr(MediaFileManager.execute_deferred.__wrapped__, "__wrapped__")
    manager, built = a_click(monkeypatch, MediaFileManager.execute_deferred)
    for _ in range(clicks - 1):  # the same button clicked again: the same file
        placeholder = next(iter(manager._deferred_callables))
        assert MediaFileManager.execute_deferred(manager, placeholder).endswith(built + ".csv")
    other_sessions_run(manager, 5)
    assert manager.read_file(built) is not None
    manager.clear_session_refs("A")  # A runs again (or ends): its references go
    other_sessions_run(manager, 2)
    assert manager.read_file(built) is None
    assert manager._deferred_callables == {}


def test_a_session_that_ended_before_its_file_was_built_keeps_nothing(monkeypatch):
    keep_built_downloads()
    monkeypatch.setattr(media_file_manager, "_get_session_id", lambda: "A")
    manager = MediaFileManager(MemoryMediaFileStorage("/media"))
    placeholder = manager.add_deferred(lambda: b"1", "text/csv", "1.(2).3", "a.csv")
    manager.clear_session_refs("A")
    MediaFileManager.execute_deferred(manager, placeholder)
    assert "A" not in manager._files_by_session_and_coord


def test_the_app_keeps_built_downloads(monkeypatch):
    monkeypatch.setattr(MediaFileManager, "execute_deferred", STREAMLIT_BUILD)
    open_view("home")
    assert MediaFileManager.execute_deferred.__wrapped__ is STREAMLIT_BUILD
