// The report page's script, part 3 of 4: the plots over time.
// ---------------------------------------------------------------- plots

const plots = [];

// A time plot: `series` share a y axis; each is {name, colour, t, v (NaN = no value), wrap
// (a heading: no line across 360 -> 0), step (counts: steps), dash, digits}.
function addPlot(spec) {
  const box = htmlEl('div', 'plot panel', null, $('plots'));
  const head = htmlEl('div', 'plot-head', null, box);
  htmlEl('h2', null, spec.title, head);
  const legend = htmlEl('span', 'legend', null, head);
  if (spec.series.length > 1 || mapBands.length) {
    for (const s of spec.series) {
      if (s.mirror) continue;  // (the other half of a ± pair, named once)
      const item = htmlEl('span', null, null, legend);
      htmlEl('span', 'swatch line', null, item).style.background = s.colour;
      item.appendChild(document.createTextNode(s.name));
    }
    if (mapBands.length) {
      const item = htmlEl('span', null, null, legend);
      htmlEl('span', 'swatch band', null, item);
      item.appendChild(document.createTextNode('map view'));
    }
  }
  const value = htmlEl('span', 'value', null, head);
  const svg = svgEl('svg', { height: spec.height || 92 }, box);
  const plot = { spec, svg, value, cursor: null, width: 0, x: null };
  const hasData = spec.series.some((s) => s.v.some((v) => !isNaN(v)));
  if (!hasData) {
    svg.style.display = 'none';
    htmlEl('div', 'no-data', 'No values.', box);
  }
  plot.hasData = hasData;

  // Click or drag: the frame nearest the time under the pointer.
  let dragging = false;
  const seek = (e) => {
    if (!plot.x) return;
    const rect = svg.getBoundingClientRect();
    go(nearestIndex(times, plot.x.invert(e.clientX - rect.left)));
  };
  svg.addEventListener('pointerdown', (e) => { if (e.button !== 0) return; dragging = true; svg.setPointerCapture(e.pointerId); seek(e); });
  svg.addEventListener('pointermove', (e) => { if (dragging) seek(e); });
  svg.addEventListener('pointerup', () => { dragging = false; });
  svg.addEventListener('pointercancel', () => { dragging = false; });
  plots.push(plot);
  return plot;
}

function renderPlot(plot) {
  const { spec, svg } = plot;
  const width = svg.clientWidth;
  if (!plot.hasData || !width || width === plot.width) return;
  plot.width = width;
  const height = spec.height || 92;
  const m = { l: 46, r: 10, t: 6, b: 18 };
  const w = width - m.l - m.r, h = height - m.t - m.b;
  svg.setAttribute('viewBox', '0 0 ' + width + ' ' + height);
  svg.textContent = '';

  // y range: fixed, or the data's (with zero when asked) padded to round ticks.
  let lo = Infinity, hi = -Infinity;
  if (spec.range) { lo = spec.range[0]; hi = spec.range[1]; }
  else {
    for (const s of spec.series) for (const v of s.v) if (!isNaN(v)) { lo = Math.min(lo, v); hi = Math.max(hi, v); }
    if (spec.zero) { lo = Math.min(lo, 0); hi = Math.max(hi, 0); }
    if (hi - lo < (spec.minSpan || 1)) { const c = (hi + lo) / 2; const half = (spec.minSpan || 1) / 2; lo = spec.zero && lo >= 0 ? 0 : c - half; hi = lo + 2 * half; }
    const pad = (hi - lo) * 0.06;
    if (!(spec.zero && lo === 0)) lo -= pad;
    hi += pad;
  }
  const yStep = spec.yStep || niceStep(hi - lo, 4);
  if (!spec.range) { lo = Math.floor(lo / yStep + 1e-9) * yStep; hi = Math.ceil(hi / yStep - 1e-9) * yStep; }
  const X = (t) => m.l + (t - tMin) / tSpan * w;
  X.invert = (x) => tMin + (x - m.l) / w * tSpan;
  const Y = (v) => m.t + (hi - v) / (hi - lo) * h;
  plot.x = X;

  const clipId = 'clip-' + plots.indexOf(plot);
  const clip = svgEl('clipPath', { id: clipId }, svgEl('defs', {}, svg));
  svgEl('rect', { x: m.l, y: m.t - 1, width: w, height: h + 2 }, clip);

  for (const b of mapBands) {
    const x0 = clamp(X(b[0]), m.l, m.l + w), x1 = clamp(X(b[1]), m.l, m.l + w);
    svgEl('rect', { x: r1(x0), y: m.t, width: Math.max(1, r1(x1 - x0)), height: h, fill: '#fff1c7' }, svg);
  }
  // Grid, ticks and their labels; a darker line at zero on signed axes.
  let grid = '';
  const yt = ticks(lo, hi, yStep);
  for (const v of yt) {
    grid += 'M' + m.l + ' ' + r1(Y(v)) + 'h' + w;
    svgEl('text', { x: m.l - 5, y: r1(Y(v)) + 3.5, 'text-anchor': 'end' }, svg).textContent = tickText(wrapped(v, spec.turn), yStep);
  }
  const tStep = tSpan >= 120 ? [1, 2, 5, 10, 15, 30, 60, 120, 300, 600, 900, 1800, 3600, 7200].find((s) => tSpan / s <= w / 90) || 7200 : niceStep(tSpan, Math.max(2, Math.floor(w / 90)));
  for (const t of ticks(tMin, tMax, tStep)) {
    grid += 'M' + r1(X(t)) + ' ' + m.t + 'v' + h;
    svgEl('text', { x: r1(X(t)), y: height - 5, 'text-anchor': 'middle' }, svg).textContent = timeTick(t, tStep, tSpan);
  }
  svgEl('path', { d: grid, stroke: '#eceff3', 'stroke-width': 1, fill: 'none' }, svg);
  if (lo < 0 && hi > 0) svgEl('path', { d: 'M' + m.l + ' ' + r1(Y(0)) + 'h' + w, stroke: '#b9c2cc', 'stroke-width': 1 }, svg);
  svgEl('rect', { x: m.l, y: m.t, width: w, height: h, fill: 'none', stroke: '#ccd3db' }, svg);

  for (const s of spec.series) {
    let d = '', pen = false, prev = NaN;
    for (let i = 0; i < s.v.length; i++) {
      const v = s.v[i], t = s.t[i];
      if (isNaN(v) || isNaN(t)) { pen = false; continue; }
      if (pen && s.wrap && Math.abs(v - prev) > 180) pen = false;
      const x = r1(X(t)), y = r1(Y(v));
      if (!pen) d += 'M' + x + ' ' + y;
      else if (s.step) d += 'H' + x + 'V' + y;
      else d += 'L' + x + ' ' + y;
      pen = true;
      prev = v;
    }
    const attrs = { d, fill: 'none', stroke: s.colour, 'stroke-width': s.width || 1.4, 'stroke-linejoin': 'round', 'clip-path': 'url(#' + clipId + ')' };
    if (s.dash) attrs['stroke-dasharray'] = s.dash;
    svgEl('path', attrs, svg);
  }
  plot.cursor = svgEl('path', { d: 'M0 ' + (m.t - 2) + 'v' + (h + 4), stroke: '#d32f2f', 'stroke-width': 1.5 }, svg);
  placeCursor(plot);
}

function placeCursor(plot) {
  if (!plot.cursor || current < 0) return;
  plot.cursor.setAttribute('transform', 'translate(' + r1(plot.x(times[current])) + ',0)');
}

// The plots' series.
(function buildPlots() {
  const frameSeries = (name, key, colour, extra) => Object.assign({ name, colour, t: times, v: column(key), digits: 1 }, extra || {});
  // Heading and facing unwrapped around the heading's median (labels wrapped back to 0–360),
  // roll around zero (labels within ±180): a sway reads at its size, a turn past north does not
  // jump across the plot.
  const heading = frameSeries('heading', 'heading', '#1565c0');
  heading.v = unwrapped(heading.v, 180);
  const headingMedian = Array.from(heading.v).filter((v) => !isNaN(v)).sort((a, b) => a - b)[heading.v.length >> 1];
  const facing = frameSeries('facing', 'facing', '#8e24aa', { dash: '4 3', width: 1.2 });
  facing.v = unwrapped(facing.v, headingMedian == null ? 180 : headingMedian);
  // Facing is heading's twin while the phone is upright; plot it only where they part.
  let parts = false;
  for (let i = 0; i < n && !parts; i++) {
    if (Math.abs(wrapped(heading.v[i] - facing.v[i], 180)) > 5) parts = true;
  }
  addPlot({ title: 'Heading (\u00b0)', series: parts ? [heading, facing] : [heading], minSpan: 10, turn: 360, unit: '\u00b0' });
  const roll = frameSeries('roll', 'roll', '#ef6c00');
  roll.v = unwrapped(roll.v, 0);
  addPlot({ title: 'Pitch and roll (\u00b0)', series: [frameSeries('pitch', 'pitch', '#2e7d32'), roll], zero: true, turn: 180, unit: '\u00b0' });
  addPlot({ title: 'GPS accuracy (m)', series: [frameSeries('accuracy', 'accuracy', '#6a1b9a')], zero: true, unit: ' m', height: 72 });
  addPlot({ title: 'Labels per frame', series: [
    frameSeries('drawn', 'drawn', '#1565c0', { step: true, digits: 0 }),
    frameSeries('occluded', 'occluded', '#c62828', { step: true, digits: 0 })], zero: true, minSpan: 4, height: 80 });
  // The heading's 68 % bound, ±σ: beside the error when there is a truth (about 2 in 3 of
  // the error's values within it), else on its own.
  const sigma = frameSeries('\u00b1\u03c3 (68 % bound)', 'heading_sigma', '#616161', { dash: '3 3', width: 1.1 });
  const hasSigma = sigma.v.some((v) => !isNaN(v));
  const sigmaPair = hasSigma ? [sigma, Object.assign({}, sigma, { name: '\u2212\u03c3', v: sigma.v.map((v) => -v), mirror: true })] : [];
  if (hasSigma && !truth) {
    addPlot({ title: 'Heading uncertainty, 68 % bound (\u00b0)', series: [sigma], zero: true, unit: '\u00b0', height: 72 });
  }
  if (truth) {
    const te = (name, key, colour, extra) => Object.assign({ name, colour, t: truthTimes, v: truthColumn(key), digits: 2, truth: true }, extra || {});
    // A heading error near ±180° wraps like a heading: no line across.
    addPlot({ title: 'Heading error vs truth (\u00b0)', series: [te('heading error', 'heading', '#ad1457', { wrap: true })].concat(sigmaPair), zero: true, unit: '\u00b0', height: 80 });
    addPlot({ title: 'Inclination error vs truth (\u00b0)', series: [te('inclination error', 'inclination', '#00838f')], zero: true, unit: '\u00b0', height: 80 });
  }
})();

function plotValues(i) {
  for (const plot of plots) {
    const texts = [];
    for (const s of plot.spec.series) {
      if (s.mirror) continue;
      let v = NaN;
      if (s.truth) {
        // The error nearest the frame's time (within a frame period).
        const j = nearestIndex(s.t, times[i]);
        if (j >= 0 && Math.abs(s.t[j] - times[i]) <= Math.max(period, 1e-6) * 0.75) v = s.v[j];
      } else v = s.v[i];
      const text = isNaN(v) ? '\u2013' : signed(wrapped(v, plot.spec.turn).toFixed(s.digits)) + (plot.spec.unit || '');
      texts.push(plot.spec.series.length > 1 ? s.name + ' ' + text : text);
    }
    plot.value.textContent = texts.join('   ');
  }
}

