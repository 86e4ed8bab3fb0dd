"""Lesson: step through a lecture, each step a view with its settings and what to say.

The lesson is a TOML file in ``assets/lessons/`` (format: ``docs/lecturers/lessons.md``);
the page's work is in ``kpca_ui/views/lesson.py``.
"""

import streamlit as st

from kpca_ui.settings import literal
from kpca_ui.shell import NOTEBOOK_VIEWS, page_start, take_home
from kpca_ui.views import lesson as view

page_start(view.SETTINGS)
view.lesson_style()

names = view.lesson_names()
if not names:
    st.error("There is no lesson: put a lesson file (.toml) in assets/lessons/.")
    st.stop()
view.SETTINGS.settle("ls_lesson", names, names[0])
name = view.SETTINGS.draw("ls_lesson", st.sidebar, options=names, on_change=view.restart)
embed = view.SETTINGS.draw("ls_embed", st.sidebar)
try:
    lesson = view.load_lesson(name)
except view.LessonError as error:
    st.error(
        f"This lesson cannot be shown: {literal(str(error), view.ECHO_CHARS)}",
        icon=":material/error:",
    )
    st.stop()

number = view.current_step(len(lesson.steps))
view.show_step(lesson, number, embed=embed)
step = lesson.steps[number - 1]
if step.page in NOTEBOOK_VIEWS:
    take_home(step.page, view.step_values(step), exercise=step.try_this)
view.SETTINGS.finish()
