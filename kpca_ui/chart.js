// The chart of kpca_ui/chart.py (a Streamlit components v2 module).
//
// Streamlit calls the default export on mount and whenever `data` or the theme change, with
// the same parentElement: the graph is built once per parentElement (STATES) and updated
// with Plotly.react, which redraws only what changed.  data: the bytes of {figure, config,
// width, plotly, frames, live} as JSON; Plotly's script (URL `plotly`) is loaded once per page.
//
// Scrubbing: frames = {slider, frames: {<value as shown>: {data, layout}}}.  While that
// Streamlit slider is held (or after a key press on it), its thumb's aria-valuetext is read
// at every animation frame and that value's frame drawn; the slider sends its value itself.
//
// Live: live = {sliders, url}.  While one of those sliders is held, the figure at the value
// under its thumb is asked for at `url` (kpca_ui/live.py: no script run) and drawn, one
// request at a time for the newest value.  At the release the page's run's figure replaces
// it (released where pressed: the page's figure at once).  With live.drawing = {prefix, seq}
// the chart follows that drawing canvas's "kpca-drawing" events (draw_canvas.js) the same
// way, until the page's figure of the canvas's last edit has come.  A live numeric slider
// reached by the keyboard has the figures one step either way asked for ahead.

const STATES = new WeakMap();
const DEFAULT_HEIGHT = 450; // Plotly's and st.plotly_chart's default height
const MIN_WIDTH = 150;

function loadPlotly(url) {
  if (!window.__kpcaPlotly) {
    window.__kpcaPlotly = window.Plotly
      ? Promise.resolve(window.Plotly)
      : new Promise((resolve, reject) => {
          const script = document.createElement("script");
          script.src = url;
          script.async = true;
          script.onload = () => resolve(window.Plotly);
          script.onerror = () => {
            window.__kpcaPlotly = null;
            reject(new Error(`could not load Plotly from ${url}`));
          };
          document.head.appendChild(script);
        });
  }
  return window.__kpcaPlotly;
}

function build(root) {
  const box = document.createElement("div");
  box.className = "kc";
  const graph = document.createElement("div");
  graph.className = "kc-graph";
  box.appendChild(graph);
  root.appendChild(box);
  const state = { box, graph, payload: null, frame: null, drawing: false, again: false,
                  width: 0, shown: null, held: null, following: false, quiet: 0,
                  listening: false, template: null, liveSent: null, liveStart: null, awaiting: null,
                  sketch: null, sketchSent: null, drawingHeard: false,
                  inFlight: false, liveFigure: null, drawn: null, asked: new Map(),
                  askedUrl: null };
  new ResizeObserver(() => {
    const width = box.clientWidth;
    if (state.payload && width > 0 && width !== state.width) schedule(state);
  }).observe(box);
  return state;
}

// ---- Streamlit's theme for Plotly, as st.plotly_chart applies it -------------------------

function cssVar(style, name, fallback) {
  const value = style.getPropertyValue(name).trim();
  return value || fallback;
}

const RGB = new Map(); // a colour's channels, by its CSS text: read once per page

function rgb(colour) {
  if (!RGB.has(colour)) RGB.set(colour, channels(colour));
  return RGB.get(colour);
}

function channels(colour) {
  const probe = document.createElement("span");
  probe.style.color = colour;
  document.body.appendChild(probe);
  const found = getComputedStyle(probe).color.match(/[\d.]+/g) || [255, 255, 255];
  probe.remove();
  return found.slice(0, 3).map(Number);
}

function themeOf(element) {
  const style = getComputedStyle(element);
  const bg = cssVar(style, "--st-background-color", "#ffffff");
  const text = cssVar(style, "--st-text-color", "#31333F");
  const [r, g, b] = rgb(bg);
  const dark = 0.2126 * r + 0.7152 * g + 0.0722 * b < 128;
  const list = (name) => cssVar(style, name, "").split(",").map((s) => s.trim()).filter(Boolean);
  return {
    dark,
    bg,
    text,
    heading: cssVar(style, "--st-heading-color", text),
    // st.plotly_chart's text, grid lines and legend (Streamlit's greys 70/30, 30/85, 90/10)
    faded: dark ? "#e6eaf1" : "#808495",
    grid: dark ? "#31333F" : "#e6eaf1",
    legend: dark ? "#fafafa" : "#262730",
    border: cssVar(style, "--st-border-color", dark ? "#4A4742" : "#DCD8D4"),
    font: cssVar(style, "--st-font", '"Source Sans", sans-serif'),
    headingFont: cssVar(style, "--st-heading-font", cssVar(style, "--st-font", "sans-serif")),
    categorical: list("--st-chart-categorical-colors"),
    sequential: list("--st-chart-sequential-colors"),
    diverging: list("--st-chart-diverging-colors"),
  };
}

function placeholders(theme) {
  // streamlit's Python template (streamlit_plotly_theme.py) names its colours #0000NN
  const map = {};
  const put = (first, colours) =>
    colours.forEach((c, i) => { map[`#0000${String(first + i).padStart(2, "0")}`] = c; });
  put(1, theme.categorical.slice(0, 10));
  put(11, theme.sequential.slice(0, 10));
  put(21, theme.diverging.slice(0, 10));
  Object.assign(map, { "#000032": "#21c354", "#000033": "#ff2b2b", "#000034": "#0068c9",
                       "#000036": theme.faded, "#000037": theme.legend, "#000038": theme.bg,
                       "#000039": theme.grid, "#000040": theme.grid });
  return map;
}

function merge(target, source) {
  // source's values override target's, recursively (lodash's merge, as st.plotly_chart
  // puts its theme over a figure's template; the figure's own layout still wins)
  for (const [k, v] of Object.entries(source)) {
    target[k] = plain(v) && plain(target[k]) ? merge(target[k], v) : v;
  }
  return target;
}

function themedTemplate(template, theme) {
  const map = placeholders(theme);
  const text = JSON.stringify(template || {}).replace(/#0000\d\d/g, (c) => map[c] || c);
  const themed = JSON.parse(text);
  const axis = (standoff) => ({
    zerolinecolor: theme.grid, gridcolor: theme.grid, tickcolor: theme.grid,
    tickfont: { color: theme.faded, size: 12 },
    title: { font: { color: theme.faded, size: 14 }, standoff },
    minor: { gridcolor: theme.grid }, automargin: true,
  });
  const own = {
    font: { color: theme.faded, family: theme.font, size: 12 },
    title: { font: { family: theme.headingFont, size: 16, color: theme.heading },
             pad: { l: 4 }, xanchor: "left", x: 0 },
    legend: { title: { font: { size: 12, color: theme.faded }, side: "top" }, valign: "top",
              bordercolor: "rgba(0,0,0,0)", borderwidth: 0,
              font: { size: 12, color: theme.legend } },
    paper_bgcolor: theme.bg,
    plot_bgcolor: theme.bg,
    yaxis: { ...axis(24), ticklabelposition: "outside" },
    xaxis: { ...axis(20), showgrid: false, zeroline: false },
    margin: { pad: 8, r: 0, l: 0 },
    hoverlabel: { bgcolor: theme.bg, bordercolor: theme.border,
                  font: { color: theme.faded, family: theme.font, size: 12 } },
    coloraxis: { colorbar: { thickness: 16, xpad: 24, ticklabelposition: "outside",
                             outlinecolor: "rgba(0,0,0,0)", outlinewidth: 8, len: 0.75,
                             y: 0.5745, title: { font: { color: theme.faded, size: 14 } },
                             tickfont: { color: theme.faded, size: 12 } } },
  };
  themed.layout = merge(themed.layout || {}, own);
  return themed;
}

function bold(title) {
  // st.plotly_chart's titles are bold
  if (!title || (typeof title !== "string" && !title.text)) return title;
  const t = typeof title === "string" ? { text: title } : title;
  return { ...t, text: `<b>${t.text}</b>` };
}

// ---- drawing -----------------------------------------------------------------------------

const plain = (x) => x && typeof x === "object" && !Array.isArray(x) && !ArrayBuffer.isView(x);

function named(items, changes) {
  // layout items (shapes, annotations) with a frame's changes to those of its names
  return (items || []).map((item) =>
    item && changes[item.name] ? { ...item, ...changes[item.name] } : item);
}

function applyFrame(figure, frame) {
  if (!frame) return figure;
  const data = figure.data.map((trace, i) =>
    frame.data && frame.data[i] ? { ...trace, ...frame.data[i] } : trace);
  const layout = { ...figure.layout };
  for (const [k, v] of Object.entries(frame.layout || {})) {
    const was = layout[k];
    layout[k] = plain(v) && plain(was) ? { ...was, ...v } : v;
  }
  for (const list of ["shapes", "annotations"]) {
    if (frame[list]) layout[list] = named(layout[list], frame[list]);
  }
  return { data, layout };
}

function decoded(value) {
  // Plotly's typed-array spec {dtype, bdata} (numpy from the server) as a typed array
  if (!plain(value) || typeof value.bdata !== "string" || !value.dtype) return value;
  const types = { f4: Float32Array, f8: Float64Array, i1: Int8Array, u1: Uint8Array,
                  i2: Int16Array, u2: Uint16Array, i4: Int32Array, u4: Uint32Array };
  const Type = types[value.dtype];
  if (!Type || value.shape) return value; // a matrix: left to Plotly
  const bytes = Uint8Array.from(atob(value.bdata), (c) => c.charCodeAt(0));
  return new Type(bytes.buffer);
}

function frameUpdate(state, frame) {
  // A frame as the arguments of ONE Plotly.update: the traces it changes (their new
  // values), the layout keys it changes, its named marks moved.  Made once per frame.
  if (frame.__update) return frame.__update;
  const shown = state.payload.figure;
  const traces = (frame.data || []).flatMap((change, i) => (change ? [i] : []));
  const keys = [...new Set(traces.flatMap((i) => Object.keys(frame.data[i])))];
  const data = {};
  for (const key of keys) {
    data[key] = traces.map((i) =>
      decoded(key in frame.data[i] ? frame.data[i][key] : shown.data[i][key]));
  }
  const layout = {};
  for (const [k, v] of Object.entries(frame.layout || {})) {
    if (k === "title") layout.title = bold({ ...(plain(shown.layout.title)
      ? shown.layout.title : { text: shown.layout.title }), ...(plain(v) ? v : { text: v }) });
    else if (plain(v)) { // an axis's changes: its other settings stay
      for (const [key, value] of Object.entries(v)) layout[`${k}.${key}`] = value;
    } else layout[k] = v;
  }
  for (const list of ["shapes", "annotations"]) {
    (shown.layout[list] || []).forEach((item, i) => {
      const change = frame[list] && item && frame[list][item.name];
      for (const [k, v] of Object.entries(change || {})) layout[`${list}[${i}].${k}`] = v;
    });
  }
  frame.__update = { data, layout, traces };
  return frame.__update;
}

function axis(full, ref) {
  // the full axis of a layout item's reference ("x", "x2"; "paper": none)
  return ref === "paper" ? null : full[`xaxis${(ref || "x").slice(1)}`];
}

function moveMarks(state, frame) {
  // A frame that only moves named marks (the Spectrum's chosen width): their drawn elements
  // shifted and relabelled in place, far cheaper than a Plotly.relayout (restore() undoes it).
  const gd = state.graph;
  const full = gd._fullLayout;
  if (!full || frame.data || frame.layout) return false;
  const moves = [];
  for (const list of ["shapes", "annotations"]) {
    const changes = frame[list] || {};
    (gd.layout[list] || []).forEach((item, i) => {
      const change = item && changes[item.name];
      if (!change) return;
      const ax = axis(full, item.xref);
      const selector = list === "shapes" ? `.shapelayer path[data-index="${i}"]`
        : `.annotation[data-index="${i}"]`;
      const element = gd.querySelector(selector);
      if (!ax || !element) return moves.push(null);
      // shapes are placed by data value, annotations on a log axis by its log10
      const px = (x) => (list === "shapes" ? ax.l2p(ax.d2l(x)) : ax.l2p(x));
      const dx = px(list === "shapes" ? change.x0 : change.x) - px(list === "shapes"
        ? item.x0 : item.x);
      moves.push({ element, dx, text: list === "annotations" ? change.text : null });
    });
  }
  if (!moves.length || moves.includes(null) || moves.some((m) => !Number.isFinite(m.dx))) {
    return false;
  }
  for (const { element, dx, text } of moves) {
    element.setAttribute("transform", `translate(${dx.toFixed(2)},0)`);
    const label = text !== null && element.querySelector(".annotation-text");
    if (label) label.textContent = text;
  }
  state.moved = moves.map((m) => m.element);
  return true;
}

function drawnValue(layout, path) {
  // a layout value by its dotted path ("yaxis.range"); undefined if none
  return path.split(".").reduce((value, key) => (plain(value) ? value[key] : undefined), layout);
}

function sameValue(a, b) {
  return Array.isArray(a) && Array.isArray(b)
    ? a.length === b.length && a.every((x, i) => x === b[i]) : a === b;
}

function retitle(gd, text) {
  // A function setting the drawn title's words in place when only they differ from `text`
  // (same markup), or null; a Plotly.relayout of a title costs about a whole update.
  const title = gd.layout.title;
  const element = gd.querySelector(".gtitle");
  const tags = (t) => (t.match(/<[^>]*>/g) || []).join("");
  const words = (t) => t.split(/<[^>]*>/).filter(Boolean);
  if (!plain(title) || typeof title.text !== "string" || !element) return null;
  if (tags(title.text) !== tags(text)) return null;
  const nodes = [];
  const walker = document.createTreeWalker(element, NodeFilter.SHOW_TEXT);
  while (walker.nextNode()) if (walker.currentNode.nodeValue.replace(/\u200b/g, "")) {
    nodes.push(walker.currentNode);
  }
  const drawn = words(title.text);
  const next = words(text);
  if (nodes.length !== drawn.length || nodes.some((node, i) => node.nodeValue !== drawn[i])) {
    return null;
  }
  return () => {
    nodes.forEach((node, i) => { node.nodeValue = next[i]; });
    title.text = text;
  };
}

function glide(state, frame) {
  // A frame that changes only traces' y, the title's words and layout values already drawn
  // (the Spectrum's bars): traces moved by Plotly.animate without a redraw, the title set in
  // place, much quicker than a Plotly.update.  Another frame: false (quick() draws it).
  const gd = state.graph;
  const { data, layout, traces } = frameUpdate(state, frame);
  if (!traces.length || Object.keys(data).some((key) => key !== "y")) return false;
  const fixed = Object.keys(layout).filter((key) => key !== "title");
  if (!fixed.length || fixed.some((key) => !sameValue(drawnValue(gd.layout, key), layout[key]))) {
    return false;
  }
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
      state.drawing = false;
      if (state.again) {
        state.again = false;
        schedule(state);
      }
    });
}

function quick(state, Plotly, frame) {
  // a scrubbed frame on the graph already drawn: only what the frame changes
  const { data, layout, traces } = frameUpdate(state, frame);
  restore(state);
  state.drawing = true;
  const changed = traces.length ? data : {};
  const update = Plotly.update(state.graph, changed, layout, traces.length ? traces : undefined);
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
  if (state.box.clientWidth === 0) {
    // not shown (a tab not chosen): drawn once it has a width, as st.plotly_chart does
    state.width = 0;
    return;
  }
  if (state.drawing) {
    state.again = true; // the newest wins: one more drawing after this one, never a queue
    return;
  }
  state.drawing = true;
  const Plotly = loadPlotly(state.payload.plotly);
  settled(state, Plotly.then((loaded) => inTurn(() => draw(state, loaded))));
}

function draw(state, Plotly) {
  const { payload } = state;
  restore(state);
  const held = state.liveFigure;
  const figure = applyFrame(held || payload.figure, state.frame);
  const own = figure.layout.width;
  const room = Math.max(state.box.clientWidth, MIN_WIDTH);
  state.width = state.box.clientWidth;
  // the template made once per figure and theme: a frame's drawing reuses it
  const layout = { ...figure.layout, template: state.template, title: bold(figure.layout.title) };
  layout.width = payload.width === "content" && own ? Math.min(own, room) : room;
  layout.height = figure.layout.height || DEFAULT_HEIGHT;
  layout.autosize = false;
  const config = { displaylogo: false, showSendToCloud: false, ...payload.config,
                   responsive: false };
  config.modeBarButtonsToRemove = [...(config.modeBarButtonsToRemove || []),
                                   "lasso2d", "select2d", "sendChartToCloud"];
  const spec = { data: figure.data, layout, config };
  if (payload.figure.frames) spec.frames = payload.figure.frames; // an animation's (the film)
  return Plotly.react(state.graph, spec).then(() => {
    state.drawn = held ? null : payload; // a scrubbed frame may now change it in place (quick)
  });
}

// ---- scrubbing ---------------------------------------------------------------------------

const FOLLOW_FRAMES = 30; // after the release or a key press, the thumb is read this long
const LIVE_WAIT_MS = 5000; // a live figure not come this long is no longer waited for

function thumb(slider) {
  return document.querySelector(`.st-key-${CSS.escape(slider)} input[type="range"]`);
}

function thumbText(slider) {
  const input = thumb(slider);
  return input && input.getAttribute("aria-valuetext");
}

function liveSliders(payload) {
  return payload.live ? payload.live.sliders : [];
}

function sliders(payload) {
  return [payload.frames && payload.frames.slider, ...liveSliders(payload)].filter(Boolean);
}

function liveNumber(input) {
  // the value as shown (a select slider's input value is an option's index)
  const shown = Number(input.getAttribute("aria-valuetext"));
  return Number.isFinite(shown) ? shown : Number(input.value);
}

function scrub(state) {
  // the frame of the value the scrubbed slider shows, drawn here: at once, in this
  // animation frame, when the graph is drawn and free (else at a later one: the newest)
  const frames = state.payload.frames;
  if (!frames) return;
  const shown = thumbText(frames.slider);
  if (shown === state.shown || !(shown in frames.frames)) return;
  if (state.drawing) return;
  state.shown = shown;
  state.frame = frames.frames[shown];
  const ready = window.Plotly && state.drawn === state.payload && state.width > 0;
  if (ready && (moveMarks(state, state.frame) || glide(state, state.frame))) return;
  if (ready) quick(state, window.Plotly, state.frame);
  else schedule(state);
}

function live(state) {
  // the figure at the live slider's value while it is held (or released, until the page's
  // own figure comes): one request at a time, for the newest value
  const slider = state.held || state.awaiting;
  const input = slider && liveSliders(state.payload).includes(slider) ? thumb(slider) : null;
  if (!input || state.inFlight) return;
  const value = liveNumber(input);
  if (!Number.isFinite(value) || value === state.liveSent) return;
  state.liveSent = value;
  state.inFlight = true;
  ask(state, slider, value)
    .then((figure) => {
      // drawn while the slider is held (the newest figure come), or, once it is not, if
      // the page's own figure has not come meanwhile and the value is still the slider's
      const now = thumb(slider);
      const valid = state.held === slider
        || (state.awaiting === slider && now && liveNumber(now) === value);
      if (figure && valid) {
        state.liveFigure = figure; // the next value is asked for while this one is drawn
        schedule(state);
      }
    })
    .catch(() => {}) // refused or failed: the picture follows at the release
    .finally(() => { state.inFlight = false; });
}

function request(url, slider, value) {
  const query = new URLSearchParams({ slider, value: String(value) });
  return fetch(`${url}?${query}`, { signal: AbortSignal.timeout(LIVE_WAIT_MS) })
    .then((response) => (response.ok ? response.json() : null))
    .catch(() => null); // refused or failed: the picture follows at the release
}

function askedAhead(state) {
  // the figures asked for ahead (prefetch), for the page's current settings only
  const { url } = state.payload.live;
  if (state.askedUrl !== url) {
    state.askedUrl = url;
    state.asked.clear();
  }
  return state.asked;
}

function ask(state, slider, value) {
  // the figure at the slider's value: the one asked for ahead, or asked for now
  const ahead = askedAhead(state).get(`${slider}=${value}`);
  return ahead || request(state.payload.live.url, slider, value);
}

function decimals(step) {
  const text = String(step);
  return text.includes(".") ? text.split(".")[1].length : 0;
}

function prefetch(state, slider, direction) {
  // A live numeric slider with the keyboard's focus: the figure one step along (both ways, or
  // the last arrow key's) asked for now, so that the next key press draws it at once.
  const input = thumb(slider);
  if (!input || state.held || !state.payload.live) return;
  const value = liveNumber(input);
  const step = Number(input.step);
  if (!Number.isFinite(value) || Number(input.value) !== value || !(step > 0)) return;
  for (const sign of direction ? [direction] : [-1, 1]) {
    const next = Number((value + sign * step).toFixed(decimals(input.step)));
    const key = `${slider}=${next}`;
    const asked = askedAhead(state);
    if (next >= Number(input.min) && next <= Number(input.max) && !asked.has(key)) {
      asked.set(key, request(state.payload.live.url, slider, next));
    }
  }
}

function focusedSlider(state) {
  const active = document.activeElement;
  return active instanceof Element
    ? liveSliders(state.payload).find((slider) => active.closest(`.st-key-${CSS.escape(slider)}`))
    : undefined;
}

function sketched(state) {
  // the newest drawing posted, one request at a time; returns the request (none when one
  // is in flight), settled once its figure is drawn or refused
  const sketch = state.sketch;
  if (!sketch || sketch === state.sketchSent || state.inFlight) return;
  state.sketchSent = sketch;
  state.inFlight = true;
  const body = JSON.stringify({ points: sketch.points, half: sketch.half });
  return fetch(state.payload.live.url, { method: "POST", body,
                                         headers: { "Content-Type": "application/json" },
                                         signal: AbortSignal.timeout(LIVE_WAIT_MS) })
    .then((response) => (response.ok ? response.json() : null))
    .then((figure) => {
      if (figure && state.sketch) { // the page's figure of the newest edit has not come
        state.liveFigure = figure;
        schedule(state);
      }
    })
    .catch(() => {}) // refused (fewer than 3 points) or failed: the page's figure follows
    .finally(() => {
      state.inFlight = false;
      sketched(state);
    });
}

function followDrawing(state) {
  if (state.drawingHeard) return;
  state.drawingHeard = true;
  const changed = (event) => {
    const drawing = state.payload.live && state.payload.live.drawing;
    if (!state.box.isConnected) {
      document.removeEventListener("kpca-drawing", changed);
      return;
    }
    if (!drawing || !event.detail || event.detail.prefix !== drawing.prefix) return;
    state.sketch = event.detail;
    const asked = sketched(state);
    // a finished edit is sent to the page's run once this figure has come
    if (asked && event.detail.waitFor) event.detail.waitFor(asked);
  };
  document.addEventListener("kpca-drawing", changed);
}

function follow(state) {
  // while a slider is held (and a little after), its thumb read at every animation frame
  state.quiet = 0;
  if (state.following) return;
  state.following = true;
  const tick = () => {
    if (!state.box.isConnected || !sliders(state.payload).length) {
      state.following = false;
      return;
    }
    scrub(state);
    live(state);
    if (!state.held && ++state.quiet > FOLLOW_FRAMES) {
      state.following = false;
      return;
    }
    requestAnimationFrame(tick);
  };
  requestAnimationFrame(tick);
}

function listen(state) {
  if (state.listening) return;
  state.listening = true;
  const mine = (event) =>
    event.target instanceof Element &&
    sliders(state.payload).find((slider) => event.target.closest(`.st-key-${CSS.escape(slider)}`));
  const down = (event) => {
    if (!state.box.isConnected) {
      document.removeEventListener("pointerdown", down, true);
      document.removeEventListener("pointerup", up, true);
      document.removeEventListener("pointercancel", up, true);
      document.removeEventListener("keydown", key, true);
      document.removeEventListener("focusin", focus, true);
      return;
    }
    const slider = mine(event);
    if (slider) {
      state.held = slider;
      state.keyed = false;
      const isLive = liveSliders(state.payload).includes(slider);
      state.liveStart = isLive ? liveNumber(thumb(slider)) : null;
      state.liveSent = state.liveStart; // only a new value is asked for
      follow(state);
    }
  };
  const up = () => {
    // released: the slider sends its own value if it changed, and that run's figure
    // replaces the held one; released where it was pressed, the page's figure is drawn
    const slider = state.held;
    state.held = null;
    const input = slider && thumb(slider);
    if (!input || !liveSliders(state.payload).includes(slider)) return;
    if (liveNumber(input) !== state.liveStart) {
      state.awaiting = slider; // its value is sent: meanwhile the figure at that value
    } else if (state.liveFigure) {
      state.liveFigure = null;
      schedule(state);
    }
  };
  const key = (event) => {
    const slider = mine(event);
    if (!slider) return;
    if (liveSliders(state.payload).includes(slider) && !state.held) {
      // the key moves the thumb: the figure at its new value, asked for ahead or now
      state.awaiting = slider;
      state.liveSent = liveNumber(thumb(slider));
      state.direction = { ArrowRight: 1, ArrowUp: 1, ArrowLeft: -1, ArrowDown: -1 }[event.key];
      state.keyed = true;
    }
    follow(state);
  };
  const focus = (event) => {
    // reached by the keyboard (Tab), not by a click that may start a drag
    const slider = mine(event);
    if (slider && liveSliders(state.payload).includes(slider)
        && event.target.matches(":focus-visible")) prefetch(state, slider, null);
  };
  document.addEventListener("pointerdown", down, true);
  document.addEventListener("pointerup", up, true);
  document.addEventListener("pointercancel", up, true); // a touch taken over by the page
  document.addEventListener("keydown", key, true);
  document.addEventListener("focusin", focus, true);
}

export default function ({ data, parentElement }) {
  let state = STATES.get(parentElement);
  if (!state) {
    state = build(parentElement);
    STATES.set(parentElement, state);
  }
  state.payload = JSON.parse(new TextDecoder().decode(data));
  state.awaiting = null; // the page's own figure has come
  const drawing = state.payload.live && state.payload.live.drawing;
  // a figure of the drawing before its newest change: the figure asked for stays
  const behind = Boolean(state.sketch && drawing && state.sketch.seq !== drawing.seq);
  if (!behind) state.sketch = null;
  // the release's figure (or the edit's) replaces the one asked for
  if (!state.held && !behind) state.liveFigure = null;
  if (drawing) followDrawing(state);
  state.template = themedTemplate(state.payload.figure.layout.template, themeOf(state.box));
  state.frame = null; // the server's figure is the slider's value once it has sent it
  state.shown = state.payload.frames ? thumbText(state.payload.frames.slider) : null;
  // how many frames a slider can scrub through (tests wait for them)
  state.box.dataset.frames = state.payload.frames ? Object.keys(state.payload.frames.frames).length : 0;
  const height = state.payload.figure.layout.height || DEFAULT_HEIGHT;
  state.box.style.minHeight = `${height}px`; // the room, before Plotly has loaded
  if (sliders(state.payload).length) listen(state);
  schedule(state);
  const focused = state.keyed && focusedSlider(state);
  if (focused) prefetch(state, focused, state.direction);
}
