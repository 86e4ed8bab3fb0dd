// What the drawing canvas and the handwriting pad share (kpca_ui/draw.py puts it before
// draw_canvas.js and pad.js, which define build, bind, receive and draw).  Streamlit calls the
// default export on mount and on each change of `data` or the theme, with the same
// parentElement: a canvas is built once per parentElement (STATES) and handed each new data,
// a new data.rev when Python replaced what it shows.

const STATES = new WeakMap();

// The box of class `name` with `html` in `root`; the state of its canvas, with `fields`.
function boxed(root, name, html, fields) {
  const box = root.appendChild(document.createElement("div"));
  box.className = name;
  box.innerHTML = html;
  const state = {
    box, canvas: box.querySelector("canvas"), status: box.querySelector(".status"), data: null,
    rev: null, count: 0, id: Math.random().toString(36).slice(2, 8), setStateValue: null,
    ...fields,
  };
  bind(state);
  new ResizeObserver(() => draw(state)).observe(state.canvas);
  return state;
}

// A new token of what the canvas sends: "<id>:<count>".
function token(state) {
  state.count += 1;
  return `${state.id}:${state.count}`;
}

// The canvas's 2-D context at the screen's resolution, cleared; null while it has no size.
function cleared(canvas) {
  const ratio = window.devicePixelRatio || 1;
  const side = canvas.getBoundingClientRect().width;
  if (!side) return null;
  const pixels = Math.round(side * ratio);
  if (canvas.width !== pixels || canvas.height !== pixels) canvas.width = canvas.height = pixels;
  const ctx = canvas.getContext("2d");
  ctx.setTransform(1, 0, 0, 1, 0, 0);
  ctx.clearRect(0, 0, pixels, pixels);
  return { ctx, ratio, pixels };
}

export default function ({ parentElement, data, setStateValue }) {
  if (!STATES.has(parentElement)) STATES.set(parentElement, build(parentElement));
  const state = STATES.get(parentElement);
  state.setStateValue = setStateValue;
  const first = state.data === null;
  const replaced = first || data.rev !== state.rev;
  state.data = data;
  state.rev = data.rev;
  state.box.style.setProperty("--max-px", `${data.maxPx}px`);
  receive(state, replaced, first);
}
