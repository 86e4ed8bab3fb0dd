// The handwriting pad of kpca_ui/pad.py (a Streamlit components v2 module, after canvas.js).
// data: {strokes, rev, levels, maxPoints, maxStrokes, maxPx}; a new rev: a link opened.
// A stroke (mouse, pen or touch alike) is the pen's path from pointerdown to pointerup, on a
// grid of data.levels positions per axis (x right, y down).  At each stroke's end, and on
// "Clear", the whole writing goes to Python as the state value "strokes": {seq, strokes}.
// On the keyboard, a digit key writes that digit's strokes (DIGITS) in place of the writing.

const PEN_SHARE = 0.045; // the pen's width as a share of the pad's side
// Each digit's strokes as a hand writes them, on 9 × 9 places across the pad: a place is two
// figures, x then y (down); "|" begins the next stroke.
const DIGITS = ["40 21 13 15 27 48 67 75 73 61 40", "22 40 48", "12 30 50 72 64 18 78",
  "11 30 60 72 63 44 65 76 68 38 17", "50 15 75|52 58", "70 20 14 43 64 76 68 38 17",
  "60 31 14 17 38 68 76 64 34 16", "10 70 38", "61 40 21 23 65 67 48 27 25 63 61",
  "72 50 30 12 24 54 72 78"];

function build(root) {
  const html = `
    <canvas class="pad" tabindex="0" role="application" aria-label="Writing pad: write one digit with the mouse, a pen or a finger, or type a digit, 0 to 9, to have it written"></canvas>
    <div class="bar">
      <button type="button" data-act="clear" title="Wipe the pad">Clear</button>
      <span class="status" aria-live="polite"></span>
    </div>`;
  return boxed(root, "kp", html, { strokes: [], current: null, typed: null });
}

function total(state) {
  return state.strokes.reduce((sum, stroke) => sum + stroke.length, 0);
}

function toGrid(state, event) {
  const rect = state.canvas.getBoundingClientRect();
  const last = state.data.levels - 1;
  const cell = (value, size) => Math.max(0, Math.min(last, Math.floor((value / size) * state.data.levels)));
  return [cell(event.clientX - rect.left, rect.width), cell(event.clientY - rect.top, rect.height)];
}

function send(state) {
  state.setStateValue("strokes", { seq: token(state), strokes: state.strokes });
  state.canvas.dataset.sentAt = String(performance.now());
  draw(state);
}

function bind(state) {
  const { canvas, box } = state;
  box.querySelector("[data-act=clear]").addEventListener("click", () => {
    if (!state.strokes.length) return;
    state.strokes = [];
    state.typed = null;
    send(state);
  });
  canvas.addEventListener("keydown", (event) => {
    if (!state.data || !/^[0-9]$/.test(event.key)) return;
    event.preventDefault();
    const place = (figure) => Math.round(((Number(figure) + 1) * (state.data.levels - 1)) / 10);
    state.strokes = DIGITS[event.key].split("|").map((stroke) => stroke.split(" ")
      .map(([x, y]) => [place(x), place(y)]));
    state.typed = event.key;
    send(state);
  });
  canvas.addEventListener("pointerdown", (event) => {
    if (!state.data || (event.pointerType === "mouse" && event.button !== 0)) return;
    if (state.strokes.length >= state.data.maxStrokes || total(state) >= state.data.maxPoints) {
      state.status.textContent = "The pad is full: Clear it to write again.";
      return;
    }
    event.preventDefault();
    canvas.setPointerCapture(event.pointerId);
    state.typed = null;
    state.current = [toGrid(state, event)];
    state.strokes.push(state.current);
    draw(state);
  });
  canvas.addEventListener("pointermove", (event) => {
    if (!state.current) return;
    const events = event.getCoalescedEvents ? event.getCoalescedEvents() : [event];
    for (const each of events.length ? events : [event]) {
      const [x, y] = toGrid(state, each);
      const [px, py] = state.current[state.current.length - 1];
      if (Math.hypot(x - px, y - py) < 1.5 || total(state) >= state.data.maxPoints) continue;
      state.current.push([x, y]);
    }
    draw(state);
  });
  const end = () => {
    if (!state.current) return;
    state.current = null;
    send(state);
  };
  for (const name of ["pointerup", "pointercancel"]) canvas.addEventListener(name, end);
}

function draw(state) {
  const { canvas, data } = state;
  const sized = data && cleared(canvas);
  if (!sized) return;
  const { ctx, pixels } = sized;
  const scale = pixels / data.levels;
  ctx.lineCap = "round";
  ctx.lineJoin = "round";
  ctx.lineWidth = PEN_SHARE * pixels;
  ctx.strokeStyle = getComputedStyle(state.box).getPropertyValue("--ink").trim() || "#111";
  ctx.fillStyle = ctx.strokeStyle;
  for (const stroke of state.strokes) {
    const at = ([x, y]) => [(x + 0.5) * scale, (y + 0.5) * scale];
    ctx.beginPath();
    const [x0, y0] = at(stroke[0]);
    if (stroke.length === 1) {
      ctx.arc(x0, y0, ctx.lineWidth / 2, 0, 2 * Math.PI);
      ctx.fill();
      continue;
    }
    ctx.moveTo(x0, y0);
    for (const point of stroke.slice(1)) ctx.lineTo(...at(point));
    ctx.stroke();
  }
  const n = state.strokes.length;
  state.box.querySelector("[data-act=clear]").disabled = !n;
  const strokes = `${n} ${n === 1 ? "stroke" : "strokes"}`;
  if (!state.current) {
    const typed = `A ${state.typed} written from the keyboard (${strokes}): its pictures follow.`;
    state.status.textContent = !n ? "Write one digit in the box, or type it on the keyboard: 0 to 9."
      : state.typed ? typed : strokes;
  }
  canvas.dataset.strokes = String(n);
}

function receive(state, replaced) {
  if (replaced) {
    state.strokes = state.data.strokes.map((stroke) => stroke.map((point) => point.slice()));
    state.current = null;
    state.typed = null;
  }
  draw(state);
}
