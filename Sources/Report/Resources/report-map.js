// The report page's script, part 2 of 4: the map (track, σ band, raw fixes, POIs, base map).
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

