"""A download built on click stays on the server until its browser has fetched it.

A download button whose data is a callable (``st.download_button(data=f)``)
builds its file only when clicked: the browser asks the server to run ``f``
(``MediaFileManager.execute_deferred``), receives the file's URL, then fetches
it.  Streamlit 1.67 stores that file without any session referring to it, and
``remove_orphaned_files``, called at the end of every script run of *every*
session, marks such a file on its first pass and deletes it on its second.
With a class's sessions rerunning many times a second, two passes can fall
between the click and the fetch: under ``bench/load_test.py --lecture
--replicas 2`` 12 of 150 CSV downloads ended in HTTP 404.

:func:`keep_built_downloads` makes the session that clicked refer to the file
it built, as it refers to every other file its page shows, so the file lives
until that session's next run (clicking such a button does not rerun it:
``on_click="ignore"``).  The reference sits beside the button's own, under
its coordinates plus :data:`SUFFIX`, and is dropped with the session's others
when it reruns or ends.
"""

from __future__ import annotations

import functools

from streamlit.runtime.media_file_manager import MediaFileManager

SUFFIX = "/built"
"""Appended to a download button's coordinates for the file its click built."""


def keep_built_downloads() -> None:
    """Make Streamlit keep each file a deferred download builds until its session reruns.

    Idempotent: ``app.py`` calls it on every run.
    """
    build = MediaFileManager.execute_deferred
    if getattr(build, "keeps_built_downloads", False):
        return

    @functools.wraps(build)
    def build_and_keep(self: MediaFileManager, file_id: str) -> str:
        with self._lock:
            entry = self._deferred_callables.get(file_id)
        url = build(self, file_id)
        if entry is None:
            return url
        with self._lock:
            built = next((f for f in self._file_metadata if self._storage.get_url(f) == url), None)
            session = self._files_by_session_and_coord.get(entry["session_id"])
            if built is not None and session is not None:
                session[entry["coordinates"] + SUFFIX] = built
        return url

    build_and_keep.keeps_built_downloads = True
    MediaFileManager.execute_deferred = build_and_keep
