"""An ``AppTest`` driven the way the browser drives the app.

``AppTest`` sends each select box and select slider as the label of the value
the *server* holds, formatted afresh on every run.  The browser sends the label
it *shows*, which it keeps until the server tells it to show another one
(``set_value`` in the widget's message).  When the labels of a widget's options
change under an unchanged value (a column index that now means another column),
the two differ, and only the browser's way shows the defect: the box reads one
thing while the figure uses another, and on the next run the stale label comes
back to the server as a string where an option was expected.
"""

from __future__ import annotations

from streamlit.testing.v1 import AppTest
from streamlit.testing.v1.element_tree import InitialValue

KINDS = ("selectbox", "select_slider", "radio")


class BrowserLike:
    """Runs an ``AppTest`` sending the labels the browser would show.

    Parameters
    ----------
    at : AppTest
        After its first run.
    """

    def __init__(self, at: AppTest) -> None:
        self.at = at
        self.shown: dict[str, object] = {}
        self.chosen: dict[str, object] = {}
        self._remember(set())

    def choose(self, widget: object, label: str) -> None:
        """Pick an option by its label, as a click in the browser does (sent on :meth:`run`)."""
        self.chosen[widget.id] = (label,) if widget.type == "select_slider" else label

    def run(self) -> AppTest:
        """Rerun as the browser would after the interactions set on ``at``'s widgets."""
        states = self.at._tree.get_widget_states()
        touched = {w.id for w in self._widgets() if not isinstance(w._value, InitialValue)}
        touched |= set(self.chosen)
        for state in states.widgets:
            if state.id in self.chosen:
                self._write(state, self.chosen[state.id])
            elif state.id in self.shown and state.id not in touched:
                self._write(state, self.shown[state.id])
        self.chosen = {}
        self.at._run(states)
        self._remember(touched)
        return self.at

    def mismatches(self) -> list[str]:
        """Select boxes and sliders that show another label than the value the server uses."""
        wrong = []
        for widget in self._widgets():
            used = self._read(widget._widget_state)
            if widget.id in self.shown and self.shown[widget.id] != used:
                wrong.append(f"{widget.key}: shows {self.shown[widget.id]!r}, uses {used!r}")
        return wrong

    def _widgets(self) -> list:
        return [w for kind in KINDS for w in self.at.get(kind) if w.key]

    def _remember(self, touched: set[str]) -> None:
        present = {}
        for widget in self._widgets():
            label = self._read(widget._widget_state)
            told = widget.proto.set_value or widget.id in touched or widget.id not in self.shown
            present[widget.id] = label if told else self.shown[widget.id]
        self.shown = present

    @staticmethod
    def _read(state) -> object:
        kind = state.WhichOneof("value")
        if kind == "string_array_value":
            return tuple(state.string_array_value.data)
        return getattr(state, kind) if kind else None

    @staticmethod
    def _write(state, label: object) -> None:
        if isinstance(label, tuple):
            del state.string_array_value.data[:]
            state.string_array_value.data.extend(label)
        elif isinstance(label, str):
            state.string_value = label
