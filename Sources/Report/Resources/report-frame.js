// The report page's script, part 4 of 4: the frame shown, selection, playback, controls, start.
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
