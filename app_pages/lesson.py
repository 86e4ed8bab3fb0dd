"""Lesson: step through a lecture, each step a view with its settings and what to say.

The lesson is a TOML file in ``assets/lessons/`` (format: README, "A lesson to
step through"); the page's work is in ``kpca_ui/views/lesson.py``.
"""

import streamlit as st

from kpca_ui.links import link_tools, literal
from kpca_ui.shell import require_app_shell
from kpca_ui.views import lesson as view

require_app_shell(view.LINK_DOMAINS)
view.lesson_style()

names = view.lesson_names()
if not names:
    st.error("There is no lesson: put a lesson file (.toml) in assets/lessons/.")
    st.stop()
name = st.sidebar.selectbox(
    "Lesson",
    names,
    key="ls_lesson",
    bind="query-params",
    on_change=view.restart,
    help="Each .toml file in assets/lessons/ is a lesson; copy one to write your own.",
)
embed = st.sidebar.toggle(
    "Show the view here",
    True,
    key="ls_embed",
    help="The step's view below its words, in presenter mode; off: only the link to it.",
)
try:
    lesson = view.load_lesson(name)
except view.LessonError as error:
    st.error(
        f"This lesson cannot be shown: {literal(str(error), view.ECHO_CHARS)}",
        icon=":material/error:",
    )
    st.stop()

view.show_step(lesson, view.current_step(len(lesson.steps)), embed=embed)
link_tools("ls")
