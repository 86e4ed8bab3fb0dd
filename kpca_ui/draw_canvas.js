// The drawing canvas of kpca_ui/draw.py (a Streamlit components v2 module, after canvas.js).
// data: {points: [[x, y, group]], half, rev, seq, max, colours, background: {image, lines} |
// null, copyLabel (null: no copy button), counted (whether the status counts the points),
// maxPx, prefix, behind (what the background shows, "kPC 1 of degree 2")}.  Every edit sends
// the whole drawing as the state value "edit": {seq, half, points} (or {seq, copy: true}).  Each edit and each move of a dragged
// point is also dispatched on the document as "kpca-drawing", {prefix, seq, half, points,
// waitFor} (seq null for a move not sent), for a chart that follows the drawing (chart.js).

const HIT_PX = 18; // a point is grabbed within this many CSS pixels: big enough for a projector
const DOT_PX = 7;
const HOLD_MS = 150; // a finished edit waits at most this long for the figures handed to waitFor
const DRAG_SEND_MS = 300; // while dragging, the drawing is sent at most this often
const KEY_STEP = 0.02; // the keyboard cursor moves by this share of the side (shift: 5 times)
const FIT_LEAST_PX = 240; // a canvas fitted to the screen's height is at least this wide
const FOOT_PX = 32; // the status line under the canvas, and a margin
const PHONE = "(max-width: 640px)"; // a phone's page (kpca_ui/presenter.py, PAGE_CSS)

function build(root) {
  const html = `
    <div class="bar" role="toolbar" aria-label="Drawing tools">
      <span class="label">Next points:</span>
      <button type="button" data-group="1" title="Group 1 (key 1)"><span class="mark" aria-hidden="true">●</span> 1</button>
      <button type="button" data-group="2" title="Group 2 (key 2, or shift-click)"><span class="mark" aria-hidden="true">■</span> 2</button>
      <button type="button" data-group="3" title="Group 3 (key 3)"><span class="mark" aria-hidden="true">◆</span> 3</button>
      <button type="button" data-mode="delete" title="Delete mode: a click removes a point (key D, or alt-click)">Delete</button>
      <button type="button" data-act="undo" title="Undo (key U or Ctrl+Z)">Undo</button>
      <button type="button" data-act="clear" title="Remove every point">Clear</button>
      <button type="button" data-act="copy"></button>
    </div>
    <canvas class="plane" tabindex="0" role="application"
      aria-label="Drawing canvas. Click to add a point, drag a point to move it. Keyboard: arrows move the cursor, which says where it is, the value of the colours there and the nearest point; Enter adds a point or picks up the point under the cursor and puts it down again, Delete removes it, 1 2 3 choose the group, U undoes."></canvas>
    <div class="foot"><span class="status" aria-live="polite"></span>
      <span class="where" aria-live="polite"></span></div>`;
  const state = boxed(root, "kd", html, {
    points: [], history: [], group: 1, deleting: false, drag: null, cursor: null, carried: null,
    sent: null, image: null, imageSource: null, lines: null, frame: 0, lastDragSend: 0,
    shades: null, where: null,
  });
  // the page above the canvas laid out anew (a notice, a folded control): fit it again
  const page = document.querySelector('[data-testid="stMainBlockContainer"]');
  new ResizeObserver(() => fit(state)).observe(page ?? document.body);
  window.addEventListener("resize", () => fit(state));
  return state;
}

// The canvas as large as fits between its place on the page and the screen's foot, at
// most data.maxPx; below FIT_LEAST_PX at full size (it is scrolled to anyway).  A phone
// stacks the figure under the canvas: there it keeps the column's width, for the finger.
function fit(state) {
  if (!state.data) return;
  if (window.matchMedia(PHONE).matches) {
    state.canvas.style.maxWidth = "";
    return;
  }
  let top = state.canvas.getBoundingClientRect().top + window.scrollY;
  for (let e = state.box; e; e = e.parentElement ?? e.getRootNode().host) top += e.scrollTop || 0;
  const room = Math.floor(window.innerHeight - top - FOOT_PX);
  const fitted = room >= FIT_LEAST_PX ? Math.min(room, state.data.maxPx) : state.data.maxPx;
  state.canvas.style.maxWidth = `${fitted}px`;
}

function toPlane(state, event) {
  const rect = state.canvas.getBoundingClientRect();
  const h = state.data.half;
  return [
    ((event.clientX - rect.left) / rect.width) * 2 * h - h,
    h - ((event.clientY - rect.top) / rect.height) * 2 * h,
  ];
}

function pxPerUnit(state) {
  return state.canvas.getBoundingClientRect().width / (2 * state.data.half);
}

// The index of the point nearest (x, y) within HIT_PX (the last drawn, on top, of equals), or -1.
function nearest(state, x, y) {
  const distances = state.points.map(([px, py]) => Math.hypot(px - x, py - y));
  const best = distances.lastIndexOf(Math.min(...distances));
  return best >= 0 && distances[best] <= HIT_PX / pxPerUnit(state) ? best : -1;
}

function clamp(state, value) {
  return Math.max(-state.data.half, Math.min(state.data.half, value));
}

const copy = (points) => points.map((p) => p.slice());

function remember(state) {
  state.history.push(copy(state.points));
  if (state.history.length > 200) state.history.shift();
}

function send(state, { extra = {}, told = false } = {}) {
  // the drawing to the page's run; told first, it waits for the figures asked for of it, so
  // that the page's run does not compete with them for the server
  const seq = token(state);
  state.sent = seq;
  const edit = { seq, half: state.data.half, points: copy(state.points), ...extra };
  const asked = [];
  if (told) tell(state, seq, (figure) => asked.push(figure));
  draw(state);
  const post = () => {
    if (state.sent === seq) state.setStateValue("edit", edit); // else a newer edit goes
  };
  if (!asked.length) return post();
  const held = new Promise((resolve) => setTimeout(resolve, HOLD_MS));
  Promise.race([Promise.allSettled(asked), held]).then(post);
}

function tell(state, seq, waitFor) {
  const { prefix, half } = state.data;
  const detail = { prefix, seq, half, waitFor, points: copy(state.points) };
  document.dispatchEvent(new CustomEvent("kpca-drawing", { detail }));
}

function edit(state, change) {
  remember(state);
  change();
  send(state, { told: true });
}

function add(state, x, y, group) {
  if (state.points.length >= state.data.max) {
    state.status.textContent = `The canvas holds at most ${state.data.max} points.`;
  } else edit(state, () => state.points.push([clamp(state, x), clamp(state, y), group]));
}

function remove(state, i) {
  if (i >= 0) edit(state, () => state.points.splice(i, 1));
}

function undo(state) {
  if (!state.history.length) return;
  state.points = state.history.pop();
  send(state, { told: true });
}

function bind(state) {
  const { canvas, box } = state;
  box.querySelectorAll("[data-group]").forEach((button) => {
    button.addEventListener("click", () => {
      state.group = Number(button.dataset.group);
      state.deleting = false;
      draw(state);
    });
  });
  box.querySelector("[data-mode=delete]").addEventListener("click", () => {
    state.deleting = !state.deleting;
    draw(state);
  });
  box.querySelector("[data-act=undo]").addEventListener("click", () => undo(state));
  box.querySelector("[data-act=clear]").addEventListener("click", () => {
    if (state.points.length) edit(state, () => (state.points = []));
  });
  // Python replaces the drawing (a new rev), and the points before it are remembered then.
  box.querySelector("[data-act=copy]").addEventListener("click", () => send(state, { extra: { copy: true } }));

  canvas.addEventListener("pointerdown", (event) => {
    if (!state.data || event.button !== 0) return;
    event.preventDefault();
    canvas.focus();
    const [x, y] = toPlane(state, event);
    const i = nearest(state, x, y);
    if (i >= 0 && (state.deleting || event.altKey)) {
      remove(state, i);
      return;
    }
    canvas.setPointerCapture(event.pointerId);
    state.drag = { index: i, start: [x, y], moved: false, shift: event.shiftKey, before: null };
    if (i >= 0) state.drag.before = copy(state.points);
  });
  canvas.addEventListener("pointermove", (event) => {
    const drag = state.drag;
    if (!drag || drag.index < 0) return;
    const [x, y] = toPlane(state, event);
    const far = Math.hypot(x - drag.start[0], y - drag.start[1]) * pxPerUnit(state) > 3;
    if (!drag.moved && !far) return;
    drag.moved = true;
    state.points[drag.index].splice(0, 2, clamp(state, x), clamp(state, y));
    schedule(state);
    const now = performance.now();
    const due = now - state.lastDragSend > DRAG_SEND_MS; // the background follows less often
    if (due) {
      state.lastDragSend = now;
      send(state);
    }
    tell(state, due ? state.sent : null);
  });
  const release = (event) => {
    const drag = state.drag;
    if (!drag) return;
    state.drag = null;
    if (drag.index >= 0 && drag.moved) {
      state.history.push(drag.before);
      send(state, { told: true });
    } else if (drag.index < 0 && event.type === "pointerup") {
      add(state, ...toPlane(state, event), drag.shift ? 2 : state.group);
    }
  };
  for (const name of ["pointerup", "pointercancel"]) canvas.addEventListener(name, release);
  canvas.addEventListener("keydown", (event) => keyboard(state, event));
  canvas.addEventListener("focus", () => {
    if (!state.cursor) state.cursor = [0, 0];
    state.where = null;
    draw(state);
  });
  canvas.addEventListener("blur", () => draw(state));
}

function keyboard(state, event) {
  if (!state.data) return;
  const key = event.key;
  const step = 2 * state.data.half * KEY_STEP * (event.shiftKey ? 5 : 1);
  const moves = { ArrowLeft: [-step, 0], ArrowRight: [step, 0], ArrowUp: [0, step], ArrowDown: [0, -step] };
  const cursor = state.cursor || (state.cursor = [0, 0]);
  if (key in moves) {
    state.cursor = cursor.map((value, axis) => clamp(state, value + moves[key][axis]));
    if (state.carried !== null) state.points[state.carried.index].splice(0, 2, ...state.cursor);
    draw(state);
  } else if (key === "Enter" || key === " ") {
    if (state.carried !== null) {
      state.history.push(state.carried.before);
      state.carried = null;
      send(state, { told: true });
      return event.preventDefault();
    }
    const i = nearest(state, cursor[0], cursor[1]);
    if (i >= 0 && state.deleting) remove(state, i);
    else if (i >= 0) {
      state.carried = { index: i, before: copy(state.points) };
      state.points[i].splice(0, 2, ...cursor);
      draw(state);
    } else add(state, cursor[0], cursor[1], state.group);
  } else if (key === "Delete" || key === "Backspace") {
    remove(state, nearest(state, cursor[0], cursor[1]));
  } else if (key === "1" || key === "2" || key === "3") {
    state.box.querySelector(`[data-group="${key}"]`).click();
  } else if (key === "d" || key === "D") {
    state.box.querySelector("[data-mode=delete]").click();
  } else if (key === "u" || key === "U" || (key === "z" && (event.ctrlKey || event.metaKey))) {
    undo(state);
  } else if (key === "Escape" && state.carried !== null) {
    state.points = state.carried.before;
    state.carried = null;
  } else return;
  state.where = where(state);
  draw(state);
  event.preventDefault();
}

// What the keyboard's cursor is at, in words: its place, the value of the colours behind the
// points there (read from their picture: shades) and the nearest point.
function where(state) {
  const [x, y] = state.cursor;
  const f = (v) => v.toFixed(2).replace("-", "−");
  const said = [`cursor x ${f(x)}, y ${f(y)}`];
  const value = state.shades && state.shades(x, y, state.data.half);
  const end = { 1: " or more", [-1]: " or less" }[value] || "";
  if (value !== null) said.push(`${state.data.behind || "the colours"}: ${f(value)}${end}`);
  const far = state.points.map(([px, py]) => Math.hypot(px - x, py - y));
  const i = far.indexOf(Math.min(...far));
  const [px, py, group] = state.points[i] || [];
  if (i >= 0) said.push(`nearest point ${i + 1} (group ${group}) at x ${f(px)}, y ${f(py)}`);
  return said.join("; ");
}

// The value at (x, y) of the picture behind the points, a function of (x, y, half): the
// picture is a PNG of 256 shades from −1 to 1 (colour_png in kpca_core/figures/panels.py), so
// a pixel's colour is the shade whose index, in the palette of its PLTE chunk, is its value.
function shades(image, uri) {
  const bytes = atob(uri.slice(uri.indexOf(",") + 1));
  const at = bytes.indexOf("PLTE");
  const count = ((bytes.charCodeAt(at - 2) << 8) | bytes.charCodeAt(at - 1)) / 3;
  const colour = (n) => bytes.slice(at + 4 + 3 * n, at + 7 + 3 * n);
  const index = new Map(Array.from({ length: count }, (_, n) => [colour(n), n]));
  const { naturalWidth: w, naturalHeight: h } = image;
  const ctx = new OffscreenCanvas(w, h).getContext("2d");
  ctx.drawImage(image, 0, 0);
  const rgba = ctx.getImageData(0, 0, w, h).data;
  return (x, y, half) => {
    const [col, row] = [(x + half) * (w - 1), (half - y) * (h - 1)].map((v) => v / (2 * half));
    const o = 4 * (Math.round(row) * w + Math.round(col));
    const n = index.get(String.fromCharCode(rgba[o], rgba[o + 1], rgba[o + 2]));
    return n === undefined ? null : -1 + (2 * n) / (count - 1);
  };
}

function schedule(state) {
  if (state.frame) return;
  state.frame = requestAnimationFrame(() => {
    state.frame = 0;
    draw(state);
  });
}

function draw(state) {
  const { canvas, data } = state;
  const sized = data && cleared(canvas);
  if (!sized) return;
  const { ctx, ratio, pixels } = sized;
  const style = getComputedStyle(state.box);
  const h = data.half;
  const scale = pixels / (2 * h);
  if (state.image && state.image.complete && state.image.naturalWidth) {
    ctx.imageSmoothingEnabled = true;
    ctx.drawImage(state.image, 0, 0, pixels, pixels);
  }
  // plane coordinates from here on: x to the right, y up
  ctx.setTransform(scale, 0, 0, -scale, pixels / 2, pixels / 2);
  if (state.lines) {
    ctx.lineWidth = (0.8 * ratio) / scale;
    ctx.strokeStyle = "rgba(0, 0, 0, 0.45)";
    ctx.stroke(state.lines);
  }
  ctx.lineWidth = (1.5 * ratio) / scale;
  ctx.strokeStyle = style.getPropertyValue("--axis").trim() || "rgba(128, 128, 128, 0.6)";
  ctx.beginPath();
  ctx.moveTo(-h, 0); ctx.lineTo(h, 0);
  ctx.moveTo(0, -h); ctx.lineTo(0, h);
  ctx.stroke();
  const radius = (DOT_PX * ratio) / scale;
  state.points.forEach(([x, y, group], i) => {
    ctx.beginPath();
    mark(ctx, group, x, y, radius);
    ctx.fillStyle = data.colours[group - 1] || data.colours[0];
    ctx.fill();
    const held = (state.drag && state.drag.index === i) || (state.carried && state.carried.index === i);
    ctx.lineWidth = ((held ? 3 : 1.5) * ratio) / scale;
    ctx.strokeStyle = held ? "#000" : "#767676"; // as the figures' outline: 3:1 on either theme
    ctx.stroke();
  });
  if (state.cursor && state.box.getRootNode().activeElement === canvas) {
    const [cx, cy] = state.cursor;
    const arm = (12 * ratio) / scale;
    ctx.lineWidth = (2 * ratio) / scale;
    ctx.strokeStyle = style.getPropertyValue("--focus").trim() || "#ff4b4b";
    ctx.beginPath();
    ctx.moveTo(cx - arm, cy); ctx.lineTo(cx + arm, cy);
    ctx.moveTo(cx, cy - arm); ctx.lineTo(cx, cy + arm);
    ctx.stroke();
  }
  state.box.querySelectorAll("[data-group]").forEach((button) => {
    const group = Number(button.dataset.group);
    // the text in the theme's colour (the palette's orange gave 2.1:1); the mark in the group's
    button.querySelector(".mark").style.color = data.colours[group - 1];
    button.setAttribute("aria-pressed", String(!state.deleting && state.group === group));
  });
  state.box.querySelector("[data-mode=delete]").setAttribute("aria-pressed", String(state.deleting));
  state.box.querySelector("[data-act=undo]").disabled = !state.history.length;
  state.box.querySelector("[data-act=clear]").disabled = !state.points.length;
  const n = state.points.length;
  state.status.textContent =
    (data.counted ? `${n} ${n === 1 ? "point" : "points"} (at most ${data.max}) · ` : "") +
    `square ±${h}` +
    (state.deleting ? " · delete mode: click a point to remove it" : "");
  canvas.dataset.points = String(n);
  const focused = state.box.getRootNode().activeElement === canvas;
  state.box.querySelector(".where").textContent = focused && state.where ? state.where : "";
}

// Each group its shape as well as its colour (as the figures' markers, kpca_core/figures/style.py
// SYMBOLS): group 1 a circle, 2 a square, 3 a diamond.
function mark(ctx, group, x, y, r) {
  if (group === 2) ctx.rect(x - 0.85 * r, y - 0.85 * r, 1.7 * r, 1.7 * r);
  else if (group === 3) {
    ctx.moveTo(x, y - 1.2 * r); ctx.lineTo(x + 1.2 * r, y); ctx.lineTo(x, y + 1.2 * r);
    ctx.lineTo(x - 1.2 * r, y); ctx.closePath();
  } else ctx.arc(x, y, r, 0, 2 * Math.PI);
}

function receive(state, replaced, first) {
  const data = state.data;
  const copyButton = state.box.querySelector("[data-act=copy]");
  copyButton.textContent = data.copyLabel ?? "";
  copyButton.hidden = !data.copyLabel;
  const echo = data.seq !== null && data.seq === state.sent;
  const busy = state.drag !== null || state.carried !== null;
  if (replaced && !first) remember(state);
  if (replaced || (echo && !busy)) state.points = copy(data.points);
  const background = data.background;
  state.lines = background ? new Path2D(background.lines) : null;
  if (!background) state.image = state.imageSource = state.shades = null;
  else if (background.image !== state.imageSource) {
    const image = new Image();
    image.onload = () => {
      if (state.imageSource !== background.image) return;
      state.image = image;
      state.shades = shades(image, background.image);
      draw(state);
    };
    state.imageSource = background.image;
    image.src = background.image;
  }
  draw(state);
  state.canvas.dataset.rev = String(data.rev);
  state.canvas.dataset.half = String(data.half);
  state.canvas.dataset.background = background ? "yes" : "no";
  fit(state);
}
