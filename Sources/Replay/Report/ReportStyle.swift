extension ReportPage {
    /// The page's style sheet: a light theme in the system's sans-serif; the frame column stays
    /// in view (sticky) while the plots scroll. The script sizes the frame column and the image.
    static let style = #"""
:root {
  --bg: #f4f6f8;
  --panel: #ffffff;
  --ink: #1d2430;
  --muted: #5d6b7b;
  --faint: #8a96a3;
  --line: #dde2e8;
  --grid: #eceff3;
  --accent: #1565c0;
  --band: #fff1c7;
  --frame-col: 400px;
}
* { box-sizing: border-box; }
html, body {
  margin: 0;
  background: var(--bg);
  color: var(--ink);
  font: 13px/1.4 system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif;
  font-variant-numeric: tabular-nums;
}
header {
  display: flex;
  flex-wrap: wrap;
  align-items: baseline;
  gap: 4px 18px;
  padding: 9px 12px;
  background: var(--panel);
  border-bottom: 1px solid var(--line);
}
h1 { margin: 0; font-size: 19px; font-weight: 650; }
h2 { margin: 0; font-size: 13px; font-weight: 650; }
h3 { margin: 10px 0 4px; font-size: 12px; font-weight: 650; color: var(--muted); }
#summary { margin: 0; color: var(--muted); }
#summary b { color: var(--ink); font-weight: 600; }
#summary .sep { color: var(--line); margin: 0 6px; }
main {
  display: grid;
  grid-template-columns: var(--frame-col) minmax(0, 1fr);
  gap: 12px;
  padding: 12px;
  align-items: start;
}
#frame-panel {
  position: sticky;
  top: 12px;
  display: flex;
  flex-direction: column;
  gap: 8px;
  min-width: 0;
}
/* The box is sized by the script to the image's aspect: the img's rect is the picture. */
#frame-box {
  position: relative;
  align-self: center;
  background: #20262e;
  border-radius: 3px;
  overflow: hidden;
}
#frame-image { display: block; width: 100%; height: 100%; }
#frame-missing {
  position: absolute;
  inset: 0;
  display: flex;
  align-items: center;
  justify-content: center;
  padding: 12px;
  text-align: center;
  color: #e6e9ed;
  background: repeating-linear-gradient(45deg, #2a313a 0 12px, #262c35 12px 24px);
  font-size: 14px;
}
#frame-missing[hidden] { display: none; }
#controls { display: flex; align-items: center; gap: 6px; }
#scrubber { flex: 1 1 auto; min-width: 80px; accent-color: var(--accent); }
button, select, input[type=number] {
  font: inherit;
  color: var(--ink);
  background: var(--panel);
  border: 1px solid #c5cdd6;
  border-radius: 4px;
  padding: 3px 8px;
}
button { cursor: pointer; min-width: 30px; }
button:hover { background: #eef2f6; }
button[aria-pressed="true"] { background: #dbe8f7; border-color: #8fb3dd; }
#play { min-width: 62px; }
#frame-caption { display: flex; align-items: baseline; gap: 10px; color: var(--muted); }
#frame-caption label { color: var(--ink); font-weight: 600; }
#frame-number { width: 76px; padding: 2px 4px; }
#charts { display: flex; flex-direction: column; gap: 12px; min-width: 0; }
#overview { display: flex; flex-wrap: wrap; gap: 12px; }
.panel {
  background: var(--panel);
  border: 1px solid var(--line);
  border-radius: 6px;
  padding: 8px 10px 10px;
  min-width: 0;
}
.panel-head { display: flex; align-items: center; gap: 8px; margin-bottom: 6px; }
.panel-head h2 { margin-right: auto; }
.panel-head .hint { color: var(--faint); font-size: 11px; }
.panel-head button { padding: 1px 8px; font-size: 12px; }
/* Both of a fixed height: the map's size changes only with the window's. */
#map-panel, #info-panel { height: 380px; display: flex; flex-direction: column; }
#map-panel { flex: 1.5 1 340px; }
#info-panel { flex: 1 1 250px; overflow: auto; }
#map-wrap { position: relative; flex: 1 1 auto; min-height: 0; }
#map {
  position: absolute;
  inset: 0;
  display: block;
  width: 100%;
  height: 100%;
  background: #fbfcfd;
  border: 1px solid var(--grid);
  border-radius: 4px;
  cursor: crosshair;
  touch-action: none;
  user-select: none;
}
#map.dragging { cursor: grabbing; }
#map-legend {
  display: flex;
  flex-wrap: wrap;
  gap: 0 12px;
  margin-top: 5px;
  color: var(--muted);
  font-size: 11px;
}
@media (max-width: 1250px) { .panel-head .hint { display: none; } }
.swatch {
  display: inline-block;
  width: 9px;
  height: 9px;
  margin-right: 4px;
  border-radius: 50%;
  vertical-align: -1px;
}
.swatch.line { width: 14px; height: 3px; border-radius: 1px; vertical-align: 2px; }
.swatch.band { width: 12px; height: 10px; border-radius: 1px; background: var(--band); border: 1px solid #ecd58a; }
#map-tip {
  position: absolute;
  padding: 3px 7px;
  background: rgba(29, 36, 48, 0.92);
  color: #fff;
  border-radius: 3px;
  font-size: 12px;
  white-space: nowrap;
  pointer-events: none;
}
#map-tip[hidden] { display: none; }
#info {
  display: grid;
  grid-template-columns: max-content minmax(0, 1fr);
  gap: 2px 12px;
  margin: 0;
}
#info dt { color: var(--muted); }
#info dd { margin: 0; overflow-wrap: anywhere; }
#info dd.map-view { color: #8a6100; font-weight: 600; }
#labels { list-style: none; margin: 0; padding: 0; display: flex; flex-wrap: wrap; gap: 4px; }
#labels li {
  padding: 1px 7px 1px 5px;
  border: 1px solid var(--line);
  border-radius: 10px;
  background: #f8f9fb;
  white-space: nowrap;
  max-width: 100%;
  overflow: hidden;
  text-overflow: ellipsis;
}
#labels li.none { border: none; background: none; color: var(--faint); padding-left: 0; }
#plots { display: flex; flex-direction: column; gap: 8px; }
.plot { padding: 6px 10px 4px; }
.plot-head { display: flex; align-items: baseline; gap: 14px; }
.plot-head h2 { margin-right: auto; }
.plot-head .legend { color: var(--muted); font-size: 12px; }
.plot-head .legend span + span { margin-left: 10px; }
.plot-head .value { min-width: 150px; text-align: right; font-weight: 600; }
.plot svg { display: block; width: 100%; cursor: crosshair; touch-action: none; user-select: none; }
svg text { font-size: 10px; fill: var(--muted); }
.no-data { color: var(--faint); padding: 12px 0; }
"""#
}
