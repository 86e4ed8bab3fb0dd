"""The Class page's work: a room's projector and lecturer's controls, and a student's phone.

The lecturer's token stays in their session and in a cookie of their browser (so a reload
keeps control), never in the address: the projected page, ``?room=<code>``, carries no
secret, and the lecturer's controls are in a popover the room sees only when it is opened.
A student's secret id is kept the same way, so a reload keeps their place, caps and undo.
Students add points on the canvas (:mod:`kpca_ui.draw`) and digits from the pad
(:mod:`kpca_ui.pad`); the join link and QR code use an address phones can reach
(:func:`join_link`).
"""

from __future__ import annotations

import functools
import hashlib
import ipaddress
import os
import socket
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
from kpca_core.figures.contours import describe_contours
from kpca_core.figures.style import export_config
from kpca_core.handwriting import Handwriting, to_digit
from kpca_ui import draw, pad
from kpca_ui.cache import memo
from kpca_ui.chart import chart
from kpca_ui.explain import text
from kpca_ui.points import PointSet
from kpca_ui.presenter import PAGE_PX, figure_px, presentable, presenter_mode, room_scale
from kpca_ui.rooms import store as rooms
from kpca_ui.safety import guarded
from kpca_ui.settings import Setting, Settings
from kpca_ui.shell import REPLICA_ENV
from kpca_ui.views.contours import KERNELS, Columns
from kpca_ui.views.contours_grid import Space, grid

PREFIX = "cl"
ROOM = "room"  # the link's one parameter: the room's code (never a secret)
SETTINGS = Settings(
    PREFIX, "class_room", Setting(ROOM, "Room", "link", longest=3 * rooms.CODE_LENGTH)
)
PUBLIC_URL_ENV = "KPCA_PUBLIC_URL"  # the app's address as phones reach it (behind a balancer)
LECTURER = "cl_lecturer"  # session key of the lecturer's room: (code, token)
STUDENTS = "cl_students"  # session key of the rooms joined: code -> rooms.Joined
SHOWN = "cl_shown"  # session key of the projector's last snapshot
NOTE = "cl_digit_note"  # session key of the note under the student's pad
LECTURER_COOKIE, STUDENT_COOKIE = "kpca_lecturer_", "kpca_student_"  # + the room's code
REFRESH_S = 0.5  # how often the projector asks whether the room changed
JOIN_RETRY_S = 3.0  # how often a student's page asks again to join a room many join at once
RESOLUTION = 60  # grid points per side behind the class's points
N_COMPONENTS = 2  # components behind the class's points (presenter mode: the first)
FIGURE_PX = 600
PROJECTOR_POINTS = 500  # the most points the projector fits (a sample of the room's)
WALL_COLUMNS, WALL_BANDS = 10, 3  # the digit wall shows the latest 10 × 3 digits
WALL_ROW_PX = 60  # a row of the digit wall's on a laptop
HEADER_PX = 280  # presenter mode: the page above the figures (link, code and counts, QR code)
PENDING_SHOWN = 6  # the waiting digits the lecturer's popover shows at a time
LINK_POINTS = 300  # the most points a Contours link holds (kpca_core.drawing.MAX_POINTS)
STUDENT_HINT = (
    "**Tap** adds a point, **drag** moves one; **1 2 3** choose the group (colour) of the "
    "next points; **Delete**, **Undo** and **Clear** work on your own points."
)
SWITCH_HELP = {  # what the lecturer's buttons that turn a setting of the room on and off do
    "cl_freeze": "No student can add or undo while the room is frozen.",
    "cl_lock": "Nobody new can join; the students in the room carry on.",
    "cl_moderate": "A student's digit reaches the projector only once you accept it here.",
}
STUDENT_LOST = text("cl_student_lost")
CONTROLS_HELP = "The room's controls, shown only when opened (the projector shows them then)."
UNREACHABLE = text("cl_unreachable", env=PUBLIC_URL_ENV)

_COOKIE = st.components.v2.component(
    "kpca_ui.class_cookie",
    js="""
export default function ({ data }) {
  document.cookie = `${data.name}=${data.value}; Max-Age=${data.age}; Path=/; SameSite=Strict`;
}
""",
)

R = TypeVar("R")
room_store = rooms.shared_store  # the server's store, shared by every session


def attempt(action: Callable[[], R]) -> R | None:
    """Run a store call; a room's refusal becomes a warning on the page (None returned)."""
    try:
        return action()
    except rooms.RoomError as error:
        st.warning(str(error), icon=":material/info:")
        return None


def cookie(name: str) -> str | None:
    """The browser's cookie ``name`` as it opened this session (``st.context.cookies``; a
    session with no browser, as in a test, has none)."""
    value = st.context.cookies.get(name)
    return value if isinstance(value, str) else None


def keep_cookie(name: str, value: str) -> None:
    """Set the browser's cookie ``name`` for as long as an idle room lives (a small inline
    component; the values are tokens: letters, digits, ``-``, ``_``, ``.``)."""
    age = round(room_store().limits.idle_s)
    _COOKIE(key=f"cl_cookie_{name}", data={"name": name, "value": value, "age": age})


def client() -> str:
    """Who starts a room, as rooms are counted per client: the connection's address; behind
    the balancer (a replica, ``KPCA_REPLICA`` set), the one it forwards (``deploy/haproxy.cfg``,
    the last of ``X-Forwarded-For``)."""
    address = st.context.ip_address  # None on localhost (a test: no string at all)
    if os.environ.get(REPLICA_ENV):
        forwarded = st.context.headers.get("X-Forwarded-For")
        address = forwarded.rsplit(",", 1)[-1].strip() if isinstance(forwarded, str) else None
    return address if isinstance(address, str) and address else "local"


def lecturer_room() -> tuple[str, str] | None:
    """The room this session started, (code, token), else the linked room whose token the
    browser's cookie holds (a reloaded lecturer's page), if it is the room's."""
    code = linked_code()
    if (started := st.session_state.get(LECTURER)) or code is None:
        return started
    if (token := cookie(LECTURER_COOKIE + code)) is None:
        return None
    try:
        room_store().check_lecturer(code, token)
    except (rooms.NotAllowed, rooms.RoomGone):  # an old room's cookie: the page is a student's
        return None
    except rooms.RoomError as error:
        st.warning(str(error), icon=":material/cloud_off:")
        return None
    st.session_state[LECTURER] = (code, token)
    st.session_state.pop(SHOWN, None)  # the controls start as the room is
    return code, token


def start_room() -> None:
    """The "Start a room" button's callback: a new room, its token in the session (and the
    browser's cookie, kept by the page), its code alone in the address."""
    created = attempt(lambda: room_store().create(client()))
    if created is not None:
        st.session_state[LECTURER] = (created.code, created.token)
        st.session_state.pop(SHOWN, None)
        st.query_params[ROOM] = created.code


def linked_code() -> str | None:
    """The room code the link names (``?room=``), if it is one."""
    return rooms.normal_code(st.query_params.get(ROOM))


# --- the join link ---


def network_address() -> str | None:
    """This computer's address on its network (the interface of its default route), or None
    if it has none but loopback (a UDP socket's connect sends nothing)."""
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        try:
            probe.connect(("192.0.2.1", 9))  # TEST-NET-1: nothing is sent
            address = probe.getsockname()[0]
        except OSError:
            return None
    return None if ipaddress.ip_address(address).is_loopback else address


def is_loopback(host: str) -> bool:
    """Whether ``host`` names this computer only (``localhost``, 127.0.0.0/8, ::1)."""
    if host == "localhost" or host.endswith(".localhost"):
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def join_link(code: str) -> tuple[str, bool]:
    """The address a student opens, this page with ``?room=<code>``, and whether phones can
    reach it: under :data:`PUBLIC_URL_ENV` if set; else the browser's address, unless it names
    this computer itself (``localhost``), then this computer's network address, same port."""
    query = urlencode({ROOM: code})
    if public := os.environ.get(PUBLIC_URL_ENV):
        return f"{public.rstrip('/')}/class_room?{query}", True
    url = urlsplit(st.context.url or "http://localhost:8501/class_room")
    netloc, reachable = url.netloc, not is_loopback(url.hostname or "localhost")
    bound = st.get_option("server.address")  # a server listening on loopback only: none
    if not reachable and not (bound and is_loopback(bound)) and (address := network_address()):
        netloc, reachable = address + (f":{url.port}" if url.port else ""), True
    return f"{url.scheme}://{netloc}{url.path}?{query}", reachable


@functools.lru_cache(maxsize=64)
def qr_html(link: str, px: int) -> str:
    """The join link as a QR code, a PNG drawn here (no network) once per link and size, in an
    image whose text alternative is the join address."""
    data = segno.make(link, error="m").png_data_uri(scale=10, border=2)
    return (
        f'<img src="{data}" width="{px}" height="{px}" alt="QR code of the join address, {link}">'
    )


# --- the lecturer's page ---


def room_header(code: str, token: str, shown: rooms.Snapshot) -> None:
    """The room's code, join link, QR code and counts (large until the first student joins),
    and beside them the lecturer's controls, in a popover closed until opened (first: the words
    say what they left)."""
    link, reachable = join_link(code)
    waiting = shown.n_students == 0
    presenting = presenter_mode()
    words, qr = st.columns([4, 1] if waiting else [6, 1], vertical_alignment="center")
    with qr, st.popover("Lecturer", icon=":material/tune:", key="cl_controls", help=CONTROLS_HELP):
        lecturer_controls(code, token, shown)
    shown = latest(code) or shown
    size = "5rem" if waiting else "3rem" if presenting else "2.25rem"
    marks = [word for word, on in (("frozen", shown.frozen), ("locked", shown.locked)) if on]
    words.markdown(
        '<p style="font-size: 1.25rem; margin: 0">Join the room on '
        f"your phone: scan the code, or open <code>{link}</code></p><p "
        f'style="font-size: {size}; font-weight: 700; margin: 0; line-height: 1.2">'
        f'<span style="letter-spacing: 0.15em">{code}</span> <span class="cl-counts" '
        'style="font-size: 1.5rem; margin-left: 1rem; white-space: nowrap">'
        f"{shown.counts()}{''.join(f' — {mark}' for mark in marks)}</span></p>",
        unsafe_allow_html=True,
    )
    if not reachable:
        words.warning(UNREACHABLE, icon=":material/wifi_off:")
    px = (300 if waiting else 130) if presenting else 160
    qr.markdown(qr_html(link, px), unsafe_allow_html=True)


def lecturer_controls(code: str, token: str, shown: rooms.Snapshot) -> None:
    """The room's controls: kernel, freeze, lock, moderation, removals, clear, elsewhere."""
    store = room_store()
    # each control starts as the room is (a reloaded page's too)
    kernel = st.selectbox(
        "Kernel",
        list(rooms.KERNELS),
        index=list(rooms.KERNELS).index(shown.kernel),
        format_func=KERNELS.get,  # as the Contours view names them
        key="cl_kernel",
        help="The kernel of the components behind the class's points.",
    )
    low, high = rooms.KERNELS[kernel]
    label, step, default = ("Degree", 1.0, 2.0) if kernel == "poly" else ("Width σ", 0.05, 0.5)
    value = shown.width if shown.kernel == kernel else default
    width = st.slider(label, low, high, value, step=step, key=f"cl_width_{kernel}")
    if (shown.kernel, shown.width) != (kernel, float(width)):
        attempt(lambda: store.set_kernel(code, token, kernel, width))
    switches = (  # buttons, not toggles: a toggle kept in step with the room by the page raced
        # the projector's runs, twice a second, and could undo a change the room had just taken
        ("cl_freeze", ("Freeze", "Unfreeze"), shown.frozen, store.freeze),
        ("cl_lock", ("Lock", "Unlock"), shown.locked, store.lock),
        ("cl_moderate", ("Moderate digits", "Stop moderating"), shown.moderated, store.moderate),
    )
    for key, labels, now, act in switches:
        if st.button(labels[now], key=key, help=SWITCH_HELP[key]):
            attempt(functools.partial(act, code, token, not now))
    if shown.moderated:
        pending_digits(code, token, shown)
    recent = rooms.wait_words(store.limits.recent_s)
    if st.button(
        f"Lock, and remove everyone who joined in the last {recent}",
        key="cl_remove_recent",
        icon=":material/group_remove:",
        help="With all their points and digits: one click against a flood of scripted joins.",
    ):
        attempt(lambda: store.lock(code, token))
        removed = attempt(lambda: store.remove_recent(code, token))
        if removed is not None:
            st.toast(f"Locked; removed {removed} student{'' if removed == 1 else 's'}.")
    student = st.number_input("Student number", 1, 10**6, 1, key="cl_student")
    if st.button("Remove this student", key="cl_remove_student", icon=":material/person_off:"):
        attempt(lambda: store.remove_student(code, token, int(student)))
    digit = st.number_input("Digit", 1, 10**6, 1, key="cl_digit", help="D1, D2, … on the wall")
    remove = st.button("Remove this digit", key="cl_remove_digit", icon=":material/delete:")
    if remove and int(digit) <= len(shown.digit_ids):
        attempt(lambda: store.remove(code, token, int(shown.digit_ids[int(digit) - 1])))
    if st.button("Clear the room", key="cl_clear", icon=":material/clear_all:"):
        attempt(lambda: store.clear(code, token))
    if len(shown.points):
        explore(code, shown)
    if st.button("Close the room", key="cl_close", icon=":material/logout:"):
        attempt(lambda: store.close(code, token))
        st.session_state.pop(LECTURER, None)
        st.query_params.pop(ROOM, None)
        st.rerun()


def pending_digits(code: str, token: str, shown: rooms.Snapshot) -> None:
    """The digits waiting for the lecturer, oldest first, each with Accept and Reject."""
    waiting = np.flatnonzero(shown.digit_pending)
    st.caption(f"{len(waiting)} digit{'' if len(waiting) == 1 else 's'} waiting.")
    for index in waiting[:PENDING_SHOWN]:
        item = int(shown.digit_ids[index])
        picture, accept, reject = st.columns([1, 2, 2], vertical_alignment="center")
        picture.image((1 - shown.digits[index]) / 2, width=48, clamp=True)
        if accept.button("Accept", key=f"cl_accept_{item}", icon=":material/check:"):
            attempt(lambda item=item: room_store().accept(code, token, item))
        if reject.button("Reject", key=f"cl_reject_{item}", icon=":material/close:"):
            attempt(lambda item=item: room_store().remove(code, token, item))


def explore(code: str, shown: rooms.Snapshot) -> None:
    """Links to Contours and Spectrum with the class's points, and their CSV."""
    for page, prefix in (("contours", "ct"), ("spectrum", "sp")):
        st.link_button(
            f"Open in {page.capitalize()}",
            points_link(shown, page, prefix),
            key=f"cl_open_{page}",
            icon=":material/open_in_new:",
        )
    x, y = shown.points.T
    st.download_button(
        "Download the points (CSV)",
        pd.DataFrame({"x": x, "y": y, "group": shown.groups}).to_csv(index=False),
        file_name=f"class_{code}_points.csv",
        mime="text/csv",
        key="cl_csv",
        on_click="ignore",
        help="x, y, group: the Contours and Spectrum pages read it as an upload.",
    )


def as_drawing(shown: rooms.Snapshot, keep: slice | np.ndarray = slice(None)) -> Drawing:
    """The room's points (those ``keep`` picks) as the canvas draws them."""
    placed = np.column_stack([shown.points, shown.groups])[keep]
    return from_points(placed.tolist(), rooms.HALF_WIDTH)[0]


def points_link(shown: rooms.Snapshot, page: str, prefix: str) -> str:
    """A link to ``page`` with the class's points as its drawing (at most :data:`LINK_POINTS`)."""
    keep = np.unique(np.linspace(0, len(shown.points) - 1, LINK_POINTS).round().astype(int))
    query = {f"{prefix}_data": draw.DRAW, f"{prefix}_draw": encode(as_drawing(shown, keep))}
    return f"/{page}?{urlencode(query)}"


def latest(code: str) -> rooms.Snapshot | None:
    """The room now, read only when its revision moved on from the session's last picture; that
    picture if the store cannot be reached; None once the room is gone."""
    shown = st.session_state.get(SHOWN)
    shown = shown if getattr(shown, "code", None) == code else None
    try:
        if shown is None or room_store().revision(code) != shown.revision:
            shown = st.session_state[SHOWN] = room_store().snapshot(code)
    except rooms.StoreUnavailable as error:
        st.warning(str(error), icon=":material/cloud_off:")
    except rooms.RoomGone:  # though the lecturer did not close it: say why, offer a new room
        idle = rooms.wait_words(room_store().limits.idle_s)
        held = "" if shown is None else f" It held {shown.counts()}."
        st.error(text("cl_room_gone", idle=idle) + held, icon=":material/cloud_off:")
        st.button(
            "Start a new room", key="cl_restart", on_click=start_room, icon=":material/groups:"
        )
        return None
    return shown


@st.fragment(run_every=REFRESH_S)
def projector(code: str, token: str) -> None:
    """The live picture: the lecturer's controls (closed until opened, as current as the
    picture), the room's header, the class's points and the digit wall."""
    shown = latest(code)
    if shown is None:
        return
    # the projector polls twice a second: no "Running…" and "Stop" in its header
    st.html('<style>[data-testid="stStatusWidget"] { visibility: hidden; }</style>')
    room_header(code, token, shown)
    points, digits = st.columns(2)
    with points:
        class_points(shown)
    with digits:
        digit_wall(shown)
    if not presenter_mode():
        with st.expander("The contributions, by student (to remove a student's)"):
            st.dataframe(contributions(shown), hide_index=True, key="cl_table")


def contributions(shown: rooms.Snapshot) -> pd.DataFrame:
    """Every contribution: its student's number, what it is (points P1…, digits D1…)."""
    x, y = shown.points.round(3).T
    points = {
        "number": shown.point_ids,
        "name": [f"P{i}" for i in range(1, len(shown.points) + 1)],
        "student": shown.point_students,
        "kind": "point",
    }
    digits = {
        "number": shown.digit_ids,
        "name": [f"D{i}" for i in range(1, len(shown.digits) + 1)],
        "student": shown.digit_students,
        "kind": "digit",
        "waiting": shown.digit_pending & shown.moderated,
    }
    rows = [pd.DataFrame(points | {"x": x, "y": y, "group": shown.groups}), pd.DataFrame(digits)]
    table = pd.concat(rows).sort_values("number", kind="stable")
    return table.drop(columns="number")


def screen_px() -> tuple[int, int]:
    """In presenter mode the page's width and the figures' height below the room's header,
    on a 1280 × 720 screen (drawn :func:`room_scale` times larger on the one measured)."""
    return PAGE_PX, max(figure_px(), round(PAGE_PX * 9 / 16) - HEADER_PX)


def sample(shown: rooms.Snapshot) -> np.ndarray:
    """Which points the projector fits: all, or :data:`PROJECTOR_POINTS` of them, a random
    sample fixed by the points' numbers (one more point changes it by at most one)."""
    if len(shown.points) <= PROJECTOR_POINTS:
        return np.arange(len(shown.points))
    rank = (shown.point_ids.astype(np.uint64) * np.uint64(2654435761)) % np.uint64(2**32)
    return np.sort(np.argsort(rank, kind="stable")[:PROJECTOR_POINTS])


@guarded(PREFIX, "the class's points")
def class_points(shown: rooms.Snapshot) -> None:
    """The class's points (at most :data:`PROJECTOR_POINTS`, :func:`sample`) over the first
    kernel principal components of the room's kernel."""
    if len(shown.points) < draw.MIN_POINTS:
        st.info(
            f"The components appear once the class has placed {draw.MIN_POINTS} points.",
            icon=":material/touch_app:",
        )
        return
    keep = sample(shown)
    X, groups = shown.points[keep], shown.groups[keep]
    # the points keyed by their values (a join redraws nothing)
    digest = hashlib.sha256(X.tobytes() + groups.tobytes()).hexdigest()[:16]
    title = f"The class's {len(X)} points"
    if len(keep) < len(shown.points):
        title = f"A sample of {len(X)} of the class's {len(shown.points)} points"
    points = PointSet(X, groups, title, ("room", digest))
    # the room's one parameter is its kernel's first (σ, or the polynomial's degree)
    spec = ct.KernelSpec(shown.kernel).with_value(ct.SWEEPABLE[shown.kernel][0], shown.width)
    colours = tuple(draw.GROUP_COLOURS)
    space, n_components = Space(FIGURE_PX, colours=colours), N_COMPONENTS
    if presenter_mode():  # a projector: one panel, half the screen's width
        width, height = screen_px()
        space = Space(width // 2, height, height, colours, room=room_scale())
        n_components = 1
    chosen = Columns(spec, None, (), False, True, n_components, RESOLUTION)
    sweep, fig = grid(points, chosen, space)
    key = "cl_points_chart" + ("_pj" if presenter_mode() else "")  # a new chart for the screen
    students = f"{shown.n_students} student{'' if shown.n_students == 1 else 's'}"
    said = describe_contours(sweep, title=f"{title}, in a class of {students}")
    chart(fig, key=key, config=export_config("class_points"), description=said)
    if len(keep) < len(shown.points):
        st.caption(f"{title}, so that the figure keeps up; every point is in the CSV.")


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
def digit_wall(shown: rooms.Snapshot) -> None:
    """The latest digits shown (in a moderated room, accepted), each as written and cleaned by
    both methods (the Demo's model), named D1, D2, … in the order they came."""
    showing = np.flatnonzero(shown.shown_digits())
    waiting = len(shown.digits) - len(showing)
    if len(showing) == 0:
        words = "The class's digits appear here, cleaned up"
        st.info(words + (f" ({waiting} waiting)." if waiting else "."), icon=":material/draw:")
        return
    from kpca_ui.views import demo

    model, subsets = demo.model_and_digits()
    key = demo.model_key(subsets.source)
    latest_shown = showing[-WALL_COLUMNS * WALL_BANDS :]
    digits = shown.digits[latest_shown]
    side = subsets.side
    columns = min(WALL_COLUMNS, len(digits))
    bands = -(-len(digits) // columns)
    images = np.full((3 * bands, columns, side**2), -1.0)  # blank cells after the last digit
    n = digits.shape[1] // side  # the model's 8 × 8 fallback digits: 2 × 2 means
    for i, digit in enumerate(digits):
        band, c = divmod(i, columns)
        written = images[3 * band, c] = digit.reshape(side, n, side, n).mean(axis=(1, 3)).ravel()
        images[3 * band + 1 : 3 * band + 3, c] = cleaned_digit(key, written.tobytes(), model)
    names = [f"D{i + 1}" for i in latest_shown[:columns]]
    row_px = WALL_ROW_PX
    if presenter_mode():  # as large as half the screen holds
        width, height = screen_px()
        row_px = min((width // 2 - 80) // columns, height // (3 * bands))
    fig = digit_figures.mosaic_figure(
        images,
        side=side,
        row_labels=["Written", "Classic", "Kernel"] * bands,
        column_labels=names if bands == 1 else [""] * columns,
        row_height=row_px,
    )
    key = "cl_digits_chart" + ("_pj" if presenter_mode() else "")  # a new chart for the screen
    said = digit_figures.describe_wall(images, [f"D{i + 1}" for i in latest_shown], of=len(showing))
    config = export_config("class_digits")
    chart(presentable(fig, height=fig.layout.height), key=key, config=config, description=said)
    notes = []
    if len(showing) > len(digits):
        notes.append(f"The latest {len(digits)} of {len(showing)} digits.")
    if waiting:
        notes.append(f"{waiting} waiting for the lecturer.")
    if notes:
        st.caption(" ".join(notes))


# --- a student's phone ---


def joined(code: str) -> rooms.Joined | None:
    """This session's place in the room: the one it has, else the one the browser's cookie
    keeps (a reloaded phone), else a new one (joining for the first time); the refusal said."""
    places: dict = st.session_state.setdefault(STUDENTS, {})
    if code in places:
        return places[code]
    number, _, student = (cookie(STUDENT_COOKIE + code) or "").partition(".")
    try:
        if number.isdigit() and student:
            room_store().mine(code, student)  # still in the room
            places[code] = rooms.Joined(student, int(number))
        else:
            places[code] = room_store().join(code)
    except rooms.NotAllowed:  # an old room's cookie: join anew
        places[code] = attempt(lambda: room_store().join(code))
    except rooms.RateLimited as refused:
        st.info(str(refused), icon=":material/hourglass_top:")
        waiting_to_join(code)
    except rooms.RoomError as error:
        st.warning(str(error), icon=":material/info:")
    if places.get(code) is None:
        places.pop(code, None)
    return places.get(code)


@st.fragment(run_every=JOIN_RETRY_S)
def waiting_to_join(code: str) -> None:
    """Ask again to join (many join at once); the whole page once in."""
    try:
        st.session_state.setdefault(STUDENTS, {})[code] = room_store().join(code)
    except rooms.RoomError:
        return
    st.rerun()


def sync_points(code: str, student: str) -> str | None:
    """Add the canvas's new points to the room, and withdraw those the student removed on it;
    the room's refusal, if any.

    The canvas sends its whole drawing.  A tap adds one point, a drag moves one, Delete
    removes one, Clear removes all: a drawing that lacks more of the student's points than
    that is a canvas that did not hold them (a stale state, a reload), and withdraws none.
    """
    store = room_store()
    if not draw.take_edit(PREFIX, st.session_state.get(f"{PREFIX}_canvas")):
        return None
    drawing = draw.current_drawing(PREFIX)
    mine = store.mine(code, student)
    new, gone = list(drawing.cells), []
    for cell, item in zip(as_drawing(mine).cells, mine.point_ids.tolist(), strict=True):
        if cell in new:
            new.remove(cell)
        else:
            gone.append(item)
    if len(gone) > 1 and len(drawing):  # not a Clear: nothing the student did
        gone = []
    refusal = None
    for item in gone:
        try:
            store.undo(code, student, item)
        except rooms.RoomError as error:
            refusal = str(error)
    for ix, iy, group in new if refusal is None else []:
        x, y = Drawing(((ix, iy, group),), drawing.half_width).X[0]
        try:
            store.add_point(code, student, float(x), float(y), group)
        except rooms.RoomError as error:
            return str(error)
    return refusal


def student_button(label: str, act: Callable[[], object], **options: Any) -> None:
    """A student's button doing ``act()``; its refusal (the room's, or an empty pad's
    ValueError) becomes the note under the pad."""

    def click() -> None:
        try:
            act()
        except (ValueError, rooms.RoomError) as error:
            st.session_state[NOTE] = str(error)

    st.button(label, on_click=click, **options)


def send_digit(code: str, student: str) -> None:
    """The "Send this digit" button's action: the pad's digit into the room, and a clean pad."""
    room_store().add_digit(code, student, to_digit(pad.current_writing(PREFIX)))
    moderated = room_store().mine(code, student).moderated
    where = "waits for the lecturer to show it" if moderated else "is on the projector"
    st.session_state[NOTE] = f"Sent: your digit {where}."
    k = pad.keys(PREFIX)
    st.session_state[k["writing"]] = Handwriting()
    st.session_state[k["rev"]] = st.session_state.get(k["rev"], 0) + 1


def student_view(code: str) -> None:
    """A student's phone: their counts, the canvas for points, the pad for digits, undo."""
    if (place := joined(code)) is None:
        return
    student = place.student
    keep_cookie(STUDENT_COOKIE + code, f"{place.number}.{student}")
    try:
        refusal = sync_points(code, student)
        mine = room_store().mine(code, student)
    except rooms.RoomError as error:  # removed, or the room gone (closed, or lost by the store)
        if gone := isinstance(error, rooms.RoomGone):
            st.session_state.get(STUDENTS, {}).pop(code, None)
        icon = "cloud_off" if gone else "person_off" if isinstance(error, rooms.Removed) else "info"
        st.warning(STUDENT_LOST if gone else str(error), icon=f":material/{icon}:")
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
        draw.canvas(PREFIX, None, can_copy=False, counted=False, hint=STUDENT_HINT)
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
