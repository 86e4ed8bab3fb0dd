// The handwriting pad of kpca_ui/pad.py (a Streamlit components v2 module, after canvas.js).
// data: {strokes, rev, levels, maxPoints, maxStrokes, maxPx}; a new rev: a link opened.
// A stroke (mouse, pen or touch alike) is the pen's path from pointerdown to pointerup, on a
// grid of data.levels positions per axis (x right, y down).  At each stroke's end, and on
// "Clear", the whole writing goes to Python as the state value "strokes": {seq, strokes}.

const PEN_SHARE = 0.045; // the pen's width as a share of the pad's side

function build(root) {
  const html = `
    <canvas class="pad" role="img" aria-label="Writing pad: write one digit with the mouse, a pen or a finger"></canvas>
    <div class="bar">
      <button type="button" data-act="clear" title="Wipe the pad">Clear</button>
      <span class="status" aria-live="polite"></span>
    </div>`;
  return boxed(root, "kp", html, { strokes: [], current: null });
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
  if (!state.current) {
    state.status.textContent = n ? `${n} ${n === 1 ? "stroke" : "strokes"}` : "Write one digit in the box.";
  }
  canvas.dataset.strokes = String(n);
}

function receive(state, replaced) {
  if (replaced) {
    state.strokes = state.data.strokes.map((stroke) => stroke.map((point) => point.slice()));
    state.current = null;
  }
  draw(state);
}
