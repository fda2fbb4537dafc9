// The report page's script, part 1 of 4: helpers, the per-frame series and the header. The
// four parts run in this order in one function scope (report.html wraps them), sharing its
// consts: see ReportPage.script.
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

