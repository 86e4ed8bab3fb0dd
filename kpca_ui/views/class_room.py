"""The Class page's work: a room's projector and lecturer's controls, and a student's phone.

The lecturer's token stays in their session and address (``?room=<code>&key=<token>``, so a
reload keeps control); the join link carries the code alone.  Students add points on the
canvas (:mod:`kpca_ui.draw`) and digits from the pad (:mod:`kpca_ui.pad`).
"""

from __future__ import annotations

import functools
import hashlib
import io
from collections.abc import Callable
from typing import Any, TypeVar
from urllib.parse import urlencode, urlsplit

import numpy as np
import pandas as pd
import segno
import streamlit as st

import kpca_core  # noqa: F401  (the package before a submodule: test_pages_import_order.py)
from kpca_core import contours as ct
from kpca_core.denoise import DEMO_N, DigitDenoiser
from kpca_core.drawing import Drawing, encode, from_points
from kpca_core.figures import denoise as digit_figures
from kpca_core.figures.style import export_config
from kpca_core.handwriting import Handwriting, to_digit
from kpca_ui import draw, pad
from kpca_ui.cache import memo
from kpca_ui.chart import chart
from kpca_ui.points import PointSet
from kpca_ui.presenter import figure_px, presentable, presenter_mode
from kpca_ui.rooms.store import (
    CODE_LENGTH,
    HALF_WIDTH,
    KERNELS,
    Joined,
    NotAllowed,
    RoomError,
    RoomGone,
    Snapshot,
    StoreUnavailable,
    normal_code,
    shared_store,
)
from kpca_ui.safety import guarded
from kpca_ui.settings import Setting, Settings
from kpca_ui.views.contours import Columns
from kpca_ui.views.contours_grid import Space, grid

PREFIX = "cl"
ROOM = "room"  # the join link's parameter: the room's code
LECTURER_KEY = "key"  # the lecturer's own address's parameter: the token (never in the join link)
KEY_CHARS = 64  # the longest key a link may give (a token is 32 characters)
SETTINGS = Settings(
    PREFIX,
    "class_room",
    Setting(ROOM, "Room", "link", longest=3 * CODE_LENGTH),
    Setting(LECTURER_KEY, "Lecturer's key", "link", longest=KEY_CHARS),
)
WRONG_KEY = (
    "This link's lecturer key is not this room's, so this page is a student's: only the "
    "address of the page where the room was started steers it."
)
LECTURER = "cl_lecturer"  # session key of the lecturer's room: (code, token)
STUDENTS = "cl_students"  # session key of the rooms joined: code -> Joined
SHOWN = "cl_shown"  # session key of the projector's last snapshot
NOTE = "cl_digit_note"  # session key of the note under the student's pad
REFRESH_S = 0.5  # how often the projector asks whether the room changed
RESOLUTION = 60  # grid points per side behind the class's points
N_COMPONENTS = 2  # components behind the class's points (presenter mode: the first)
FIGURE_PX = 600
WALL_COLUMNS, WALL_BANDS = 10, 3  # the digit wall shows the latest 10 × 3 digits
LINK_POINTS = 300  # the most points a Contours link holds (kpca_core.drawing.MAX_POINTS)
KERNEL_NAMES = {"rbf": "Gaussian", "laplacian": "Laplacian", "poly": "Polynomial"}
STUDENT_HINT = (
    "**Tap** adds a point, **drag** moves one; **1 2 3** choose the group (colour) of the "
    "next points; **Delete**, **Undo** and **Clear** work on your own points. At most "
    "{cap} points each."
)

R = TypeVar("R")
room_store = shared_store  # the server's store, shared by every session


def attempt(action: Callable[[], R], place=None) -> R | None:
    """Run a store call; a room's refusal becomes a warning on the page (None returned)."""
    try:
        return action()
    except RoomError as error:
        (place or st).warning(str(error), icon=":material/info:")
        return None


def lecturer_room() -> tuple[str, str] | None:
    """The room this session started, (code, token), else the one whose token the address
    gives (a reloaded lecturer's page) if it is the room's; a wrong key leaves the address,
    with :data:`WRONG_KEY` said."""
    code, token = linked_code(), st.query_params.get(LECTURER_KEY)
    if (started := st.session_state.get(LECTURER)) or code is None or token is None:
        return started
    store = room_store()
    try:
        store.check_lecturer(code, token)
        shown = store.snapshot(code)
    except (NotAllowed, RoomGone) as error:
        st.query_params.pop(LECTURER_KEY, None)
        if isinstance(error, NotAllowed):  # a gone room: the student's page says so
            st.warning(WRONG_KEY, icon=":material/key_off:")
        return None
    except RoomError as error:
        st.warning(str(error), icon=":material/cloud_off:")
        return None
    st.session_state[LECTURER] = (code, token)
    st.session_state[SHOWN] = shown  # the controls start as the room is
    return code, token


def start_room() -> None:
    """The "Start a room" button's callback: a new room, its token in the session and address."""
    created = attempt(room_store().create)
    if created is not None:
        st.session_state[LECTURER] = (created.code, created.token)
        st.session_state.pop(SHOWN, None)
        st.query_params.update({ROOM: created.code, LECTURER_KEY: created.token})


def linked_code() -> str | None:
    """The room code the link names (``?room=``), if it is one."""
    return normal_code(st.query_params.get(ROOM))


# --- the lecturer's page ---


def join_link(code: str) -> str:
    """The address a student opens: this page with ``?room=<code>``."""
    url = urlsplit(st.context.url or "http://localhost:8501/class_room")
    return f"{url.scheme}://{url.netloc}{url.path}?{urlencode({ROOM: code})}"


@functools.lru_cache(maxsize=64)
def qr_png(link: str) -> bytes:
    """The join link as a QR code, a PNG drawn here (no network), once per link."""
    buffer = io.BytesIO()
    segno.make(link, error="m").save(buffer, kind="png", scale=10, border=2)
    return buffer.getvalue()


def room_header(code: str, shown: Snapshot) -> None:
    """The room's code, join link, QR code and counts: large until the first student joins."""
    link = join_link(code)
    waiting = shown.n_students == 0
    presenting = presenter_mode()
    size = "5rem" if waiting else "3rem" if presenting else "2.25rem"
    frozen = " — frozen" if shown.frozen else ""
    words, qr = st.columns([4, 1] if waiting else [6, 1], vertical_alignment="center")
    words.markdown(
        '<p style="font-size: 1.25rem; margin: 0">Join the room on '
        f"your phone: scan the code, or open <code>{link}</code></p><p "
        f'style="font-size: {size}; font-weight: 700; margin: 0; line-height: 1.2">'
        f'<span style="letter-spacing: 0.15em">{code}</span> <span class="cl-counts" '
        f'style="font-size: 1.5rem; margin-left: 1rem">{shown.counts()}{frozen}</span></p>',
        unsafe_allow_html=True,
    )
    qr.image(qr_png(link), width=(300 if waiting else 130) if presenting else 160)


def lecturer_controls(code: str, token: str, shown: Snapshot | None) -> None:
    """The sidebar's controls of the room: kernel, freeze, remove, clear, open elsewhere."""
    store = room_store()
    side = st.sidebar
    side.subheader("Room")
    # each control starts as the room is (a reloaded page's too)
    kernel = side.selectbox(
        "Kernel",
        list(KERNELS),
        index=list(KERNELS).index(shown.kernel) if shown is not None else 0,
        format_func=KERNEL_NAMES.get,
        key="cl_kernel",
        help="The kernel of the components behind the class's points.",
    )
    low, high = KERNELS[kernel]
    label, step, default = ("Degree", 1.0, 2.0) if kernel == "poly" else ("Width σ", 0.05, 0.5)
    if shown is not None and shown.kernel == kernel:
        default = shown.width
    width = side.slider(label, low, high, default, step=step, key=f"cl_width_{kernel}")
    if shown is not None and (shown.kernel, shown.width) != (kernel, float(width)):
        attempt(lambda: store.set_kernel(code, token, kernel, width), side)
    frozen = side.toggle(
        "Freeze",
        value=shown is not None and shown.frozen,
        key="cl_freeze",
        help="No student can add or undo while the room is frozen.",
    )
    if shown is not None and shown.frozen != frozen:
        attempt(lambda: store.freeze(code, token, frozen), side)
    item = side.number_input("Contribution number", 1, 10**9, 1, key="cl_item")
    if side.button("Remove this contribution", key="cl_remove", icon=":material/delete:"):
        attempt(lambda: store.remove(code, token, int(item)), side)
    student = side.number_input("Student number", 1, 10**6, 1, key="cl_student")
    if side.button("Remove this student's", key="cl_remove_student", icon=":material/person_off:"):
        attempt(lambda: store.remove_student(code, token, int(student)), side)
    if side.button("Clear the room", key="cl_clear", icon=":material/clear_all:"):
        attempt(lambda: store.clear(code, token), side)
    if shown is not None and len(shown.points):
        side.subheader("Explore the class's points")
        for page, prefix in (("contours", "ct"), ("spectrum", "sp")):
            side.link_button(
                f"Open in {page.capitalize()}",
                points_link(shown, page, prefix),
                key=f"cl_open_{page}",
                icon=":material/open_in_new:",
            )
        x, y = shown.points.T
        side.download_button(
            "Download the points (CSV)",
            pd.DataFrame({"x": x, "y": y, "group": shown.groups}).to_csv(index=False),
            file_name=f"class_{code}_points.csv",
            mime="text/csv",
            key="cl_csv",
            on_click="ignore",
            help="x, y, group: the Contours and Spectrum pages read it as an upload.",
        )
    if side.button("Close the room", key="cl_close", icon=":material/logout:"):
        attempt(lambda: store.close(code, token), side)
        st.session_state.pop(LECTURER, None)
        st.query_params.pop(LECTURER_KEY, None)
        st.query_params.pop(ROOM, None)
        st.rerun()


def as_drawing(shown: Snapshot, keep: slice | np.ndarray = slice(None)) -> Drawing:
    """The room's points (those ``keep`` picks) as the canvas draws them."""
    return from_points(np.column_stack([shown.points, shown.groups])[keep].tolist(), HALF_WIDTH)[0]


def points_link(shown: Snapshot, page: str, prefix: str) -> str:
    """A link to ``page`` with the class's points as its drawing (at most :data:`LINK_POINTS`)."""
    keep = np.unique(np.linspace(0, len(shown.points) - 1, LINK_POINTS).round().astype(int))
    query = {f"{prefix}_data": draw.DRAW, f"{prefix}_draw": encode(as_drawing(shown, keep))}
    return f"/{page}?{urlencode(query)}"


def latest(code: str) -> Snapshot | None:
    """The room now (asked only when its revision moved on); the last picture if the store
    cannot be reached; None once the room is gone."""
    shown: Snapshot | None = st.session_state.get(SHOWN)
    if shown is not None and shown.code != code:
        shown = None
    store = room_store()
    try:
        if shown is None or store.revision(code) != shown.revision:
            shown = store.snapshot(code)
            st.session_state[SHOWN] = shown
    except StoreUnavailable as error:
        st.warning(str(error), icon=":material/cloud_off:")
    except RoomGone as error:
        st.warning(str(error), icon=":material/info:")
        st.session_state.pop(LECTURER, None)
        return None
    return shown


@st.fragment(run_every=REFRESH_S)
def projector(code: str) -> None:
    """The live picture: the room's header, the class's points and the digit wall."""
    shown = latest(code)
    if shown is None:
        return
    # the projector polls twice a second: no "Running…" and "Stop" in its header
    st.html('<style>[data-testid="stStatusWidget"] { visibility: hidden; }</style>')
    room_header(code, shown)
    points, digits = st.columns(2)
    with points:
        class_points(shown)
    with digits:
        digit_wall(shown)
    if not presenter_mode():
        with st.expander("The contributions, by number (to remove one or a student's)"):
            st.dataframe(contributions(shown), hide_index=True, key="cl_table")


def contributions(shown: Snapshot) -> pd.DataFrame:
    """Every contribution: its number, its student's number, what it is."""
    x, y = shown.points.round(3).T
    points = {"number": shown.point_ids, "student": shown.point_students, "kind": "point"}
    digits = {"number": shown.digit_ids, "student": shown.digit_students, "kind": "digit"}
    rows = [pd.DataFrame(points | {"x": x, "y": y, "group": shown.groups}), pd.DataFrame(digits)]
    return pd.concat(rows).sort_values("number", kind="stable")


@guarded(PREFIX, "the class's points")
def class_points(shown: Snapshot) -> None:
    """The class's points over the first kernel principal components of the room's kernel."""
    if len(shown.points) < draw.MIN_POINTS:
        st.info(
            f"The components appear once the class has placed {draw.MIN_POINTS} points.",
            icon=":material/touch_app:",
        )
        return
    # the points keyed by their values (a join redraws nothing)
    digest = hashlib.sha256(shown.points.tobytes() + shown.groups.tobytes()).hexdigest()[:16]
    title = f"The class's {len(shown.points)} points"
    points = PointSet(shown.points, shown.groups, title, ("room", digest))
    parameter = {"degree": int(shown.width)} if shown.kernel == "poly" else {"sigma": shown.width}
    spec = ct.KernelSpec(shown.kernel, **parameter)  # type: ignore[arg-type]
    projector = figure_px() if presenter_mode() else None  # a projector: one large panel
    space = Space(FIGURE_PX, projector=projector, colours=tuple(draw.GROUP_COLOURS))
    n_components = N_COMPONENTS if projector is None else 1
    chosen = Columns(spec, None, (), False, True, n_components, RESOLUTION)
    _, fig = grid(points, chosen, space)
    key = "cl_points_chart" + ("_pj" if presenter_mode() else "")  # a new chart for the screen
    chart(fig, key=key, config=export_config("class_points"))


@memo
def cleaned_digit(
    model_key: tuple, digit: bytes, _model: DigitDenoiser
) -> tuple[np.ndarray, np.ndarray]:
    """One digit cleaned by linear and kernel PCA, computed once per digit and model."""
    x = np.frombuffer(digit, dtype=float).reshape(1, -1)
    linear = _model.reconstruct_linear(x, DEMO_N["linear"])[0]
    kernel = _model.reconstruct_kernel(x, DEMO_N["kernel"])[0][0]
    return linear, kernel


@guarded(PREFIX, "the class's digits")
def digit_wall(shown: Snapshot) -> None:
    """The latest digits, each as written and cleaned by both methods (the Demo's model)."""
    if len(shown.digits) == 0:
        st.info("The class's digits appear here, cleaned up.", icon=":material/draw:")
        return
    from kpca_ui.views import demo

    model, subsets = demo.model_and_digits()
    key = demo.model_key(subsets.source)
    digits = shown.digits[-WALL_COLUMNS * WALL_BANDS :]
    ids = shown.digit_ids[-WALL_COLUMNS * WALL_BANDS :]
    side = subsets.side
    columns = min(WALL_COLUMNS, len(digits))
    bands = -(-len(digits) // columns)
    images = np.full((3 * bands, columns, side**2), -1.0)  # blank cells after the last digit
    n = digits.shape[1] // side  # the model's 8 × 8 fallback digits: 2 × 2 means
    for i, digit in enumerate(digits):
        band, c = divmod(i, columns)
        written = images[3 * band, c] = digit.reshape(side, n, side, n).mean(axis=(1, 3)).ravel()
        images[3 * band + 1 : 3 * band + 3, c] = cleaned_digit(key, written.tobytes(), model)
    fig = digit_figures.mosaic_figure(
        images,
        side=side,
        row_labels=["Written", "Classic", "Kernel"] * bands,
        column_labels=[f"#{i}" for i in ids[:columns]] if bands == 1 else [""] * columns,
        row_height=60,
    )
    key = "cl_digits_chart" + ("_pj" if presenter_mode() else "")  # a new chart for the screen
    chart(presentable(fig, height=fig.layout.height), key=key, config=export_config("class_digits"))
    if len(shown.digits) > len(digits):
        st.caption(f"The latest {len(digits)} of {len(shown.digits)} digits.")


# --- a student's phone ---


def joined(code: str) -> Joined | None:
    """This session's place in the room (joining it the first time)."""
    places: dict = st.session_state.setdefault(STUDENTS, {})
    if code not in places and (place := attempt(lambda: room_store().join(code))) is not None:
        places[code] = place
    return places.get(code)


def sync_points(code: str, student: str) -> str | None:
    """Make the student's points in the room what their canvas shows, as far as the room allows
    (points it lost withdrawn, new ones added); the room's refusal, if any."""
    store = room_store()
    if not draw.take_edit(PREFIX, st.session_state.get(f"{PREFIX}_canvas")):
        return None
    drawing = draw.current_drawing(PREFIX)
    mine = store.mine(code, student)
    missing, refusal = list(drawing.cells), None
    for cell, item in zip(as_drawing(mine).cells, mine.point_ids.tolist(), strict=True):
        if cell in missing:
            missing.remove(cell)
        else:
            try:
                store.undo(code, student, item)
            except RoomError as error:
                refusal = str(error)
    for ix, iy, group in missing if refusal is None else []:
        x, y = Drawing(((ix, iy, group),), drawing.half_width).X[0]
        try:
            store.add_point(code, student, float(x), float(y), group)
        except RoomError as error:
            return str(error)
    return refusal


def student_button(label: str, act: Callable[[], object], **options: Any) -> None:
    """A student's button doing ``act()``; its refusal (the room's, or an empty pad's
    ValueError) becomes the note under the pad."""

    def click() -> None:
        try:
            act()
        except (ValueError, RoomError) as error:
            st.session_state[NOTE] = str(error)

    st.button(label, on_click=click, **options)


def send_digit(code: str, student: str) -> None:
    """The "Send this digit" button's action: the pad's digit into the room, and a clean pad."""
    room_store().add_digit(code, student, to_digit(pad.current_writing(PREFIX)))
    st.session_state[NOTE] = "Sent: your digit is on the projector."
    k = pad.keys(PREFIX)
    st.session_state[k["writing"]] = Handwriting()
    st.session_state[k["rev"]] = st.session_state.get(k["rev"], 0) + 1


def student_view(code: str) -> None:
    """A student's phone: their counts, the canvas for points, the pad for digits, undo."""
    if (place := joined(code)) is None:
        return
    student = place.student
    try:
        refusal = sync_points(code, student)
        mine = room_store().mine(code, student)
    except RoomError as error:
        st.warning(str(error), icon=":material/info:")
        return
    if sorted(draw.current_drawing(PREFIX).cells) != sorted(as_drawing(mine).cells):
        # the canvas shows what the room holds
        draw.replace_drawing(PREFIX, as_drawing(mine), [refusal] if refusal else [])
    limits = room_store().limits
    st.markdown(
        f"You are student {place.number} · your points: **{len(mine.points)} of {limits.points}** "
        f"· digits: **{len(mine.digits)} of {limits.digits}**"
        + (" · the room is frozen" if mine.frozen else "")
    )
    student_button(
        "Undo my last",
        lambda: room_store().undo(code, student),
        key="cl_undo",
        icon=":material/undo:",
        disabled=not (len(mine.points) or len(mine.digits)),
    )
    points_tab, digit_tab = st.tabs(["Add points", "Send a digit"])
    with points_tab:
        draw.canvas(PREFIX, None, can_copy=False, hint=STUDENT_HINT.format(cap=limits.points))
    with digit_tab:
        pad.written(PREFIX)
        pad.pad(PREFIX)
        student_button(
            "Send this digit",
            lambda: send_digit(code, student),
            key="cl_send",
            icon=":material/send:",
            type="primary",
        )
        if note := st.session_state.pop(NOTE, None):
            st.info(note, icon=":material/info:")
