(function () {
'use strict';

const root = document.documentElement;
const $ = (id) => document.getElementById(id);
const SVG = 'http://www.w3.org/2000/svg';
const data = JSON.parse($('poiar-data').textContent);
const palette = JSON.parse($('poiar-palette').textContent);
const frames = Array.isArray(data.frames) ? data.frames : [];
const n = frames.length;
const truth = data.truth && Array.isArray(data.truth.errors) ? data.truth : null;
const MINUS = '\u2212';

// ---------------------------------------------------------------- helpers

function num(v) { return typeof v === 'number' && isFinite(v) ? v : null; }
// A typographic minus; none on a number that rounds to zero ("0.00", not "−0.00").
function signed(text) { return /^-0(\.0*)?$/.test(text) ? text.slice(1) : text.replace('-', MINUS); }
function fixed(v, digits, unit) { return v == null ? '\u2013' : signed(v.toFixed(digits)) + (unit || ''); }
function colourOf(category) { return palette.colours[category] || palette.other; }
function clamp(v, lo, hi) { return Math.min(hi, Math.max(lo, v)); }
function r1(v) { return Math.round(v * 10) / 10; }

function svgEl(tag, attrs, parent) {
  const el = document.createElementNS(SVG, tag);
  for (const k in attrs) el.setAttribute(k, attrs[k]);
  if (parent) parent.appendChild(el);
  return el;
}
function htmlEl(tag, className, text, parent) {
  const el = document.createElement(tag);
  if (className) el.className = className;
  if (text != null) el.textContent = text;
  if (parent) parent.appendChild(el);
  return el;
}

// 1, 2 or 5 times a power of ten, near span / count.
function niceStep(span, count) {
  const raw = span / Math.max(1, count);
  if (!(raw > 0) || !isFinite(raw)) return 1;
  const p = Math.pow(10, Math.floor(Math.log10(raw)));
  const m = raw / p;
  return (m < 1.5 ? 1 : m < 3.5 ? 2 : m < 7.5 ? 5 : 10) * p;
}
function ticks(lo, hi, step) {
  const out = [];
  if (!(step > 0) || !isFinite(lo) || !isFinite(hi)) return out;
  const first = Math.ceil(lo / step - 1e-9);
  // Multiples of the step (not sums, which drift); a bound against a step too small.
  for (let k = first; k * step <= hi + step * 1e-9 && out.length < 1000; k++) out.push(k === 0 ? 0 : k * step);
  return out;
}
function tickText(v, step) {
  const digits = step >= 1 ? 0 : Math.min(6, Math.ceil(-Math.log10(step) - 1e-9));
  return signed(v.toFixed(digits));
}

// Seconds as "12.5 s", or "3:07.5" from a minute on.
function clock(t) {
  if (t == null) return '\u2013';
  if (Math.abs(t) < 60) return signed(t.toFixed(2)) + ' s';
  const sign = t < 0 ? MINUS : '';
  const a = Math.round(Math.abs(t) * 10) / 10;  // so 59.96 s is 1:00.0, not 0:60.0
  const m = Math.floor(a / 60);
  const s = a - m * 60;
  return sign + m + ':' + (s < 10 ? '0' : '') + s.toFixed(1);
}
function timeTick(t, step, span) {
  if (span < 120) return tickText(t, step) + ' s';
  const sign = t < 0 ? MINUS : '';
  const a = Math.abs(Math.round(t));
  const h = Math.floor(a / 3600);
  const m = Math.floor(a / 60) % 60;
  const s = a % 60;
  const mm = h > 0 ? (m < 10 ? '0' : '') + m : String(m);
  return sign + (h > 0 ? h + ':' : '') + mm + ':' + (s < 10 ? '0' : '') + s;
}
function metres(m) {
  if (m >= 1000) return signed((m / 1000).toFixed(m % 1000 === 0 ? 0 : 1)) + ' km';
  return Math.round(m) + ' m';
}

// First index with arr[i] >= x (arr ascending).
function lowerBound(arr, x) {
  let lo = 0, hi = arr.length;
  while (lo < hi) { const mid = (lo + hi) >> 1; if (arr[mid] < x) lo = mid + 1; else hi = mid; }
  return lo;
}
function nearestIndex(arr, x) {
  if (arr.length === 0) return -1;
  const i = lowerBound(arr, x);
  if (i <= 0) return 0;
  if (i >= arr.length) return arr.length - 1;
  return x - arr[i - 1] <= arr[i] - x ? i - 1 : i;
}

// ---------------------------------------------------------------- per-frame series

const times = new Float64Array(n);
const numbers = new Float64Array(n);
for (let i = 0; i < n; i++) {
  const t = num(frames[i].time);
  times[i] = t == null ? (i > 0 ? times[i - 1] : 0) : t;
  numbers[i] = num(frames[i].frame) == null ? i + 1 : frames[i].frame;
}
function column(key) {
  const out = new Float64Array(n);
  for (let i = 0; i < n; i++) { const v = num(frames[i][key]); out[i] = v == null ? NaN : v; }
  return out;
}
// An angle series made continuous (a step of more than 180 degrees is taken the short way
// round), then moved by whole turns so its median lies within 180 degrees of `centre`: a
// sway of 20 degrees either side of north plots as one wave, not two lines at 0 and 360.
function unwrapped(values, centre) {
  const out = Float64Array.from(values);
  let prev = NaN, offset = 0;
  for (let i = 0; i < out.length; i++) {
    if (isNaN(out[i])) continue;
    if (!isNaN(prev)) offset -= 360 * Math.round((values[i] + offset - prev) / 360);
    out[i] = values[i] + offset;
    prev = out[i];
  }
  const sorted = Array.from(out).filter((v) => !isNaN(v)).sort((a, b) => a - b);
  if (!sorted.length) return out;
  const shift = 360 * Math.round((centre - sorted[sorted.length >> 1]) / 360);
  return out.map((v) => v + shift);
}
// An angle as shown: in [0, 360) for a bearing (`turn` 360), (−180, 180] for a roll (180).
function wrapped(v, turn) {
  if (!turn) return v;
  const r = ((v % 360) + 360) % 360;
  return turn === 180 && r > 180 ? r - 360 : r;
}
const tMin = n ? times[0] : 0;
const tMax = n && times[n - 1] > tMin ? times[n - 1] : tMin + 1;
const tSpan = tMax - tMin;
const isMap = frames.map((f) => f.view === 'map');

// Frame period: the median step, for the width of a single map-view frame's band.
const period = (function () {
  const steps = [];
  for (let i = 1; i < n; i++) if (times[i] > times[i - 1]) steps.push(times[i] - times[i - 1]);
  steps.sort((a, b) => a - b);
  return steps.length ? steps[steps.length >> 1] : tSpan / Math.max(1, n);
})();
// Runs of map-view frames as [start, end] times, each half a period wider on both sides.
const mapBands = [];
for (let i = 0; i < n; i++) {
  if (!isMap[i]) continue;
  let j = i;
  while (j + 1 < n && isMap[j + 1]) j++;
  mapBands.push([times[i] - period / 2, times[j] + period / 2]);
  i = j;
}

const truthTimes = truth ? Float64Array.from(truth.errors, (e) => num(e.time) == null ? NaN : e.time) : null;
function truthColumn(key) {
  return Float64Array.from(truth.errors, (e) => num(e[key]) == null ? NaN : e[key]);
}

// ---------------------------------------------------------------- header

(function summary() {
  const parts = [];
  function part(label, value) {
    const s = htmlEl('span', null, null, null);
    if (label) s.appendChild(document.createTextNode(label + ' '));
    htmlEl('b', null, value, s);
    parts.push(s);
  }
  if (data.log) part('log', String(data.log));
  part('', n + (n === 1 ? ' frame' : ' frames') + (n ? ' (' + numbers[0] + '\u2013' + numbers[n - 1] + ')' : ''));
  if (n) part('duration', clock(times[n - 1] - times[0]) + (period > 0 ? ', ' + r1(1 / period) + ' fps' : ''));
  if (data.image && data.image.width) part('image', data.image.width + '\u00d7' + data.image.height);
  const mapFrames = isMap.filter(Boolean).length;
  if (mapFrames) part('map view', mapFrames + (mapFrames === 1 ? ' frame' : ' frames'));
  if (Array.isArray(data.pois)) part('POIs', data.pois.filter((p) => p.shown).length + ' with a card of ' + data.pois.length);
  if (truth) {
    const rmse = [];
    if (num(truth.heading_rmse) != null) rmse.push('heading ' + truth.heading_rmse.toFixed(2) + '\u00b0');
    if (num(truth.inclination_rmse) != null) rmse.push('inclination ' + truth.inclination_rmse.toFixed(2) + '\u00b0');
    part('truth RMSE' + (truth.file ? ' (' + truth.file + ')' : ''), rmse.join(', ') || '\u2013');
  }
  const p = $('summary');
  parts.forEach((s, i) => {
    if (i) htmlEl('span', 'sep', '|', p);
    p.appendChild(s);
  });
  if (data.title && !$('title').textContent) $('title').textContent = data.title;
})();

// ---------------------------------------------------------------- map

const map = (function () {
  const svg = $('map');
  const R = 6371008.8;
  const rad = Math.PI / 180;
  const fixes = (Array.isArray(data.track) ? data.track : []).filter((p) => Array.isArray(p) && num(p[0]) != null && num(p[1]) != null);
  const framePos = frames.map((f) => num(f.lat) != null && num(f.lon) != null ? [f.lat, f.lon] : null);
  const walked = framePos.filter(Boolean);
  // What the map centres on and first fits: the frames' positions (the replay's path, free of
  // the fixes it rejected), else the GPS fixes.
  const line = walked.length ? walked : fixes;
  const pois = (Array.isArray(data.pois) ? data.pois : []).filter((p) => num(p.lat) != null && num(p.lon) != null);
  const all = line.concat(fixes, pois.map((p) => [p.lat, p.lon]));
  if (!all.length) {
    htmlEl('div', 'no-data', 'No positions in this replay.', svg.parentNode);
    svg.style.display = 'none';
    return { update() {}, layout() {} };
  }

  // Local equirectangular projection about the middle of the track (or of the POIs): x east,
  // y south (SVG's y down), both in metres, so the map is north up with equal scales.
  const centreOf = line.length ? line : all;
  let latLo = Infinity, latHi = -Infinity, lonLo = Infinity, lonHi = -Infinity;
  for (const p of centreOf) { latLo = Math.min(latLo, p[0]); latHi = Math.max(latHi, p[0]); lonLo = Math.min(lonLo, p[1]); lonHi = Math.max(lonHi, p[1]); }
  const lat0 = (latLo + latHi) / 2, lon0 = (lonLo + lonHi) / 2;
  const kx = R * rad * Math.cos(lat0 * rad), ky = R * rad;
  const px = (p) => (p[1] - lon0) * kx;
  const py = (p) => -(p[0] - lat0) * ky;

  // The first view: the path and the POIs that had a card.
  let xLo = Infinity, xHi = -Infinity, yLo = Infinity, yHi = -Infinity;
  const fitPoints = line.concat(pois.filter((p) => p.shown).map((p) => [p.lat, p.lon]));
  for (const p of fitPoints) { const x = px(p), y = py(p); xLo = Math.min(xLo, x); xHi = Math.max(xHi, x); yLo = Math.min(yLo, y); yHi = Math.max(yHi, y); }
  const fitSpanX = Math.max(60, (xHi - xLo) * 1.18), fitSpanY = Math.max(60, (yHi - yLo) * 1.18);
  const fitX = (xLo + xHi) / 2, fitY = (yLo + yHi) / 2;

  // Screen = world * k + (tx, ty). Only the world group's transform changes on zoom and pan:
  // its lines and dots keep their screen size (non-scaling strokes; a dot is a zero-length
  // segment with round caps), so no path is rebuilt.
  const view = { k: 1, tx: 0, ty: 0, w: 0, h: 0, kFit: 1 };
  let follow = false;

  const gridG = svgEl('g', { stroke: '#e9edf1', 'stroke-width': 1 }, svg);
  const world = svgEl('g', {}, svg);
  const ns = { 'vector-effect': 'non-scaling-stroke', fill: 'none', 'stroke-linecap': 'round', 'stroke-linejoin': 'round' };
  const dots = (pts) => pts.map((p) => 'M' + r1(px(p)) + ' ' + r1(py(p)) + 'h0').join('');

  const polyline = (pts) => pts.map((p, i) => (i ? 'L' : 'M') + r1(px(p)) + ' ' + r1(py(p))).join('');
  // The streets and buildings around the track (data.basemap: the POI source's ways), under it:
  // areas filled, then streets by rank (major on top), footpaths dashed, railways grey.
  const basemap = Array.isArray(data.basemap) ? data.basemap : [];
  if (basemap.length) {
    const pathOf = (f, close) => {
      let d = '';
      for (let i = 0; i + 1 < f.points.length; i += 2) d += (i ? 'L' : 'M') + r1(px([f.points[i], f.points[i + 1]])) + ' ' + r1(py([f.points[i], f.points[i + 1]]));
      return d + (close ? 'Z' : '');
    };
    const fills = { green: ['#dcefd2', 'none'], water: ['#b9dce6', 'none'], plaza: ['#eceae6', 'none'], building: ['#e3ddd6', '#cfc6bc'] };
    for (const kind of ['green', 'water', 'plaza', 'building']) {
      const d = basemap.filter((f) => f.kind === kind).map((f) => pathOf(f, true)).join('');
      if (d) svgEl('path', { d, fill: fills[kind][0], stroke: fills[kind][1], 'stroke-width': 0.8, 'vector-effect': 'non-scaling-stroke' }, world);
    }
    const widths = [6, 5, 4, 1.4];
    for (const rank of [3, 2, 1, 0]) {
      const d = basemap.filter((f) => f.kind === 'street' && f.rank === rank).map((f) => pathOf(f, false)).join('');
      if (!d) continue;
      if (rank === 3) { svgEl('path', Object.assign({ d, stroke: '#9e9893', 'stroke-width': widths[3], 'stroke-dasharray': '3 2.5' }, ns), world); continue; }
      svgEl('path', Object.assign({ d, stroke: '#c9c4bd', 'stroke-width': widths[rank] + 2 }, ns), world);
      svgEl('path', Object.assign({ d, stroke: rank === 0 ? '#fcdca3' : '#ffffff', 'stroke-width': widths[rank] }, ns), world);
    }
    const rail = basemap.filter((f) => f.kind === 'railway').map((f) => pathOf(f, false)).join('');
    if (rail) svgEl('path', Object.assign({ d: rail, stroke: '#8a8a8a', 'stroke-width': 1.5 }, ns), world);
  }
  const highlight = svgEl('path', Object.assign({ stroke: '#ffb300', 'stroke-opacity': 0.55, 'stroke-width': 17, d: '' }, ns), world);
  // A smoothed path (frames with `sigma`, the 68 % radius in metres) over its band: circles
  // at the frames and quadrilaterals joining them, wound alike and filled once (their union,
  // evenly pale; in world units, so it scales with the map).
  const sigmas = frames.map((f) => num(f.sigma) != null && f.sigma > 0 ? f.sigma : null);
  const smoothed = sigmas.some((s) => s != null);
  if (smoothed) {
    let d = '';
    for (let i = 0; i < n; i++) {
      const p = framePos[i], s = sigmas[i];
      if (!p || s == null) continue;
      const x = px(p), y = py(p);
      d += 'M' + r1(x + s) + ' ' + r1(y) + 'A' + r1(s) + ' ' + r1(s) + ' 0 1 1 ' + r1(x - s) + ' ' + r1(y) + 'A' + r1(s) + ' ' + r1(s) + ' 0 1 1 ' + r1(x + s) + ' ' + r1(y) + 'Z';
      const q = i + 1 < n ? framePos[i + 1] : null, t = i + 1 < n ? sigmas[i + 1] : null;
      if (!q || t == null) continue;
      const qx = px(q), qy = py(q), len = Math.hypot(qx - x, qy - y);
      if (!(len > 0)) continue;
      const nx = -(qy - y) / len, ny = (qx - x) / len;  // clockwise on the page, as the arcs
      d += 'M' + r1(x - nx * s) + ' ' + r1(y - ny * s) + 'L' + r1(qx - nx * t) + ' ' + r1(qy - ny * t) +
        'L' + r1(qx + nx * t) + ' ' + r1(qy + ny * t) + 'L' + r1(x + nx * s) + ' ' + r1(y + ny * s) + 'Z';
    }
    svgEl('path', { d, fill: 'rgba(21,101,192,0.16)', 'fill-rule': 'nonzero', stroke: 'none' }, world);
  }
  // The GPS fixes as logged (outliers too), under the frames' path (faint dots under a
  // smoothed one); map-view runs in amber.
  if (fixes.length && smoothed) {
    if (fixes.length <= 5000) svgEl('path', Object.assign({ stroke: '#607d8b', 'stroke-opacity': 0.5, 'stroke-width': 3, d: dots(fixes) }, ns), world);
  } else if (fixes.length) {
    svgEl('path', Object.assign({ stroke: '#90a4ae', 'stroke-width': 1, d: polyline(fixes) }, ns), world);
    if (fixes.length <= 5000) svgEl('path', Object.assign({ stroke: '#78909c', 'stroke-width': 3, d: dots(fixes) }, ns), world);
  }
  if (walked.length) {
    let d = '', mapD = '';
    for (let i = 0, pen = false; i < n; i++) {
      const p = framePos[i];
      if (!p) { pen = false; continue; }
      d += (pen ? 'L' : 'M') + r1(px(p)) + ' ' + r1(py(p));
      pen = true;
      const q = i + 1 < n ? framePos[i + 1] : null;
      if (isMap[i] && q) mapD += 'M' + r1(px(p)) + ' ' + r1(py(p)) + 'L' + r1(px(q)) + ' ' + r1(py(q));
    }
    svgEl('path', Object.assign({ stroke: '#1565c0', 'stroke-opacity': 0.85, 'stroke-width': 2.4, d }, ns), world);
    if (mapD) svgEl('path', Object.assign({ stroke: '#f0a500', 'stroke-width': 4, d: mapD }, ns), world);
  }

  // POIs by category, those without a card first (smaller, faded), then those with one.
  const byCategory = new Map();
  for (const p of pois) {
    const c = String(p.category || '');
    if (!byCategory.has(c)) byCategory.set(c, { hidden: [], shown: [] });
    byCategory.get(c)[p.shown ? 'shown' : 'hidden'].push([p.lat, p.lon]);
  }
  const categories = Array.from(byCategory.keys()).sort((a, b) =>
    (byCategory.get(b).shown.length + byCategory.get(b).hidden.length) - (byCategory.get(a).shown.length + byCategory.get(a).hidden.length) || a.localeCompare(b));
  for (const c of categories) {
    const g = byCategory.get(c);
    if (g.hidden.length) svgEl('path', Object.assign({ stroke: colourOf(c), 'stroke-opacity': 0.4, 'stroke-width': 5, d: dots(g.hidden) }, ns), world);
  }
  for (const c of categories) {
    const g = byCategory.get(c);
    if (!g.shown.length) continue;
    svgEl('path', Object.assign({ stroke: '#ffffff', 'stroke-width': 10.5, d: dots(g.shown) }, ns), world);
    svgEl('path', Object.assign({ stroke: colourOf(c), 'stroke-width': 7.5, d: dots(g.shown) }, ns), world);
  }

  // The current position: GPS accuracy circle, view cone along `facing` (else heading), dot.
  const accuracy = svgEl('circle', { r: 0, fill: 'rgba(21,101,192,0.08)', stroke: 'rgba(21,101,192,0.35)', 'stroke-width': 1 }, svg);
  const marker = svgEl('g', {}, svg);
  const cone = svgEl('path', { fill: 'rgba(21,101,192,0.22)', stroke: 'rgba(21,101,192,0.65)', 'stroke-width': 1 }, marker);
  (function () {
    const r = 46, a = 26 * rad;
    cone.setAttribute('d', 'M0 0L' + r1(-r * Math.sin(a)) + ' ' + r1(-r * Math.cos(a)) + 'A' + r + ' ' + r + ' 0 0 1 ' + r1(r * Math.sin(a)) + ' ' + r1(-r * Math.cos(a)) + 'Z');
  })();
  svgEl('circle', { r: 5.5, fill: '#d32f2f', stroke: '#fff', 'stroke-width': 2 }, marker);

  const north = svgEl('g', { transform: 'translate(18,20)' }, svg);
  svgEl('path', { d: 'M0 -10L5 4L0 1L-5 4Z', fill: '#445' }, north);
  svgEl('text', { x: 0, y: 16, 'text-anchor': 'middle', style: 'font-weight:600;fill:#445' }, north).textContent = 'N';
  const scale = svgEl('g', {}, svg);
  const scaleBar = svgEl('path', { stroke: '#333', 'stroke-width': 1.5, fill: 'none' }, scale);
  const scaleText = svgEl('text', { y: -6 }, scale);

  // Legend below the map: what the lines and marks are, then the categories ("cafe 10/89":
  // 10 of the 89 cafes had a card on some frame).
  (function legend() {
    const box = $('map-legend');
    const item = (swatchClass, colour, text) => {
      const row = htmlEl('span', null, null, box);
      htmlEl('span', swatchClass, null, row).style.background = colour;
      row.appendChild(document.createTextNode(text));
      return row;
    };
    if (walked.length) item('swatch line', '#1565c0', 'frame positions');
    if (walked.length && isMap.some(Boolean)) item('swatch line', '#f0a500', 'map-view frames');
    if (smoothed) item('swatch', 'rgba(21,101,192,0.3)', 'its 68 % band');
    if (fixes.length) item('swatch line', '#90a4ae', smoothed ? 'raw GPS fixes' : 'GPS fixes');
    item('swatch', '#d32f2f', 'the frame, facing');
    item('swatch', '#ffd166', 'its labels');
    const listed = categories.slice(0, 8);
    for (const c of listed) {
      const g = byCategory.get(c);
      item('swatch', colourOf(c), (c || 'no category') + ' ' + g.shown.length + '/' + (g.shown.length + g.hidden.length))
        .title = g.shown.length + ' of ' + (g.shown.length + g.hidden.length) + ' had a card';
    }
    if (categories.length > listed.length) htmlEl('span', null, '+ ' + (categories.length - listed.length) + ' more', box);
  })();

  function applyView() {
    // Following: the current position in the middle.
    const here = follow && current >= 0 ? framePos[current] : null;
    if (here) { view.tx = view.w / 2 - px(here) * view.k; view.ty = view.h / 2 - py(here) * view.k; }
    world.setAttribute('transform', 'matrix(' + view.k + ' 0 0 ' + view.k + ' ' + view.tx + ' ' + view.ty + ')');
    // Scale bar of a round length near 110 px; the grid in its steps.
    const len = niceStep(110 / view.k, 1);
    const barPx = len * view.k;
    scale.setAttribute('transform', 'translate(14,' + (view.h - 14) + ')');
    scaleBar.setAttribute('d', 'M0 -5V0H' + r1(barPx) + 'V-5');
    scaleText.textContent = metres(len);
    let grid = '';
    const x0 = -view.tx / view.k, y0 = -view.ty / view.k;
    for (const gx of ticks(x0, x0 + view.w / view.k, len)) grid += 'M' + r1(gx * view.k + view.tx) + ' 0V' + view.h;
    for (const gy of ticks(y0, y0 + view.h / view.k, len)) grid += 'M0 ' + r1(gy * view.k + view.ty) + 'H' + view.w;
    gridG.textContent = '';
    svgEl('path', { d: grid }, gridG);
    placeMarker();
  }
  function fit() {
    view.k = view.kFit = Math.min(view.w / fitSpanX, view.h / fitSpanY);
    view.tx = view.w / 2 - fitX * view.k;
    view.ty = view.h / 2 - fitY * view.k;
  }
  function layout() {
    const w = svg.clientWidth, h = svg.clientHeight;
    if (!w || !h) return;
    const first = view.w === 0;
    // Keep the middle of the map where it was when the size changes.
    const cx = (view.w / 2 - view.tx) / view.k, cy = (view.h / 2 - view.ty) / view.k;
    view.w = w; view.h = h;
    svg.setAttribute('viewBox', '0 0 ' + w + ' ' + h);
    const kFit = Math.min(w / fitSpanX, h / fitSpanY);
    if (first) fit();
    else { view.k *= kFit / view.kFit; view.kFit = kFit; view.tx = w / 2 - cx * view.k; view.ty = h / 2 - cy * view.k; }
    applyView();
  }

  let current = -1;
  const poiByName = new Map();
  for (const p of pois) {
    const key = String(p.name);
    if (!poiByName.has(key)) poiByName.set(key, []);
    poiByName.get(key).push([p.lat, p.lon]);
  }
  function placeMarker() {
    const p = current >= 0 ? framePos[current] : null;
    if (!p) { marker.setAttribute('visibility', 'hidden'); accuracy.setAttribute('r', 0); return; }
    const f = frames[current];
    const sx = r1(px(p) * view.k + view.tx), sy = r1(py(p) * view.k + view.ty);
    const dir = num(f.facing) != null ? f.facing : num(f.heading);
    marker.setAttribute('visibility', 'visible');
    marker.setAttribute('transform', 'translate(' + sx + ',' + sy + ')' + (dir != null ? ' rotate(' + r1(dir) + ')' : ''));
    cone.setAttribute('visibility', dir != null ? 'visible' : 'hidden');
    const acc = num(f.accuracy);
    accuracy.setAttribute('cx', sx);
    accuracy.setAttribute('cy', sy);
    accuracy.setAttribute('r', acc != null ? r1(acc * view.k) : 0);
  }
  function update(i) {
    current = i;
    const names = Array.isArray(frames[i].labels) ? frames[i].labels : [];
    const pts = [];
    // By name, all the data has; an empty name would light every unnamed POI.
    for (const name of names) if (name) for (const p of poiByName.get(String(name)) || []) pts.push(p);
    highlight.setAttribute('d', dots(pts));
    if (follow) applyView(); else placeMarker();
  }

  // Zoom about the pointer; drag to pan; a click (no drag) goes to the nearest frame on screen.
  svg.addEventListener('wheel', (e) => {
    e.preventDefault();
    const rect = svg.getBoundingClientRect();
    const mx = e.clientX - rect.left, my = e.clientY - rect.top;
    const k = clamp(view.k * Math.exp(-e.deltaY * 0.0015), view.kFit / 8, view.kFit * 400);
    view.tx = mx - (mx - view.tx) * k / view.k;
    view.ty = my - (my - view.ty) * k / view.k;
    view.k = k;
    applyView();
  }, { passive: false });
  let drag = null;
  svg.addEventListener('pointerdown', (e) => {
    if (e.button !== 0) return;
    drag = { x: e.clientX, y: e.clientY, tx: view.tx, ty: view.ty, moved: false };
    svg.setPointerCapture(e.pointerId);
  });
  svg.addEventListener('pointermove', (e) => {
    if (drag) {
      const dx = e.clientX - drag.x, dy = e.clientY - drag.y;
      if (!drag.moved && Math.hypot(dx, dy) < 4) return;
      drag.moved = true;
      svg.classList.add('dragging');
      setFollow(false);
      view.tx = drag.tx + dx; view.ty = drag.ty + dy;
      applyView();
      return;
    }
    tip(e);
  });
  svg.addEventListener('pointerup', (e) => {
    if (!drag) return;
    const click = !drag.moved;
    drag = null;
    svg.classList.remove('dragging');
    if (!click) return;
    const rect = svg.getBoundingClientRect();
    const mx = e.clientX - rect.left, my = e.clientY - rect.top;
    let best = -1, bestD = 30 * 30;
    for (let i = 0; i < n; i++) {
      const p = framePos[i];
      if (!p) continue;
      const dx = px(p) * view.k + view.tx - mx, dy = py(p) * view.k + view.ty - my;
      const d = dx * dx + dy * dy;
      if (d < bestD) { bestD = d; best = i; }
    }
    if (best >= 0) go(best);
  });
  svg.addEventListener('pointercancel', () => { drag = null; svg.classList.remove('dragging'); });
  svg.addEventListener('pointerleave', () => { $('map-tip').hidden = true; });

  // The name of the POI under the pointer.
  function tip(e) {
    const box = $('map-tip');
    const rect = svg.getBoundingClientRect();
    const mx = e.clientX - rect.left, my = e.clientY - rect.top;
    let best = null, bestD = 8 * 8;
    for (const p of pois) {
      const dx = px([p.lat, p.lon]) * view.k + view.tx - mx, dy = py([p.lat, p.lon]) * view.k + view.ty - my;
      const d = dx * dx + dy * dy;
      if (d < bestD) { bestD = d; best = p; }
    }
    if (!best) { box.hidden = true; return; }
    box.textContent = (best.name || '(no name)') + ' \u00b7 ' + (best.category || 'no category') + (best.shown ? '' : ' \u00b7 no card');
    box.hidden = false;
    box.style.left = Math.min(mx + 12, view.w - box.offsetWidth - 4) + 'px';
    box.style.top = (my + 14) + 'px';
  }

  function setFollow(on) {
    follow = on;
    $('map-follow').setAttribute('aria-pressed', on ? 'true' : 'false');
  }
  $('map-follow').addEventListener('click', () => { setFollow(!follow); if (follow) applyView(); });
  $('map-fit').addEventListener('click', () => { setFollow(false); fit(); applyView(); });

  return { update, layout };
})();

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

// ---------------------------------------------------------------- frame info

const info = $('info');
const infoRows = {};
for (const [key, label] of [['time', 'time'], ['view', 'view'], ['heading', 'heading'], ['facing', 'facing'],
  ['pitchRoll', 'pitch / roll'], ['position', 'position'], ['accuracy', 'GPS accuracy'], ['counts', 'labels'],
  ['truth', 'error vs truth']]) {
  if (key === 'truth' && !truth) continue;
  htmlEl('dt', null, label, info);
  infoRows[key] = htmlEl('dd', null, '', info);
}
const poiCategory = new Map();
for (const p of Array.isArray(data.pois) ? data.pois : []) if (!poiCategory.has(String(p.name))) poiCategory.set(String(p.name), p.category);

function showInfo(i) {
  const f = frames[i];
  $('info-title').textContent = 'Frame ' + numbers[i] + (f.image ? ' \u00b7 ' + f.image : '');
  infoRows.time.textContent = clock(times[i]) + ' \u00b7 frame ' + (i + 1) + ' of ' + n;
  infoRows.view.textContent = isMap[i] ? 'map (the phone points at the ground)' : 'camera';
  infoRows.view.className = isMap[i] ? 'map-view' : '';
  infoRows.heading.textContent = fixed(num(f.heading), 1, '\u00b0');
  infoRows.facing.textContent = fixed(num(f.facing), 1, '\u00b0');
  infoRows.pitchRoll.textContent = fixed(num(f.pitch), 1, '\u00b0') + ' / ' + fixed(num(f.roll), 1, '\u00b0');
  const lat = num(f.lat), lon = num(f.lon);
  infoRows.position.textContent = lat == null || lon == null ? '\u2013' :
    Math.abs(lat).toFixed(6) + '\u00b0' + (lat < 0 ? 'S' : 'N') + ' ' + Math.abs(lon).toFixed(6) + '\u00b0' + (lon < 0 ? 'W' : 'E');
  infoRows.accuracy.textContent = num(f.accuracy) == null ? '\u2013' : '\u00b1 ' + f.accuracy.toFixed(1) + ' m';
  const count = (v, one, many) => (num(v) == null ? '\u2013' : v) + ' ' + (v === 1 ? one : many);
  infoRows.counts.textContent = [count(f.drawn, 'drawn', 'drawn'), count(f.occluded, 'occluded', 'occluded'),
    count(f.dots, 'dot', 'dots'), count(f.clusters, 'cluster', 'clusters')].join(' \u00b7 ');
  if (truth) {
    const j = nearestIndex(truthTimes, times[i]);
    const e = j >= 0 && Math.abs(truthTimes[j] - times[i]) <= Math.max(period, 1e-6) * 0.75 ? truth.errors[j] : null;
    infoRows.truth.textContent = e ? 'heading ' + fixed(num(e.heading), 2, '\u00b0') + ' \u00b7 inclination ' + fixed(num(e.inclination), 2, '\u00b0') : '\u2013';
  }
  const list = $('labels');
  list.textContent = '';
  const names = Array.isArray(f.labels) ? f.labels : [];
  for (const name of names) {
    const li = htmlEl('li', null, null, list);
    const category = poiCategory.get(String(name));
    const sw = htmlEl('span', 'swatch', null, li);
    sw.style.background = colourOf(category);
    li.appendChild(document.createTextNode(String(name) || '(no name)'));
    li.title = String(name) + (category ? ' (' + category + ')' : '');
  }
  if (!names.length) htmlEl('li', 'none', isMap[i] ? 'none: a map frame' : 'none', list);
}

// ---------------------------------------------------------------- frame image and layout

const img = $('frame-image');
const missing = $('frame-missing');
const frameBox = $('frame-box');
let imageSize = data.image && num(data.image.width) && num(data.image.height) ? [data.image.width, data.image.height] : [720, 1280];
let pending = false;
let loadToken = 0;
const missingNames = [];

function layout() {
  const header = $('top').getBoundingClientRect().height;
  const below = $('controls').offsetHeight + $('frame-caption').offsetHeight + 16;
  const availH = Math.max(160, window.innerHeight - header - 24 - below);
  const aspect = imageSize[0] / imageSize[1];
  // The frame column: the image at full available height, but at most 42% of the width and
  // at least room for the controls.
  const maxW = Math.max(240, Math.floor(window.innerWidth * 0.42));
  let w = Math.floor(Math.min(availH * aspect, maxW));
  let h = Math.floor(w / aspect);
  if (h > availH) { h = Math.floor(availH); w = Math.floor(h * aspect); }
  const col = Math.max(w, 290);
  // An even margin either side keeps the picture on whole pixels.
  const colEven = col - ((col - w) % 2);
  root.style.setProperty('--frame-col', colEven + 'px');
  frameBox.style.width = w + 'px';
  frameBox.style.height = h + 'px';
  map.layout();
  for (const plot of plots) renderPlot(plot);
}

function markReady(i) {
  if (i !== current) return;
  const r = img.getBoundingClientRect();
  root.dataset.frame = String(numbers[i]);
  root.dataset.frameRect = [r.left, r.top, r.width, r.height].map(Math.round).join(',');
  root.dataset.ready = '1';
}

function loadImage(i) {
  const token = ++loadToken;
  const name = String(frames[i].image || '');
  pending = true;
  delete root.dataset.ready;
  const settle = (ok) => {
    if (token !== loadToken) return;
    pending = false;
    if (ok) {
      missing.hidden = true;
      img.style.visibility = '';
      if (img.naturalWidth && img.naturalHeight && img.naturalWidth * imageSize[1] !== img.naturalHeight * imageSize[0]) {
        imageSize = [img.naturalWidth, img.naturalHeight];
        layout();
      }
    } else {
      img.style.visibility = 'hidden';
      missing.textContent = (name || 'frame ' + numbers[i]) + ' not found';
      missing.hidden = false;
      if (missingNames.indexOf(name) < 0) { missingNames.push(name); root.dataset.missing = missingNames.join(' '); }
    }
    markReady(i);
    if (playing) setTimeout(playStep, 15);
  };
  // On load, not on decode(): under a headless browser's virtual time (the browser test)
  // decode() never settles. A screenshot still shows the picture: painting decodes it.
  img.onload = () => settle(true);
  img.onerror = () => settle(false);
  if (!name) { img.removeAttribute('src'); settle(false); return; }
  img.alt = name;
  img.src = name.split('/').map(encodeURIComponent).join('/');
}

// ---------------------------------------------------------------- selection

let current = -1;
const scrubber = $('scrubber');
const frameNumber = $('frame-number');
let hashTimer = 0;

function select(i) {
  if (!n) return;
  i = clamp(i, 0, n - 1);
  if (i === current) return;
  current = i;
  loadImage(i);
  scrubber.value = numbers[i];
  frameNumber.value = numbers[i];
  $('frame-time').textContent = clock(times[i]);
  showInfo(i);
  map.update(i);
  for (const plot of plots) placeCursor(plot);
  plotValues(i);
  // The address follows, a little later: browsers throttle rapid history updates.
  clearTimeout(hashTimer);
  hashTimer = setTimeout(() => {
    try { history.replaceState(null, '', '#frame=' + numbers[current]); } catch (err) { console.warn('report: the address cannot change here', err); }
  }, 200);
}

// A frame chosen by hand: playback stops there.
function go(i) {
  setPlaying(false);
  select(i);
}

// Frame number to index: that frame, or the nearest number there is.
function indexOfNumber(k) { return nearestIndex(numbers, k); }

function fromHash() {
  const m = /(?:^#|&)frame=(\d+)/.exec(location.hash);
  return m ? indexOfNumber(Number(m[1])) : -1;
}

// ---------------------------------------------------------------- playback
// A timer rather than animation frames: those do not run in a hidden tab, nor under a
// headless browser's virtual time (the browser test).

let playing = false;
let playWall = 0, playTime = 0;
function setPlaying(on) {
  playing = on && n > 1;
  $('play').textContent = playing ? 'Pause' : 'Play';
  if (!playing) return;
  if (current >= n - 1) select(0);
  playWall = performance.now();
  playTime = times[current];
  if (!pending) setTimeout(playStep, 15);
}
// One step of playback, after the shown frame has loaded: on to the frame due at the
// playback clock (frames are skipped when images load slower than they are due).
function playStep() {
  if (!playing || pending) return;
  if (current >= n - 1) { setPlaying(false); return; }
  const speed = Number($('speed').value) || 1;
  const due = playTime + (performance.now() - playWall) / 1000 * speed;
  let j = lowerBound(times, due + 1e-9) - 1;
  if (j <= current) { setTimeout(playStep, 15); return; }
  if (j >= n - 1) { j = n - 1; select(j); setPlaying(false); return; }
  select(j);
}

// ---------------------------------------------------------------- controls

$('prev').addEventListener('click', (e) => go(current - (e.shiftKey ? 10 : 1)));
$('next').addEventListener('click', (e) => go(current + (e.shiftKey ? 10 : 1)));
$('play').addEventListener('click', () => setPlaying(!playing));
$('speed').addEventListener('change', () => { if (playing) { playWall = performance.now(); playTime = times[current]; } });
scrubber.addEventListener('input', () => go(indexOfNumber(Number(scrubber.value))));
frameNumber.addEventListener('change', () => { const v = Number(frameNumber.value); if (isFinite(v)) go(indexOfNumber(v)); });
document.addEventListener('keydown', (e) => {
  if (e.ctrlKey || e.metaKey || e.altKey) return;
  const t = e.target;
  if (t && (t.tagName === 'SELECT' || t === frameNumber)) return;
  if (t && t.tagName === 'BUTTON' && (e.key === ' ' || e.key === 'Enter')) return;
  const step = e.shiftKey ? 10 : 1;
  switch (e.key) {
    case 'ArrowLeft': go(current - step); break;
    case 'ArrowRight': go(current + step); break;
    case 'PageUp': go(current - 10); break;
    case 'PageDown': go(current + 10); break;
    case 'Home': go(0); break;
    case 'End': go(n - 1); break;
    case ' ': setPlaying(!playing); break;
    default: return;
  }
  e.preventDefault();
});
window.addEventListener('hashchange', () => { const i = fromHash(); if (i >= 0) go(i); });
// Laid out at once: browsers fire resize at most once a frame, before painting it, so the
// frame painted after a resize (a headless screenshot too) shows the new layout.
window.addEventListener('resize', () => {
  layout();
  if (current >= 0 && !pending) markReady(current);
});

// ---------------------------------------------------------------- start

$('frame-of').textContent = n ? 'of ' + numbers[0] + '\u2013' + numbers[n - 1] : 'no frames';
if (!n) {
  img.style.visibility = 'hidden';
  missing.textContent = 'No frames in this replay.';
  missing.hidden = false;
  layout();
  root.dataset.frame = '';
  root.dataset.frameRect = '0,0,0,0';
  root.dataset.ready = '1';
  return;
}
scrubber.min = numbers[0];
scrubber.max = numbers[n - 1];
frameNumber.min = numbers[0];
frameNumber.max = numbers[n - 1];
layout();
const start = fromHash();
select(start >= 0 ? start : 0);
})();
