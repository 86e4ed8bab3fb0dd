"""Class: the students' phones feed the projector — their points, their handwriting.

The lecturer starts a room and projects it; students join with its link or QR
code. This script is the page's layout; its work is in
``kpca_ui/views/class_room.py``, the rooms in ``kpca_ui/rooms/``.
"""

import streamlit as st

from kpca_ui.explain import text
from kpca_ui.rooms.store import normal_code
from kpca_ui.shell import page_start
from kpca_ui.views import class_room as view

page_start(view.SETTINGS)

code = view.linked_code()
lecturer = view.lecturer_room()
if lecturer is not None and code in (None, lecturer[0]):
    view.keep_cookie(view.LECTURER_COOKIE + lecturer[0], lecturer[1])  # a reload keeps control
    view.projector(*lecturer)
elif code is not None:
    st.title(f"Room {code}")
    view.student_view(code)
else:
    st.title("Class")
    st.markdown(text("cl_intro"))
    st.button("Start a room", key="cl_start", on_click=view.start_room, icon=":material/groups:")
    typed = st.text_input("Or join a room: its code", key="cl_code", max_chars=12)
    if typed:
        joined = normal_code(typed)
        if joined is None:
            st.warning("A room code is six letters and digits, as shown on the projector.")
        else:
            st.query_params[view.ROOM] = joined
            st.rerun()
