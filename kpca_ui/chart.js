// The chart of kpca_ui/chart.py (a Streamlit components v2 module).  Streamlit calls the
// default export on mount and whenever `data` or the theme change, with the same
// parentElement: the graph is built once per parentElement (STATES) and updated with
// Plotly.react.  data: the bytes of {figure, config, width, plotly, frames, live, said} as
// JSON; Plotly's script (URL `plotly`) is loaded once per page.  said: the figure in words,
// {label, text}, its name and description for assistive technology (speak).
// Scrubbing: frames = {slider, frames: {<value as shown>: {data, layout}}}: while that slider
// is held (or keyed), the frame of the value its thumb shows is drawn (scrub).
// Live: live = {sliders, url, drawing, presses}: while one of those sliders is held, the figure
// at its value is asked for at `url` (kpca_ui/live.py: no script run) and drawn until the
// page's run's own figure comes (live), in the drawn graph in place when only its pictures,
// lines, words and points differ (swap); with drawing = {prefix, seq}, the same for that
// drawing canvas's "kpca-drawing" events (draw_canvas.js, sketched); presses: buttons and
// select boxes' options whose figures are asked for ahead (a mouse resting on one, the
// keyboard on it) and drawn when pressed, until the page's own figure comes (pressed).

const STATES = new WeakMap();
const DEFAULT_HEIGHT = 450; // Plotly's and st.plotly_chart's default height
const MIN_WIDTH = 150;

function loadPlotly(url) {
  // the page's promise of Plotly (kpca_ui/plotly_js.py preloads the script), or one made here
  window.__kpcaPlotly ||= new Promise((resolve, reject) => {
    if (window.Plotly) return resolve(window.Plotly);
    const script = document.createElement("script"); // inserted, it runs asynchronously
    script.src = url;
    script.onload = () => resolve(window.Plotly);
    script.onerror = () => {
      window.__kpcaPlotly = null;
      reject(new Error(`could not load Plotly from ${url}`));
    };
    document.head.appendChild(script);
  });
  return window.__kpcaPlotly;
}

let CHARTS = 0; // charts built on this page: each its description's id

function build(root) {
  const said = `kc-said-${++CHARTS}`;
  root.insertAdjacentHTML("beforeend", `<div class="kc"><div class="kc-graph"></div>
    <p id="${said}" hidden></p><p id="${said}-keys" hidden>${KEYS}</p>
    <p class="kc-live" aria-live="polite"></p></div>`);
  const box = root.lastElementChild;
  // the other fields: set when needed
  const [graph, told, , live] = box.children;
  const state = { box, graph, said: told, live };
  graph.addEventListener("keydown", (event) => explore(state, event));
  graph.addEventListener("blur", () => window.Plotly?.Fx.unhover(graph));
  new ResizeObserver(() => {
    const width = box.clientWidth;
    if (state.payload && width > 0 && width !== state.width) schedule(state);
  }).observe(box);
  listen(state);
  return state;
}

// ---- Streamlit's theme for Plotly, as st.plotly_chart applies it -------------------------

const FADED_LIGHT = "#5e6273"; // the charts' text on the light theme: 6.05:1 on white
const RGB = new Map(); // a colour's channels, by its CSS text: read once per page

function rgb(colour) {
  if (!RGB.has(colour)) {
    const probe = document.body.appendChild(document.createElement("span"));
    probe.style.color = colour;
    const found = getComputedStyle(probe).color.match(/[\d.]+/g) || [255, 255, 255];
    probe.remove();
    RGB.set(colour, found.slice(0, 3).map(Number));
  }
  return RGB.get(colour);
}

function merge(target, source) {
  // source's values override target's, recursively (lodash's merge, as st.plotly_chart
  // puts its theme over a figure's template; the figure's own layout still wins)
  for (const [k, v] of Object.entries(source)) {
    target[k] = plain(v) && plain(target[k]) ? merge(target[k], v) : v;
  }
  return target;
}

function themedTemplate(template, element) {
  // the figure's template in the theme of Streamlit's CSS variables at `element`
  const style = getComputedStyle(element);
  const css = (name, fallback) => style.getPropertyValue(name).trim() || fallback;
  const bg = css("--st-background-color", "#ffffff");
  const [r, g, b] = rgb(bg);
  const dark = 0.2126 * r + 0.7152 * g + 0.0722 * b < 128;
  // st.plotly_chart's text, grid lines and legend (Streamlit's greys 70/30, 30/85, 90/10); on
  // the light theme the text darker than its #808495 (3.72:1 on white): WCAG's 4.5:1
  const [faded, grid, legend] = dark ? ["#e6eaf1", "#31333F", "#fafafa"]
    : [FADED_LIGHT, "#e6eaf1", "#262730"];
  const font = css("--st-font", '"Source Sans", sans-serif');
  // streamlit's Python template (streamlit_plotly_theme.py) names its colours #0000NN
  const map = { "#000032": "#21c354", "#000033": "#ff2b2b", "#000034": "#0068c9",
                "#000036": faded, "#000037": legend, "#000038": bg, "#000039": grid,
                "#000040": grid };
  ["categorical", "sequential", "diverging"].forEach((name, k) => {
    const colours = css(`--st-chart-${name}-colors`, "").split(",").map((s) => s.trim());
    colours.filter(Boolean).slice(0, 10).forEach((c, i) => {
      map[`#0000${String(10 * k + i + 1).padStart(2, "0")}`] = c;
    });
  });
  const text = JSON.stringify(template || {});
  const themed = JSON.parse(text.replace(/#0000\d\d/g, (c) => map[c] || c));
  const axis = (standoff) => ({
    zerolinecolor: grid, gridcolor: grid, tickcolor: grid, minor: { gridcolor: grid },
    tickfont: { color: faded, size: 12 }, title: { font: { color: faded, size: 14 }, standoff },
    automargin: true,
  });
  const own = {
    font: { color: faded, family: font, size: 12 },
    title: { font: { family: css("--st-heading-font", css("--st-font", "sans-serif")), size: 16,
                     color: css("--st-heading-color", css("--st-text-color", "#31333F")) },
             pad: { l: 4 }, xanchor: "left", x: 0 },
    legend: { title: { font: { size: 12, color: faded }, side: "top" }, valign: "top",
              bordercolor: "rgba(0,0,0,0)", borderwidth: 0, font: { size: 12, color: legend } },
    paper_bgcolor: bg, plot_bgcolor: bg,
    yaxis: { ...axis(24), ticklabelposition: "outside" },
    xaxis: { ...axis(20), showgrid: false, zeroline: false },
    margin: { pad: 8, r: 0, l: 0 },
    hoverlabel: { bgcolor: bg, font: { color: faded, family: font, size: 12 },
                  bordercolor: css("--st-border-color", dark ? "#4A4742" : "#DCD8D4") },
    // an animation's ▶ play and ❚❚ pause: text in the theme's on a box of its (Plotly's
    // light box under the dark theme's light text gave 1.15:1)
    updatemenudefaults: { bgcolor: css("--st-secondary-background-color", dark ? "#262730"
      : "#f0f2f6"), bordercolor: grid, font: { color: legend } },
    coloraxis: { colorbar: { thickness: 16, xpad: 24, ticklabelposition: "outside",
                             outlinecolor: "rgba(0,0,0,0)", outlinewidth: 8, len: 0.75,
                             y: 0.5745, title: { font: { color: faded, size: 14 } },
                             tickfont: { color: faded, size: 12 } } },
  };
  themed.layout = merge(themed.layout || {}, own);
  return themed;
}

function bold(title) {
  // st.plotly_chart's titles are bold
  const t = typeof title === "string" ? { text: title } : title;
  return t && t.text ? { ...t, text: `<b>${t.text}</b>` } : title;
}

// ---- drawing -----------------------------------------------------------------------------

const plain = (x) => x && typeof x === "object" && !Array.isArray(x) && !ArrayBuffer.isView(x);
const MARKS = ["shapes", "annotations"]; // layout items a frame changes by their names

function applyFrame(figure, frame) {
  if (!frame) return figure;
  const data = figure.data.map((trace, i) =>
    frame.data && frame.data[i] ? { ...trace, ...frame.data[i] } : trace);
  const layout = { ...figure.layout };
  for (const [k, v] of Object.entries(frame.layout || {})) {
    layout[k] = plain(v) && plain(layout[k]) ? { ...layout[k], ...v } : v;
  }
  for (const list of MARKS.filter((name) => frame[name])) {
    layout[list] = (layout[list] || []).map((item) =>
      item && frame[list][item.name] ? { ...item, ...frame[list][item.name] } : item);
  }
  return { data, layout };
}

const TYPED = { f4: Float32Array, f8: Float64Array, i1: Int8Array, u1: Uint8Array,
                i2: Int16Array, u2: Uint16Array, i4: Int32Array, u4: Uint32Array };

function decoded(value) {
  // Plotly's typed-array spec {dtype, bdata} as a typed array (a matrix's, with a shape: as is)
  const spec = plain(value) && typeof value.bdata === "string" && !value.shape;
  const Type = spec && TYPED[value.dtype];
  return Type ? new Type(Uint8Array.from(atob(value.bdata), (c) => c.charCodeAt(0)).buffer) : value;
}

function frameUpdate(state, frame) {
  // A frame as the arguments of ONE Plotly.update (its traces, layout keys, marks), made once
  if (frame.__update) return frame.__update;
  const shown = state.payload.figure;
  const traces = (frame.data || []).flatMap((change, i) => (change ? [i] : []));
  const keys = [...new Set(traces.flatMap((i) => Object.keys(frame.data[i])))];
  const data = Object.fromEntries(keys.map((key) => [key, traces.map((i) =>
    decoded(key in frame.data[i] ? frame.data[i][key] : shown.data[i][key]))]));
  const layout = {};
  const titled = (title) => (plain(title) ? title : { text: title });
  for (const [k, v] of Object.entries(frame.layout || {})) {
    if (k === "title") layout.title = bold({ ...titled(shown.layout.title), ...titled(v) });
    else if (plain(v)) { // an axis's changes: its other settings stay
      for (const [key, value] of Object.entries(v)) layout[`${k}.${key}`] = value;
    } else layout[k] = v;
  }
  for (const list of MARKS) {
    (shown.layout[list] || []).forEach((item, i) => {
      const change = frame[list] && item && frame[list][item.name];
      for (const [k, v] of Object.entries(change || {})) layout[`${list}[${i}].${k}`] = v;
    });
  }
  frame.__update = { data, layout, traces };
  return frame.__update;
}

function moveMarks(state, frame) {
  // A frame that only moves named marks (the Spectrum's chosen width): their drawn elements
  // shifted and relabelled in place, far cheaper than a Plotly.relayout (restore() undoes it).
  const gd = state.graph;
  const full = gd._fullLayout;
  if (!full || frame.data || frame.layout) return false;
  const moves = [];
  for (const list of MARKS) {
    const shape = list === "shapes";
    for (const [i, item] of (gd.layout[list] || []).entries()) {
      const change = item && frame[list] && frame[list][item.name];
      if (!change) continue;
      // the full axis of the item's reference ("x", "x2"; "paper": none)
      const ax = item.xref === "paper" ? null : full[`xaxis${(item.xref || "x").slice(1)}`];
      const element = gd.querySelector(shape ? `.shapelayer path[data-index="${i}"]`
        : `.annotation[data-index="${i}"]`);
      // shapes are placed by data value, annotations on a log axis by its log10
      const px = (x) => (shape ? ax.l2p(ax.d2l(x)) : ax.l2p(x));
      const dx = ax && element && (shape ? px(change.x0) - px(item.x0) : px(change.x) - px(item.x));
      if (!Number.isFinite(dx)) return false;
      moves.push({ element, dx, text: shape ? null : change.text });
    }
  }
  if (!moves.length) return false;
  for (const { element, dx, text } of moves) {
    element.setAttribute("transform", `translate(${dx.toFixed(2)},0)`);
    const label = text !== null && element.querySelector(".annotation-text");
    if (label) label.textContent = text;
  }
  state.moved = moves.map((m) => m.element);
  return true;
}

function sameValue(a, b) {
  return Array.isArray(a) && Array.isArray(b)
    ? a.length === b.length && a.every((x, i) => x === b[i]) : a === b;
}

// a text's markup, its tags alone (a text not a string: as is)
const markup = (t) => (typeof t === "string" ? (t.match(/<[^>]*>/g) || []).join("") : t);

function rewords(element, from, to) {
  // A function setting a drawn text's words (a title's, an annotation's) from those of `from`
  // to those of `to` in place when only they differ (same markup), or null; a Plotly.relayout
  // of a text costs about a whole update.
  const words = (t) => t.split(/<[^>]*>/).filter(Boolean);
  if (!element || typeof from !== "string" || typeof to !== "string" || markup(from) !== markup(to)) {
    return null;
  }
  const nodes = [];
  const walker = document.createTreeWalker(element, NodeFilter.SHOW_TEXT);
  while (walker.nextNode()) if (walker.currentNode.nodeValue.replace(/\u200b/g, "")) {
    nodes.push(walker.currentNode);
  }
  const next = words(to);
  if (!sameValue(nodes.map((node) => node.nodeValue), words(from))
      || next.length !== nodes.length) return null;
  return () => nodes.forEach((node, i) => { node.nodeValue = next[i]; });
}

function retitle(gd, text) {
  // A function setting the drawn title's words to those of `text` in place (rewords), or null
  const title = gd.layout.title;
  const set = plain(title) && rewords(gd.querySelector(".gtitle"), title.text, text);
  return set && (() => {
    set();
    title.text = gd._fullLayout.title.text = text; // as drawn: the next Plotly.react compares
  });
}

function glide(state, frame) {
  // A frame that changes only traces' y, the title's words and layout values already drawn
  // (the Spectrum's bars): drawn without a Plotly.update (much quicker), else false.
  const gd = state.graph;
  const { data, layout, traces } = frameUpdate(state, frame);
  if (!traces.length || Object.keys(data).some((key) => key !== "y")) return false;
  // the layout's other values changed must be those drawn (at their dotted paths: "yaxis.range")
  const drawn = (p) => p.split(".").reduce((v, k) => (plain(v) ? v[k] : undefined), gd.layout);
  const fixed = Object.keys(layout).filter((key) => key !== "title");
  if (!fixed.length || fixed.some((key) => !sameValue(drawn(key), layout[key]))) return false;
  const setTitle = layout.title ? retitle(gd, layout.title.text) : () => {};
  if (!setTitle) return false;
  state.drawing = true;
  // every trace, the unchanged with their own y: Plotly drops a trace a transition leaves out
  const every = gd.data.map((trace, i) => ({ y: traces.includes(i)
    ? data.y[traces.indexOf(i)] : trace.y }));
  const moved = window.Plotly.animate(
    gd, { data: every, traces: every.map((_, i) => i) },
    { transition: { duration: 0 }, frame: { duration: 0, redraw: false }, mode: "immediate" });
  settled(state, Promise.resolve(moved).then(setTitle));
  return true;
}

function skeleton(figure) {
  // A figure but its texts' words, its path shapes' paths, its pictures and their places and
  // its invisible traces' points: a held figure of the drawn one's skeleton differs only in
  // what swap() sets in place
  if (figure.__skeleton) return figure.__skeleton;
  const { data = [], layout = {} } = figure;
  const { title } = layout;
  const bare = { ...layout,
    title: plain(title) ? { ...title, text: markup(title.text) } : markup(title),
    annotations: (layout.annotations || []).map((a) => ({ ...a, text: markup(a.text) })),
    shapes: (layout.shapes || []).map((s) => (s.type === "path" ? { ...s, path: null } : s)),
    images: (layout.images || []).map(({ source, x, y, sizex, sizey, ...m }) => m) };
  const traces = data.map((t) => (t.mode === "none" ? { ...t, x: null, y: null } : t));
  figure.__skeleton = JSON.stringify({ traces, bare },
    (key, value) => (ArrayBuffer.isView(value) ? Array.from(value) : value));
  return figure.__skeleton;
}

function pixelPath(full, shape) {
  // a path shape's SVG path in the graph's pixels as Plotly draws it (its getPathString): M,
  // L and Z on linear axes, else null
  const axis = (letter, ref = letter) => full[`${letter}axis${ref.slice(1)}`];
  const [xa, ya] = [axis("x", shape.xref), axis("y", shape.yref)];
  if (xa?.type !== "linear" || ya?.type !== "linear" || /[^MLZ\d\s,.eE+-]/.test(shape.path)) {
    return null;
  }
  let n = 0; // the numbers are x, y, x, y, …
  return shape.path.replace(/[^MLZ\s,]+/g,
    (v) => String(n++ % 2 ? ya._offset + ya.r2p(Number(v)) : xa._offset + xa.r2p(Number(v))));
}

function swap(state) {
  // A held figure of the drawn one's skeleton (the Contours grid at another value): its
  // lines, words and invisible points set in the drawn graph in place, its pictures by one
  // Plotly.relayout (a Plotly.react redraws the whole grid when a line or a text changes: 25
  // ms, 45–70 while the page's run arrives).  Its promise, or false if it cannot.
  const gd = state.graph;
  const [held, was] = [state.liveFigure, state.figure];
  const full = gd._fullLayout;
  if (!held || !was?.__skeleton || !full || !window.Plotly || state.frame || state.moved
      || state.width !== state.box.clientWidth || skeleton(held) !== skeleton(was)) return false;
  const [now, before] = [held.layout, was.layout];
  const edits = []; // made once every change is known to be possible
  for (const [i, shape] of (now.shapes || []).entries()) {
    if (shape.path === before.shapes[i].path) continue;
    const element = gd.querySelector(`.shapelayer path[data-index="${i}"]`);
    const d = pixelPath(full, shape);
    if (!element || d === null) return false;
    edits.push(() => { element.setAttribute("d", d); full.shapes[i].path = shape.path; });
  }
  for (const [i, note] of (now.annotations || []).entries()) {
    const from = before.annotations[i].text;
    if (note.text === from) continue;
    const set = rewords(gd.querySelector(`.annotation[data-index="${i}"] .annotation-text`),
                        from, note.text);
    if (!set) return false;
    edits.push(() => { set(); full.annotations[i].text = note.text; });
  }
  const title = bold(now.title);
  if (plain(title) && title.text !== gd.layout.title?.text) {
    const set = retitle(gd, title.text);
    if (!set) return false;
    edits.push(set);
  }
  edits.forEach((edit) => edit());
  held.data.forEach((trace, i) => { // the invisible traces' points, as the keys walk them
    if (trace.mode === "none") Object.assign(gd._fullData[i], { x: decoded(trace.x),
                                                                y: decoded(trace.y) });
  });
  // the graph's own copy of the pictures: the relayout sets its sources
  gd.layout = { ...gd.layout, shapes: now.shapes, annotations: now.annotations,
                images: (gd.layout.images || []).map((m) => ({ ...m })) };
  gd.data = held.data;
  const pictures = {}; // a held grid's are coarser: a half cell wider
  (now.images || []).forEach((m, i) => ["source", "x", "y", "sizex", "sizey"].forEach((key) => {
    if (m[key] !== before.images[i][key]) pictures[`images[${i}].${key}`] = m[key];
  }));
  state.figure = held;
  state.drawn = null;
  return window.Plotly.relayout(gd, pictures);
}

function restore(state) {
  // undo moveMarks: the server's figure (or a frame's) is drawn from the figure itself
  for (const element of state.moved || []) element.removeAttribute("transform");
  state.moved = null;
}

function settled(state, drawing) {
  // a drawing's end: the chart may draw again, and does if a newer figure came meanwhile
  return drawing
    .catch((error) => console.error("kpca chart:", error))
    .finally(() => {
      const again = state.again;
      state.drawing = state.again = false;
      if (again) schedule(state);
    });
}

function quick(state, frame) {
  // a scrubbed frame on the graph already drawn: only what the frame changes
  const { data, layout, traces } = frameUpdate(state, frame);
  restore(state);
  state.drawing = true;
  const update = window.Plotly.update(state.graph, data, layout,
                                      traces.length ? traces : undefined);
  return settled(state, Promise.resolve(update));
}

// The page's charts draw one at a time, each in a frame of its own, so that the first is
// painted before the next is drawn.
function inTurn(job) {
  const turn = window.__kpcaTurn || Promise.resolve();
  const run = turn.then(() => new Promise((resolve) => requestAnimationFrame(resolve))).then(job);
  window.__kpcaTurn = run.catch(() => {});
  return run;
}

function schedule(state) {
  // not shown (a tab not chosen): drawn once it has a width, as st.plotly_chart does
  if (state.box.clientWidth === 0) state.width = 0;
  // the newest wins: one more drawing after this one, never a queue
  else if (state.drawing) state.again = true;
  else {
    state.drawing = true;
    // a held figure set in place at once, else drawn in its turn
    const swapped = swap(state);
    settled(state, swapped ? Promise.resolve(swapped)
      : loadPlotly(state.payload.plotly).then(() => inTurn(() => draw(state))));
  }
}

function draw(state) {
  const { payload } = state;
  restore(state);
  const held = state.liveFigure;
  const figure = applyFrame(held || payload.figure, state.frame);
  const room = Math.max(state.box.clientWidth, MIN_WIDTH);
  state.width = state.box.clientWidth;
  // the template made once per figure and theme: a frame's drawing reuses it
  const layout = { ...figure.layout, template: state.template, title: bold(figure.layout.title),
                   height: figure.layout.height || DEFAULT_HEIGHT, autosize: false };
  const own = payload.width === "content" && figure.layout.width;
  layout.width = own ? Math.min(own, room) : room;
  const config = { displaylogo: false, showSendToCloud: false, ...payload.config,
                   responsive: false };
  config.modeBarButtonsToRemove = [...(config.modeBarButtonsToRemove || []),
                                   "lasso2d", "select2d", "sendChartToCloud"];
  const spec = { data: figure.data, layout, config };
  if (payload.figure.frames) spec.frames = payload.figure.frames; // an animation's (the film)
  if (payload.live) skeleton(figure); // before Plotly writes its axes' defaults into it
  return window.Plotly.react(state.graph, spec).then(() => {
    state.figure = figure; // a held figure of its skeleton may now be set in place (swap)
    state.drawn = held ? null : payload; // a scrubbed frame may now change it in place (quick)
    pressable(state.graph);
    speak(state);
  });
}

function speak(state) {
  // For assistive technology the chart is one image, named and described in words
  // (kpca_core/figures/words.py), instead of Plotly's SVG texts read one by one: the plot's
  // SVG is the image (its texts its presentation), the other layers hidden but the menus'
  // buttons (pressable).  The graph around it is a Tab stop whose keys explore the data.
  const said = state.payload.said;
  const [plot, ...others] = state.graph.querySelectorAll(".main-svg");
  if (!said || !plot) return;
  state.said.textContent = said.text;
  Object.assign(state.graph, { tabIndex: 0, role: "application", ariaLabel: said.label });
  state.graph.setAttribute("aria-describedby", `${state.said.id}-keys`); // the image: the rest
  plot.setAttribute("role", "img");
  plot.setAttribute("aria-label", said.label);
  plot.setAttribute("aria-describedby", state.said.id);
  for (const svg of others) svg.setAttribute("role", "none");
  pictures(state); // decoded before the keys step into them
  const hide = (layer) => {
    if (layer.matches(".menulayer, .slider-group")) return; // buttons and sliders: pressable
    if (layer.querySelector(".slider-group")) [...layer.children].forEach(hide);
    else layer.setAttribute("aria-hidden", "true");
  };
  [plot, ...others].flatMap((svg) => [...svg.children]).forEach(hide);
}

// ---- the keyboard and assistive technology -----------------------------------------------

const STEPS = { ArrowRight: 1, ArrowUp: 1, PageUp: 10,
  ArrowLeft: -1, ArrowDown: -1, PageDown: -10 };

function steppable(gd, group, index) {
  // an animation's slider, an SVG group only a mouse drags: a slider that Tab reaches, whose
  // arrows (Page Up and Down: ten), Home and End show a frame, as its steps do
  const slider = () => gd._fullLayout.sliders[index];
  const told = () => {
    const { active, steps } = slider();
    group.setAttribute("aria-valuenow", active);
    group.setAttribute("aria-valuetext", `${steps[active]?.label}, frame ${active + 1} of ${
      steps.length}`);
  };
  Object.entries({ tabindex: "0", role: "slider", "aria-label": "frame", "aria-valuemin": 0,
    "aria-valuemax": slider().steps.length - 1 }).forEach(([k, v]) => group.setAttribute(k, v));
  told();
  ["plotly_animated", "plotly_animationinterrupted"].forEach((done) => gd.on(done, told));
  group.addEventListener("keydown", (event) => {
    const { active, steps } = slider();
    const last = steps.length - 1;
    const to = event.key === "Home" ? 0 : event.key === "End" ? last
      : STEPS[event.key] === undefined ? null : active + STEPS[event.key];
    if (to === null) return;
    event.preventDefault(); // the arrows would scroll the page
    window.Plotly.animate(gd, ...steps[Math.max(0, Math.min(last, to))].args);
  });
}

function pressable(gd) {
  // Plotly's menu buttons (an animation's ▶ play and ❚❚ pause) are SVG groups only a mouse
  // clicks: each made a button that Tab reaches and Enter or Space presses, named by its words
  if (gd.__kpcaPressable) return;
  gd.__kpcaPressable = true;
  const name = (button) => button.textContent.replace(/[▶❚]/g, "").trim();
  const mark = () => {
    for (const button of gd.querySelectorAll(".updatemenu-button:not([tabindex])")) {
      button.setAttribute("tabindex", "0");
      button.setAttribute("role", "button");
      button.setAttribute("aria-label", name(button));
      button.addEventListener("keydown", (event) => {
        if (event.key !== "Enter" && event.key !== " ") return;
        event.preventDefault(); // Space would scroll the page
        button.dispatchEvent(new MouseEvent("click", { bubbles: true }));
      });
    }
    gd.querySelectorAll(".slider-group").forEach((group, index) => {
      if (!group.hasAttribute("tabindex")) steppable(gd, group, index);
    });
  };
  mark();
  gd.on("plotly_afterplot", mark); // Plotly draws its menus anew with the figure
}

// ---- exploring the data by keyboard (after MAIDR's keys) ---------------------------------

const KEYS = "Arrow keys go through the data point by point, up and down to the next series " +
  "(on a heatmap: the next row); Page Up and Page Down go from series to series (on a grid " +
  "of pictures, on to each picture, walked as a grid of 10 by 10 points), Home and End (or " +
  "Control with an arrow) to a series' ends, Space says the point again, S turns its tones " +
  "on or off.";
const TONE_S = 0.25;
const COARSE = 10; // a picture's points: 10 by 10

const words = (html) => String(html ?? "").replace(/<br\s*\/?>/g, " ").replace(/<[^>]*>/g, "")
  .replace(/\s+/g, " ").trim();

function said(v) {
  // a value as said: three significant digits, with a minus sign
  if (typeof v !== "number") return v == null ? "no value" : String(v);
  return Number.isNaN(v) ? "no value" : String(Number(v.toPrecision(3))).replace(/-/g, "−");
}

function clippedValue(z) {
  // a picture's value: its shades' ends also stand for every value beyond them (clipped)
  return Math.abs(z) === 1 ? `${said(z)} or ${z > 0 ? "more" : "less"}` : said(z);
}

function series(gd) {
  // The visible traces as the keys walk them: a line's, a scatter's or a bar's points that
  // have both values (one row); a heatmap's or a contour's cells, by row and column, each at
  // its centre (x and y given as the cells' edges: halfway between them, as Plotly's hover).
  // names and titles as the figure gives them, not Plotly's ("trace 0", "Click to enter …")
  const { layout } = gd;
  const found = [];
  for (const t of gd._fullData || []) {
    if (t.visible !== true) continue;
    const [xa, ya] = ["x", "y"].map((a) => `${a}axis${(t[`${a}axis`] || a).slice(1)}`);
    const one = { name: words(gd.data[t.index]?.name), trace: t, ya: gd._fullLayout[ya],
                  xt: words(layout[xa]?.title?.text) || "x",
                  yt: words(layout[ya]?.title?.text) || "y" };
    if (t.z?.[0]?.length) {
      const at = (v, v0, dv, n, i) => (v?.length > n ? (v[i] + v[i + 1]) / 2
        : v?.length ? v[i] : v0 + dv * i);
      const bar = gd.data[t.index].colorbar?.title?.text
        ?? layout[t.coloraxis]?.colorbar?.title?.text;
      const given = gd.data[t.index].meta || {}; // the cells' own values, where the figure says
      found.push({ ...one, rows: t.z.length, columns: t.z[0].length, zt: words(bar) || "value",
        point: (j, i) => [given.x?.[i] ?? at(t.x, t.x0, t.dx, t.z[0].length, i),
                          given.y?.[j] ?? at(t.y, t.y0, t.dy, t.z.length, j), t.z[j][i]],
        values: () => t.z.flatMap((row) => Array.from(row)) });
    } else if (t.x?.length && t.y?.length) {
      const kept = Array.from(t.x, (x, i) => i).filter((i) => ![t.x[i], t.y[i]].some(
        (v) => v == null || Number.isNaN(v)));
      if (kept.length) found.push({ ...one, rows: 1, columns: kept.length, kept,
        point: (j, i) => [t.x[kept[i]], t.y[kept[i]]], values: () => kept.map((i) => t.y[i]) });
    }
  }
  return found;
}

function pictures(state) {
  // A grid's pictures (kpca_core/figures/panels.py: PNGs of 256 shades from −1 to 1, by
  // palette index) once decoded, as series: named by their titles (with their column's
  // heading), walked as COARSE × COARSE pixels said in the coordinates of the first
  // picture on their axes.
  const gd = state.graph;
  const images = gd.layout.images;
  if (state.pictured === images) return state.panels || []; // none: at first, no pictures
  Object.assign(state, { pictured: images, panels: [] });
  const shaded = (images || []).filter((m) => m.layer === "below" && !m.name); // not regions
  const notes = (gd.layout.annotations || []).filter((a) => a.yanchor === "bottom");
  Promise.all(shaded.map(async (m, index) => {
    const bytes = atob(m.source.slice(m.source.indexOf(",") + 1));
    const at = bytes.indexOf("PLTE");
    const count = ((bytes.charCodeAt(at - 2) << 8) | bytes.charCodeAt(at - 1)) / 3;
    const shade = new Map(Array.from({ length: count },
      (_, n) => [bytes.slice(at + 4 + 3 * n, at + 7 + 3 * n), -1 + (2 * n) / (count - 1)]));
    const picture = await createImageBitmap(await (await fetch(m.source)).blob());
    const [w, h, o] = [picture.width, picture.height, shaded.find((n) => n.xref === m.xref)];
    const ctx = new OffscreenCanvas(w, h).getContext("2d");
    ctx.drawImage(picture, 0, 0);
    const rgba = ctx.getImageData(0, 0, w, h).data;
    const cx = m.x + m.sizex / 2;
    const near = (a) => Math.abs(a.x - cx) + Math.abs(a.y - m.y);
    const same = notes.filter((a) => a.xref === m.xref); // else titles on the page, one each
    const title = same.reduce((best, a) => (near(a) < near(best) ? a : best),
      same[0] ?? notes[index]);
    const head = same.find((a) => /<b>/.test(a.text) && Math.abs(a.x - cx) < m.sizex / 2);
    const name = `${/<b>/.test(title?.text) ? "" : head?.text.split("<br>")[0] ?? ""} ${
      title?.text ?? ""}`;
    const point = (j, i) => {
      const c = Math.round(((i + 0.5) * w) / COARSE - 0.5);
      const r = Math.round(((COARSE - j - 0.5) * h) / COARSE - 0.5);
      const p = 4 * (r * w + c);
      return [o.x + ((c + 0.5) * m.sizex) / w, o.y - ((r + 0.5) * m.sizey) / h,
              shade.get(String.fromCharCode(rgba[p], rgba[p + 1], rgba[p + 2])) ?? NaN];
    };
    return { name: words(name), rows: COARSE, columns: COARSE, xt: "x", yt: "y", point,
      say: clippedValue, zt: words(gd.layout.coloraxis?.colorbar?.title?.text) || "value",
      values: () => Array.from({ length: COARSE ** 2 },
        (_, n) => point(n % COARSE, Math.floor(n / COARSE))[2]) };
  })).then((found) => { if (state.pictured === images) state.panels = found; }, () => {});
  return state.panels;
}

function explore(state, event) {
  // a key on the graph: the data point it goes to, said in the live region (and its tone)
  const gd = state.graph;
  const all = event.target === gd && !event.altKey ? [...series(gd), ...pictures(state)] : [];
  const key = event.ctrlKey || event.metaKey
    ? { ArrowLeft: "Home", ArrowRight: "End", Home: "Home", End: "End" }[event.key] : event.key;
  if (!all.length || !key) return;
  const clamp = (v, n) => Math.max(0, Math.min(n - 1, v));
  let { k, j, i } = state.at || { k: 0, j: 0, i: -1 }; // at first: before the first point
  let s = all[(k = clamp(k, all.length))];
  // towards the top of the screen: the next row, unless the y axis is reversed
  const up = s.ya?.range?.[0] > s.ya?.range?.[1] ? -1 : 1;
  const move = { ArrowRight: [0, 0, 1], ArrowLeft: [0, 0, -1], PageDown: [1, 0, 0],
                 PageUp: [-1, 0, 0], ArrowDown: s.zt ? [0, -up, 0] : [1, 0, 0],
                 ArrowUp: s.zt ? [0, up, 0] : [-1, 0, 0], Home: [0, 0, -Infinity],
                 End: [0, 0, Infinity], " ": [0, 0, 0] }[key];
  if (key === "s" || key === "S") {
    state.sound = !state.sound;
    state.live.textContent = `Tones ${state.sound ? "on" : "off"}.`;
  } else if (!move) return;
  else {
    const x = s.point(j, i)[0];
    s = all[(k = clamp(k + move[0], all.length))];
    j = clamp(j + move[1], s.rows);
    i = clamp(i + move[2], s.columns);
    if (move[0] && !s.zt && typeof x === "number") { // the next line: at the nearest x
      const far = (n) => Math.abs(s.point(0, n)[0] - x);
      i = [...s.kept.keys()].reduce((best, n) => (far(n) < far(best) ? n : best), 0);
    }
  }
  event.preventDefault(); // the arrows and Space would scroll the page
  if (!move) return;
  state.at = { k, j, i };
  const [x, y, z] = s.point(j, i);
  const where = s.zt ? `row ${j + 1} of ${s.rows}, column ${i + 1} of ${s.columns}`
    : `point ${i + 1} of ${s.columns}`;
  state.live.textContent = `${s.name ? `${s.name}, ` : ""}${where}: ${s.xt} ${said(x)}, ${
    s.yt} ${said(y)}${s.zt ? `, ${s.zt} ${(s.say ?? said)(z)}` : ""}`;
  if (state.sound) tone(state, s, s.zt ? z : y);
  const t = s.trace; // shown by Plotly's hover label: a cell's at its place, a point's by number
  if (t) window.Plotly.Fx.hover(gd, s.zt ? { xval: x, yval: y }
    : [{ curveNumber: t.index, pointNumber: s.kept[i] }], (t.xaxis || "x") + (t.yaxis || "y"));
}

function tone(state, s, value) {
  // the value as a pitch, two octaves over the series' range (a log axis: of its logarithm)
  const log = !s.zt && s.ya?.type === "log";
  const f = (v) => (log ? Math.log10(v) : v);
  const values = s.values().map(f).filter(Number.isFinite);
  const [low, high] = [Math.min(...values), Math.max(...values)];
  if (!Number.isFinite(f(value))) return;
  const audio = (state.audio ||= new AudioContext());
  const end = audio.currentTime + TONE_S;
  const frequency = 220 * 4 ** ((f(value) - low) / (high - low || 1));
  const pitch = new OscillatorNode(audio, { frequency });
  const gain = new GainNode(audio, { gain: 0.2 });
  gain.gain.exponentialRampToValueAtTime(0.001, end);
  pitch.connect(gain).connect(audio.destination);
  pitch.start();
  pitch.stop(end);
}

// ---- scrubbing ---------------------------------------------------------------------------

const FOLLOW_FRAMES = 30; // after the release or a key press, the thumb is read this long
const LIVE_WAIT_MS = 5000; // a live figure not come this long is no longer waited for
const REST_MS = 30; // a mouse resting this long on a live slider's track: its value asked for

function thumb(slider) {
  return document.querySelector(`.st-key-${CSS.escape(slider)} input[type="range"]`);
}

function sliderOf(element, keys) {
  // the slider of those widget keys that element is part of
  return element instanceof Element
    ? keys.find((key) => element.closest(`.st-key-${CSS.escape(key)}`)) : undefined;
}

function liveNumber(input) {
  // the value as shown (a select slider's input value is an option's index)
  const shown = Number(input.getAttribute("aria-valuetext"));
  return Number.isFinite(shown) ? shown : Number(input.value);
}

function scrub(state) {
  // the frame of the value the scrubbed slider shows: at once when the graph is drawn and free
  const frames = state.payload.frames;
  if (!frames || state.drawing) return;
  const shown = thumb(frames.slider)?.getAttribute("aria-valuetext");
  if (shown === state.shown || !(shown in frames.frames)) return;
  state.shown = shown;
  state.frame = frames.frames[shown];
  const ready = window.Plotly && state.drawn === state.payload && state.width > 0;
  if (!ready) schedule(state);
  else if (!moveMarks(state, state.frame) && !glide(state, state.frame)) quick(state, state.frame);
}

function figureAt(state, query, init) {
  // the live route's figure (query: a slider's value; init: a drawing's POST), or null:
  // refused or failed, the picture follows at the release
  const url = state.payload.live.url + (query ? `?${new URLSearchParams(query)}` : "");
  return fetch(url, { ...init, signal: AbortSignal.timeout(LIVE_WAIT_MS) })
    .then((response) => (response.ok ? response.json() : null))
    .catch(() => null);
}

function show(state, asking, wanted) {
  // one live request at a time: its figure drawn if still wanted() when it comes
  state.inFlight = true;
  return asking
    .then((figure) => {
      if (figure && wanted()) {
        state.liveFigure = figure; // the next value is asked for while this one is drawn
        schedule(state);
      }
    })
    .finally(() => { state.inFlight = false; });
}

function live(state) {
  // the figure at the live slider's value while it is held (or released, until the page's
  // own figure comes)
  const slider = state.held || state.awaiting;
  const input = state.liveKeys.includes(slider) ? thumb(slider) : null;
  if (!input || state.inFlight) return;
  const value = liveNumber(input);
  if (!Number.isFinite(value) || value === state.liveSent) return;
  state.liveSent = value;
  const asking = state.asked.get(`${slider}=${value}`) || figureAt(state, { slider, value });
  // drawn while the slider is held, or if the page's figure has not come and the value stays
  show(state, asking, () => {
    const now = thumb(slider);
    return state.held === slider
      || (state.awaiting === slider && now && liveNumber(now) === value);
  });
}

function ahead(state, slider, value, after = Promise.resolve()) {
  // the figure at `value` asked for now, unless it has been (after `after`: the route answers
  // a page's newest request only), so that a change to it draws it at once
  const key = `${slider}=${value}`;
  if (state.asked.has(key)) return after;
  const asking = after.then(() => figureAt(state, { slider, value }));
  state.asked.set(key, asking.then((figure) => figure || void state.asked.delete(key)));
  return asking;
}

function stepped(slider) {
  // a live numeric slider's input and its step's decimals (none for a select slider)
  const input = thumb(slider);
  const step = Number(input?.step);
  if (!input || Number(input.value) !== liveNumber(input) || !(step > 0)) return [null, 0];
  return [input, (input.step.split(".")[1] || "").length];
}

function prefetch(state, slider, direction) {
  // A live numeric slider with the keyboard's focus: the figure one step along both ways (the
  // last arrow key's way first) asked for now, so that the next key press, onward or back,
  // draws it at once.
  const [input, decimals] = stepped(slider);
  if (!input || state.held || !state.payload.live) return;
  const value = Number(input.value);
  let asked = Promise.resolve(); // one after the other
  for (const sign of direction ? [direction, -direction] : [-1, 1]) {
    const next = Number((value + sign * Number(input.step)).toFixed(decimals));
    if (next >= Number(input.min) && next <= Number(input.max)) {
      asked = ahead(state, slider, next, asked);
    }
  }
}

function pointed(state, slider, x) {
  // A mouse resting on a live numeric slider's track (a hand about to click there): the
  // figure at the value a click there sets, asked for now, so that the click draws it at once.
  const [input, decimals] = stepped(slider);
  const track = input?.closest('[role="group"] > [data-rac]'); // its thumb's travel
  if (!track || state.held || !state.payload.live) return;
  const { left, width } = track.getBoundingClientRect();
  const [low, high, step] = [input.min, input.max, input.step].map(Number);
  const share = Math.min(Math.max((x - left) / width, 0), 1);
  const value = Number((low + Math.round((share * (high - low)) / step) * step).toFixed(decimals));
  if (value !== Number(input.value)) ahead(state, slider, value);
}

function pressOf(state, element) {
  // The press element is part of, as the live route knows it (payload.live.presses): a button
  // (its widget key) or a select box's option (key=label; a combobox: its active option).
  const presses = state.payload?.live?.presses || [];
  if (!(element instanceof Element) || !presses.length) return undefined;
  const active = element.getAttribute("aria-activedescendant");
  const option = active ? document.getElementById(active) : element.closest('[role="option"]');
  if (!option) {
    return presses.find((id) => element.closest(`.st-key-${CSS.escape(id)} button`));
  }
  const list = option.closest('[role="listbox"]');
  const box = list && document.querySelector(`[aria-controls="${CSS.escape(list.id)}"]`);
  const key = box && sliderOf(box, presses.map((id) => id.split("=")[0]));
  return presses.find((id) => id === `${key}=${option.textContent.trim()}`);
}

function opened(state, element) {
  // a click on a select box whose options are presses (its list opening): each asked for
  // ahead, one after the other, as one of them is about to be chosen
  const presses = state.payload?.live?.presses || [];
  const key = sliderOf(element, presses.map((id) => id.split("=")[0]));
  let asked = Promise.resolve();
  for (const id of presses.filter((id) => key && id.startsWith(`${key}=`))) {
    asked = ahead(state, id, "", asked);
  }
}

function pressed(state, id) {
  // a press whose figure was asked for ahead: that figure drawn until the page's own comes
  const asking = state.asked.get(`${id}=`);
  if (!asking || state.inFlight) return;
  state.awaiting = id;
  show(state, asking, () => state.awaiting === id);
}

function sketched(state) {
  // the newest drawing posted, one request at a time; the request (none when one is in
  // flight), settled once its figure is drawn or refused (fewer than 3 points)
  const sketch = state.sketch;
  if (!sketch || sketch === state.sketchSent || state.inFlight) return;
  state.sketchSent = sketch;
  const body = JSON.stringify({ points: sketch.points, half: sketch.half });
  const init = { method: "POST", body, headers: { "Content-Type": "application/json" } };
  return show(state, figureAt(state, null, init), () => state.sketch).finally(() => {
    sketched(state);
  });
}

function follow(state) {
  // while a slider is held (and a little after), its thumb read at every animation frame
  state.quiet = 0;
  if (state.following) return;
  state.following = true;
  const tick = () => {
    state.following = state.box.isConnected && state.keys.length > 0;
    if (!state.following) return;
    scrub(state);
    live(state);
    state.following = Boolean(state.held) || ++state.quiet <= FOLLOW_FRAMES;
    if (state.following) requestAnimationFrame(tick);
  };
  requestAnimationFrame(tick);
}

function listen(state) {
  // the chart's sliders and drawing canvas followed through the document's events
  const down = (event) => {
    const press = pressOf(state, event.target);
    if (press) ahead(state, press, ""); // drawn at its release: asked for now, if not yet
    const slider = sliderOf(event.target, state.keys);
    if (!slider) return;
    const moved = thumb(slider)?.closest("[data-rac]"); // the thumb: pressed, it is dragged
    if (state.liveKeys.includes(slider) && moved && !moved.contains(event.target)) {
      pointed(state, slider, event.clientX); // the track: its value asked for at once
    }
    state.held = slider;
    state.keyed = false;
    state.liveStart = state.liveKeys.includes(slider) ? liveNumber(thumb(slider)) : null;
    state.liveSent = state.liveStart; // only a new value is asked for
    follow(state);
  };
  const up = () => {
    // released: the slider sends its own value if it changed, and that run's figure
    // replaces the held one; released where it was pressed, the page's figure is drawn
    const slider = state.held;
    state.held = null;
    const input = slider && thumb(slider);
    if (!input || !state.liveKeys.includes(slider)) return;
    if (liveNumber(input) !== state.liveStart) {
      state.awaiting = slider; // its value is sent: meanwhile the figure at that value
    } else if (state.liveFigure) {
      state.liveFigure = null;
      schedule(state);
    }
  };
  const key = (event) => {
    if (event.target instanceof Element && event.target.matches('[role="combobox"]')) {
      const press = pressOf(state, event.target); // its option under the keyboard
      if (press && event.key === "Enter") pressed(state, press);
      else setTimeout(() => { // the option the key moved to, asked for ahead
        const next = pressOf(state, event.target);
        if (next) ahead(state, next, "");
      });
    }
    const slider = sliderOf(event.target, state.keys);
    if (!slider) return;
    if (state.liveKeys.includes(slider) && !state.held) {
      // the key moves the thumb: the figure at its new value, asked for ahead or now
      state.awaiting = slider;
      state.liveSent = liveNumber(thumb(slider));
      state.direction = { ArrowRight: 1, ArrowUp: 1, ArrowLeft: -1, ArrowDown: -1 }[event.key];
      state.keyed = true;
    }
    follow(state);
  };
  const rest = (event) => {
    // a mouse on a live slider's track or on a press: its figure asked for once it rests there
    clearTimeout(state.resting);
    if (event.pointerType !== "mouse" || !(event.target instanceof Element)) return;
    const track = event.target.closest('[role="group"]');
    const slider = track && sliderOf(track, state.liveKeys);
    const press = !slider && pressOf(state, event.target);
    const ask = () => (slider ? pointed(state, slider, event.clientX) : ahead(state, press, ""));
    if (slider || press) state.resting = setTimeout(ask, REST_MS);
  };
  const focus = (event) => {
    // reached by the keyboard (Tab), not by a click that may start a drag
    if (!event.target.matches(":focus-visible")) return;
    const slider = sliderOf(event.target, state.liveKeys);
    if (slider) prefetch(state, slider, null);
    const press = pressOf(state, event.target);
    if (press) ahead(state, press, "");
  };
  const press = (event) => {
    // an option answers its pointer's release (its list then closes), a button its click
    const id = pressOf(state, event.target);
    if (id && (event.type === "click") !== id.includes("=")) pressed(state, id);
    else if (!id && event.type === "click") opened(state, event.target);
  };
  const drawn = (event) => {
    const drawing = state.payload.live && state.payload.live.drawing;
    if (!drawing || !event.detail || event.detail.prefix !== drawing.prefix) return;
    state.sketch = event.detail;
    const asked = sketched(state);
    // a finished edit is sent to the page's run once this figure has come
    if (asked && event.detail.waitFor) event.detail.waitFor(asked);
  };
  const gone = new AbortController(); // the chart's listeners, removed once it has gone
  // pointercancel: a touch taken over by the page
  for (const [name, handler] of [["pointerdown", down], ["pointerup", up], ["pointercancel", up],
                                 ["pointermove", rest], ["keydown", key], ["focusin", focus],
                                 ["click", press], ["pointerup", press],
                                 ["kpca-drawing", drawn]]) {
    document.addEventListener(name, (event) => {
      if (state.box.isConnected) handler(event);
      else gone.abort();
    }, { capture: true, signal: gone.signal });
  }
}

export default function ({ data, parentElement }) {
  if (!STATES.has(parentElement)) STATES.set(parentElement, build(parentElement));
  const state = STATES.get(parentElement);
  const payload = JSON.parse(new TextDecoder().decode(data));
  state.payload = payload;
  state.awaiting = null; // the page's own figure has come
  state.liveKeys = payload.live ? payload.live.sliders : []; // the sliders followed
  state.keys = [payload.frames && payload.frames.slider, ...state.liveKeys].filter(Boolean);
  if (payload.live && payload.live.url !== state.askedUrl) {
    state.askedUrl = payload.live.url; // the figures asked for ahead: for these settings only
    state.asked = new Map();
  }
  const drawing = payload.live && payload.live.drawing;
  // a figure of the drawing before its newest change: the figure asked for stays
  const behind = Boolean(state.sketch && drawing && state.sketch.seq !== drawing.seq);
  if (!behind) state.sketch = null;
  // the release's figure (or the edit's) replaces the one asked for
  if (!state.held && !behind) state.liveFigure = null;
  state.template = themedTemplate(payload.figure.layout.template, state.box);
  state.frame = null; // the server's figure is the slider's value once it has sent it
  state.shown = payload.frames && thumb(payload.frames.slider)?.getAttribute("aria-valuetext");
  // how many frames a slider can scrub through (tests wait for them)
  state.box.dataset.frames = payload.frames ? Object.keys(payload.frames.frames).length : 0;
  const height = payload.figure.layout.height || DEFAULT_HEIGHT;
  state.box.style.minHeight = `${height}px`; // the room, before Plotly has loaded
  schedule(state);
  const focused = state.keyed && sliderOf(document.activeElement, state.liveKeys);
  if (focused) prefetch(state, focused, state.direction);
}
