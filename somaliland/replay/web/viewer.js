"use strict";
// The replay page: reads the game's data from the page itself, draws the board from the map, moves the dice
// along their recorded paths and tells each step in the captions the data carry. No network, no libraries.
(function () {
  const G = JSON.parse(document.getElementById("game").textContent);
  const PER_M = 1e4;  // the data's integers per metre, and per unit of a quaternion component
  const HOLD = 1.0;  // s an outcome stays on screen before the next step plays
  const BARE = 0.8;  // s a move without a recorded path takes, in a straight line
  const MARGIN = 5;  // cm of table shown around the board
  const AMBIENT = 0.5;
  const LIGHT = unit([0.4, -0.6, 1.0]);
  const PAINT = { sea: "#8dbbdc", seaEdge: "#2d5f8a", land: "#ecdcb0", relief: "#d2b77c", coast: "#7a5a2e",
                  table: "#8c6b4d", port: "#111111", landText: "#6b4f25" };
  const MARKS = [["sunk", "#ff6e64"], ["seized", "#ffaa46"], ["fulfilled", "#78e18c"], ["arrived", "#78e18c"],
                 ["collision", "#ffd75a"], ["released", "#8cc8ff"]];

  const half = G.die / PER_M / 2;
  const steps = decodeSteps(G.steps);
  const N = steps.length;
  const canvas = document.getElementById("board");
  const ctx = canvas.getContext("2d");
  const state = { index: 0, t: 0, hold: 0, mode: "paused", speed: 1, trails: true };
  const view = { zoom: 1, cx: G.board.width / 2, cy: G.board.depth / 2 };
  let boardCache = null;
  let placed = [];  // what the board's drawing wrote or marked, each with its box (px): for tests
  let dirty = true;

  // ---- data ------------------------------------------------------------------------------------------
  function unit(v) { const n = Math.hypot(...v); return v.map((c) => c / n); }

  function decodePose(a) {
    const q = [a[3], a[4], a[5], a[6]].map((c) => c / PER_M);
    const n = Math.hypot(...q) || 1;
    return { p: [a[0] / PER_M, a[1] / PER_M, a[2] / PER_M], q: q.map((c) => c / n) };
  }

  function decodeBoard(board) {
    const out = {};
    for (const name in board) out[name] = decodePose(board[name]);
    return out;
  }

  function decodeTrack(track) {
    const n = track.d[0].length;
    const sums = track.d.map((column) => { let s = 0; return column.map((d) => (s += d)); });
    const poses = [];
    for (let k = 0; k < n; k++) poses.push(decodePose(sums.map((column) => column[k])));
    const times = track.times || poses.map((_, k) => track.t0 + k * track.dt);
    const crossed = track.crossed ? [track.crossed[0] / PER_M, track.crossed[1] / PER_M] : null;
    return { name: track.name, times: times, poses: poses, end: times[n - 1],
             aground: track.aground === undefined ? null : track.aground, crossed: crossed };
  }

  function decodeSteps(raw) {
    const out = [];
    raw.forEach((s, i) => {
      const step = Object.assign({}, s);
      step.after = decodeBoard(s.after);
      step.before = s.before ? decodeBoard(s.before) : (i > 0 ? out[i - 1].after : {});
      step.tracks = s.tracks.map(decodeTrack);
      step.bare = step.kind === "throw" && step.tracks.length === 0;
      const moves = Object.keys(step.after).some((k) => changed(step.before[k], step.after[k]));
      step.duration = step.tracks.length ? Math.max(...step.tracks.map((t) => t.end)) : (moves ? BARE : 0);
      step.launchAt = s.launch ? [s.launch[0] / PER_M, s.launch[1] / PER_M] : null;
      out.push(step);
    });
    return out;
  }

  function changed(a, b) {
    if (!a || !b) return a !== b;
    return a.p.some((c, k) => c !== b.p[k]) || a.q.some((c, k) => c !== b.q[k]);
  }

  // ---- where the dice are --------------------------------------------------------------------------
  function posesAt(step, t) {
    if (t >= step.duration) return step.after;
    const out = Object.assign({}, step.before);
    if (step.tracks.length) {
      for (const track of step.tracks) out[track.name] = sample(track, t);
      return out;
    }
    const f = step.duration ? t / step.duration : 1;  // no recorded path: a straight line from rest to rest
    for (const name in step.after) {
      let from = step.before[name];
      if (!from && name === step.ship && step.launchAt) from = { p: [step.launchAt[0], step.launchAt[1], half], q: step.after[name].q };
      if (from && changed(from, step.after[name])) out[name] = blend(from, step.after[name], f);
    }
    return out;
  }

  function sample(track, t) {  // a die that ran aground on its way (D19) stays where it crossed the coast
    if (track.aground !== null) t = Math.min(t, track.aground);
    return along_(track, t);
  }

  function along_(track, t) {  // where the recorded roll had the die at time t
    const times = track.times;
    if (t <= times[0]) return track.poses[0];
    if (t >= track.end) return track.poses[times.length - 1];
    let lo = 0, hi = times.length - 1;
    while (hi - lo > 1) { const mid = (lo + hi) >> 1; if (times[mid] <= t) lo = mid; else hi = mid; }
    const span = times[hi] - times[lo];
    return blend(track.poses[lo], track.poses[hi], span > 0 ? (t - times[lo]) / span : 0);
  }

  function blend(a, b, f) {
    return { p: a.p.map((c, k) => c + f * (b.p[k] - c)), q: slerp(a.q, b.q, f) };
  }

  function slerp(a, b, f) {
    let dot = a[0] * b[0] + a[1] * b[1] + a[2] * b[2] + a[3] * b[3];
    if (dot < 0) { b = b.map((c) => -c); dot = -dot; }
    if (dot > 0.9995) return unit(a.map((c, k) => c + f * (b[k] - c)));
    const angle = Math.acos(dot), s = Math.sin(angle);
    return a.map((c, k) => (Math.sin((1 - f) * angle) * c + Math.sin(f * angle) * b[k]) / s);
  }

  function matrix(q) {  // rotation matrix (rows) of a unit quaternion [x, y, z, w]
    const [x, y, z, w] = q;
    return [[1 - 2 * (y * y + z * z), 2 * (x * y - z * w), 2 * (x * z + y * w)],
            [2 * (x * y + z * w), 1 - 2 * (x * x + z * z), 2 * (y * z - x * w)],
            [2 * (x * z - y * w), 2 * (y * z + x * w), 1 - 2 * (x * x + y * y)]];
  }

  // ---- drawing -------------------------------------------------------------------------------------
  function fit() {
    const w = canvas.width, h = canvas.height;
    return Math.min(w / (G.board.width + 2 * MARGIN), h / (G.board.depth + 2 * MARGIN));
  }

  function transform() {  // board cm -> canvas pixels
    const scale = fit() * view.zoom;
    const ox = canvas.width / 2 - view.cx * scale, oy = canvas.height / 2 + view.cy * scale;
    return { scale: scale, x: (x) => ox + x * scale, y: (y) => oy - y * scale,
             back: (px, py) => [(px - ox) / scale, (oy - py) / scale] };
  }

  function resize() {
    const dpr = window.devicePixelRatio || 1;
    const w = Math.max(1, Math.round(canvas.clientWidth * dpr)), h = Math.max(1, Math.round(canvas.clientHeight * dpr));
    if (canvas.width !== w || canvas.height !== h) { canvas.width = w; canvas.height = h; boardCache = null; }
    dirty = true;
  }

  function ringPath(c, T, rings) {
    for (const ring of rings) {
      ring.forEach(([x, y], k) => (k ? c.lineTo(T.x(x), T.y(y)) : c.moveTo(T.x(x), T.y(y))));
      c.closePath();
    }
  }

  function label(c, text, x, y, colour, size, options) {
    const o = options || {};
    c.save();
    c.translate(x, y);
    if (o.angle) c.rotate(o.angle);
    c.font = `${o.style || ""} ${o.weight || "bold"} ${size}px "DejaVu Sans", Arial, sans-serif`;
    c.textAlign = o.align || "center";
    c.textBaseline = "middle";
    c.lineJoin = "round";
    c.lineWidth = Math.max(2, size / 4);
    c.strokeStyle = o.halo || "rgba(255,255,255,0.9)";
    c.strokeText(text, 0, 0);
    c.fillStyle = colour;
    c.fillText(text, 0, 0);
    c.restore();
  }

  function drawBoard() {
    const off = document.createElement("canvas");
    off.width = canvas.width; off.height = canvas.height;
    const c = off.getContext("2d"), T = transform(), B = G.board, px = window.devicePixelRatio || 1;
    c.fillStyle = PAINT.table; c.fillRect(0, 0, off.width, off.height);
    c.fillStyle = PAINT.sea; c.fillRect(T.x(0), T.y(B.depth), B.width * T.scale, B.depth * T.scale);
    c.strokeStyle = "rgba(255,255,255,0.35)";
    for (let x = 5; x < B.width; x += 5) { c.lineWidth = x % 10 ? 0.5 : 1; c.beginPath(); c.moveTo(T.x(x), T.y(0)); c.lineTo(T.x(x), T.y(B.depth)); c.stroke(); }
    for (let y = 5; y < B.depth; y += 5) { c.lineWidth = y % 10 ? 0.5 : 1; c.beginPath(); c.moveTo(T.x(0), T.y(y)); c.lineTo(T.x(B.width), T.y(y)); c.stroke(); }
    for (const land of B.lands) {
      c.beginPath(); ringPath(c, T, land.rings);
      c.fillStyle = land.relief > 0 ? PAINT.relief : PAINT.land; c.fill("evenodd");
      c.strokeStyle = PAINT.coast; c.lineWidth = 1 * px; c.stroke();
    }
    const taken = [];  // the boxes of what is written or marked on the board: labels are placed clear of them
    for (const land of B.lands) {
      if (land.area < 1) continue;
      const size = (land.area > 200 ? 15 : 10) * px, x = T.x(land.label[0]), y = T.y(land.label[1]);
      const o = { style: "italic", weight: "normal", halo: "rgba(236,220,176,0.9)" };
      label(c, land.name, x, y, PAINT.landText, size, o);
      taken.push(named(textBox(c, land.name, x, y, size, o), `land ${land.name}`));
    }
    for (const route of B.routes) drawRoute(c, T, route, px, taken);
    for (const port of B.ports) {
      const x = T.x(port.at[0]), y = T.y(port.at[1]), s = 5 * px, o = { align: port.left ? "right" : "left" };
      c.strokeStyle = "#fff"; c.lineWidth = 4.5 * px; cross(c, x, y, s);
      c.strokeStyle = PAINT.port; c.lineWidth = 2.5 * px; cross(c, x, y, s);
      label(c, port.name, x + (port.left ? -8 : 8) * px, y, PAINT.port, 11 * px, o);
      taken.push(named([x - s, y - s, x + s, y + s], `port mark ${port.name}`),
                 named(textBox(c, port.name, x + (port.left ? -8 : 8) * px, y, 11 * px, o), `port ${port.name}`));
    }
    for (const route of B.routes) routeLabels(c, T, route, px, taken);
    c.strokeStyle = PAINT.seaEdge; c.lineWidth = 2 * px; c.strokeRect(T.x(0), T.y(B.depth), B.width * T.scale, B.depth * T.scale);
    placed = taken;
    return off;
  }

  function named(box, what) { box.what = what; return box; }

  function textBox(c, text, x, y, size, options) {  // the box [x0, y0, x1, y1] a label would cover (unrotated)
    const o = options || {};
    c.save();
    c.font = `${o.style || ""} ${o.weight || "bold"} ${size}px "DejaVu Sans", Arial, sans-serif`;
    const w = c.measureText(text).width + size / 2;
    c.restore();
    const x0 = o.align === "right" ? x - w : o.align === "left" ? x : x - w / 2;
    return [x0, y - size * 0.7, x0 + w, y + size * 0.7];
  }

  function clear(box, taken) {
    return !taken.some((b) => box[0] < b[2] && b[0] < box[2] && box[1] < b[3] && b[1] < box[3]);
  }


  function cross(c, x, y, s) {
    c.beginPath(); c.moveTo(x - s, y - s); c.lineTo(x + s, y + s); c.moveTo(x - s, y + s); c.lineTo(x + s, y - s); c.stroke();
  }

  function drawRoute(c, T, route, px, taken) {
    for (const leg of route.legs) {
      c.beginPath(); ringPath(c, T, leg.area);
      c.globalAlpha = 0.22; c.fillStyle = route.colour; c.fill("evenodd"); c.globalAlpha = 1;
      c.strokeStyle = route.colour; c.lineWidth = 1.5 * px; c.stroke();
    }
    c.beginPath();
    route.line.forEach(([x, y], k) => (k ? c.lineTo(T.x(x), T.y(y)) : c.moveTo(T.x(x), T.y(y))));
    c.setLineDash([6 * px, 3 * px]); c.strokeStyle = route.colour; c.lineWidth = 1.6 * px; c.stroke(); c.setLineDash([]);
    arrows(c, T, route, px);
    for (const leg of route.legs) {
      const x = T.x(leg.start[0]), y = T.y(leg.start[1]);
      const dx = Math.cos(leg.heading) * 3.5 * T.scale, dy = -Math.sin(leg.heading) * 3.5 * T.scale;
      c.strokeStyle = route.colour; c.lineWidth = 2 * px;
      c.beginPath(); c.moveTo(x, y); c.lineTo(x + dx, y + dy); c.stroke();
      head(c, x + dx, y + dy, Math.atan2(dy, dx), 7 * px, route.colour);
      c.beginPath(); c.arc(x, y, 6 * px, 0, 2 * Math.PI); c.fillStyle = "#fff"; c.fill(); c.stroke();
      label(c, leg.direction[0].toUpperCase(), x, y, route.colour, 8 * px, { halo: "rgba(255,255,255,0)" });
      const r = 7 * px;  // the start's circle and its launch arrow: no label over them
      taken.push(named([x - r, y - r, x + r, y + r], `start ${route.key} ${leg.direction}`),
                 named([Math.min(x, x + dx) - r, Math.min(y, y + dy) - r, Math.max(x, x + dx) + r, Math.max(y, y + dy) + r],
                       `launch arrow ${route.key} ${leg.direction}`));
    }
  }

  function routeLabels(c, T, route, px, taken) {  // zone names and the route's name, each clear of the rest
    const OFFSETS = [[0, 0]];
    for (const r of [14, 24, 36, 50, 66]) for (let k = 0; k < 8; k++) OFFSETS.push([r * Math.cos(k * Math.PI / 4), r * Math.sin(k * Math.PI / 4)]);
    for (const leg of route.legs) {  // the zone's name, and which leg ends there
      const lx = T.x(leg.label[0]), ly = T.y(leg.label[1]);
      const second = `${route.label} ${leg.direction === "north" ? "\u2191" : "\u2193"}`;
      const both = (dx, dy) => {
        const a = textBox(c, leg.zone, lx + dx, ly - 6 * px + dy, 10 * px), b = textBox(c, second, lx + dx, ly + 6 * px + dy, 9 * px, { weight: "normal" });
        return [Math.min(a[0], b[0]), a[1], Math.max(a[2], b[2]), b[3]];
      };
      const [dx, dy] = OFFSETS.map(([ox, oy]) => [ox * px, oy * px]).find(([ox, oy]) => clear(both(ox, oy), taken)) || [0, 0];
      label(c, leg.zone, lx + dx, ly - 6 * px + dy, route.colour, 10 * px);
      label(c, second, lx + dx, ly + 6 * px + dy, route.colour, 9 * px, { weight: "normal" });
      taken.push(named(both(dx, dy), `zone ${leg.zone}`));
    }
    const SHARES = [0.42, 0.36, 0.48, 0.3, 0.54, 0.24, 0.6, 0.18, 0.66, 0.72, 0.12, 0.78];
    let chosen = null;
    for (const share of SHARES) {  // the route's name and value, written along it where nothing else is written
      for (const side of [1, -1]) {
        const at = along(route.line, share);
        let angle = Math.atan2(-(at.dy), at.dx);
        if (angle > Math.PI / 2) angle -= Math.PI; else if (angle < -Math.PI / 2) angle += Math.PI;
        const nx = -Math.sin(angle) * side, ny = Math.cos(angle) * side;
        const x = T.x(at.x) + nx * 12 * px, y = T.y(at.y) + ny * 12 * px;
        const flat = textBox(c, route.title, 0, 0, 12 * px), w = (flat[2] - flat[0]) / 2, h = (flat[3] - flat[1]) / 2;
        const ex = Math.abs(Math.cos(angle)) * w + Math.abs(Math.sin(angle)) * h, ey = Math.abs(Math.sin(angle)) * w + Math.abs(Math.cos(angle)) * h;
        const box = [x - ex, y - ey, x + ex, y + ey];
        chosen = chosen || { x, y, angle, box };
        if (clear(box, taken)) { chosen = { x, y, angle, box }; break; }
      }
      if (chosen && clear(chosen.box, taken)) break;
    }
    label(c, route.title, chosen.x, chosen.y, route.colour, 12 * px, { angle: chosen.angle });
    taken.push(named(chosen.box, `route ${route.key}`));
  }

  function along(line, share) {  // the point a share of the way along a polyline, with its direction
    const lengths = line.slice(1).map((p, k) => Math.hypot(p[0] - line[k][0], p[1] - line[k][1]));
    let goal = share * lengths.reduce((a, b) => a + b, 0);
    for (let k = 0; k < lengths.length; k++) {
      if (goal <= lengths[k] || k === lengths.length - 1) {
        const f = lengths[k] ? Math.min(1, goal / lengths[k]) : 0, a = line[k], b = line[k + 1];
        return { x: a[0] + f * (b[0] - a[0]), y: a[1] + f * (b[1] - a[1]), dx: b[0] - a[0], dy: b[1] - a[1] };
      }
      goal -= lengths[k];
    }
    return { x: line[0][0], y: line[0][1], dx: 1, dy: 0 };
  }

  function arrows(c, T, route, px) {  // arrowheads each way, each direction on its own side of the line
    const lengths = route.line.slice(1).map((p, k) => Math.hypot(p[0] - route.line[k][0], p[1] - route.line[k][1]));
    const total = lengths.reduce((a, b) => a + b, 0), n = Math.max(1, Math.floor(total / 12));
    for (let k = 0; k < n; k++) {
      const at = along(route.line, (k + 0.5) / n), len = Math.hypot(at.dx, at.dy) || 1;
      for (const sign of [1, -1]) {
        const ux = sign * at.dx / len, uy = sign * at.dy / len;
        const x = at.x + uy * 0.9, y = at.y - ux * 0.9;  // to the right of travel
        head(c, T.x(x), T.y(y), Math.atan2(-uy, ux), 6 * px, route.colour);
      }
    }
  }

  function head(c, x, y, angle, size, colour) {
    c.save(); c.translate(x, y); c.rotate(angle);
    c.beginPath(); c.moveTo(size / 2, 0); c.lineTo(-size / 2, size / 3); c.lineTo(-size / 2, -size / 3); c.closePath();
    c.fillStyle = colour; c.fill(); c.restore();
  }

  const FACES = [0, 1, 2, 3, 4, 5].map((k) => {
    const axis = (i) => [0, 1, 2].map((j) => (j === i ? 1 : 0));
    const n = axis(Math.floor(k / 2)).map((c) => (k % 2 ? -c : c));
    return { n: n, u: axis((Math.floor(k / 2) + 1) % 3), v: axis((Math.floor(k / 2) + 2) % 3) };
  });

  function pips(value) {  // pip centres as fractions of a face (textures.pip_centres)
    const a = 0.25, m = 0.5, b = 0.75;
    const layouts = { 0: [], 1: [[m, m]], 2: [[a, a], [b, b]], 3: [[a, a], [m, m], [b, b]], 4: [[a, a], [b, a], [a, b], [b, b]],
                      5: [[a, a], [b, a], [m, m], [a, b], [b, b]], 6: [[a, a], [b, a], [a, m], [b, m], [a, b], [b, b]] };
    if (layouts[value]) return layouts[value];
    const side = Math.ceil(Math.sqrt(value)), cells = [];
    for (let j = 0; j < side; j++) for (let i = 0; i < side; i++) cells.push([(i + 0.5) / side, (j + 0.5) / side]);
    return cells.slice(0, value);
  }

  function rgb(c, f) { return `rgb(${c.map((v) => Math.round(v * f)).join(",")})`; }

  function drawDie(c, T, name, pose) {
    const ship = G.ships[name], seat = G.seats[ship.seat], colour = seat ? seat.rgb : [128, 128, 128];
    const R = matrix(pose.q), p = pose.p;
    const world = (v) => [0, 1, 2].map((i) => p[i] + half * (R[i][0] * v[0] + R[i][1] * v[1] + R[i][2] * v[2]));
    const screen = (w) => [T.x(w[0] * 100), T.y(w[1] * 100)];
    const lift = Math.max(0, p[2] - half) * 100 * 0.6;  // a die in the air casts its shadow south-east
    const corners = [];
    for (const sx of [-1, 1]) for (const sy of [-1, 1]) for (const sz of [-1, 1]) corners.push(screen(world([sx, sy, sz])));
    c.beginPath();
    hull(corners).forEach(([x, y], k) => (k ? c.lineTo(x + lift * T.scale, y + lift * T.scale) : c.moveTo(x + lift * T.scale, y + lift * T.scale)));
    c.closePath(); c.fillStyle = "rgba(0,0,0,0.28)"; c.fill();
    FACES.forEach((face, k) => {
      const n = [0, 1, 2].map((i) => R[i][0] * face.n[0] + R[i][1] * face.n[1] + R[i][2] * face.n[2]);
      if (n[2] <= 1e-3) return;  // seen from above: only faces turned up
      const at = (su, sv) => screen(world(face.n.map((c0, i) => c0 + su * face.u[i] + sv * face.v[i])));
      const quad = [at(-1, -1), at(1, -1), at(1, 1), at(-1, 1)];
      const light = AMBIENT + (1 - AMBIENT) * Math.max(0, n[0] * LIGHT[0] + n[1] * LIGHT[1] + n[2] * LIGHT[2]);
      c.beginPath(); quad.forEach(([x, y], j) => (j ? c.lineTo(x, y) : c.moveTo(x, y))); c.closePath();
      c.fillStyle = rgb(colour, light); c.fill();
      c.strokeStyle = rgb(colour, 0.45); c.lineWidth = 1; c.stroke();
      const width = Math.hypot(quad[1][0] - quad[0][0], quad[1][1] - quad[0][1]);
      const value = ship.faces[k];
      if (width * Math.min(1, n[2] * 1.5) < 6 || !value) return;
      c.fillStyle = seat && seat.colour === "yellow" ? "#141414" : "#fafafa";
      const r = (value <= 6 ? 0.09 : 0.07) * width;
      for (const [u, v] of pips(value)) {
        const x = (1 - u) * (1 - v) * quad[0][0] + u * (1 - v) * quad[1][0] + u * v * quad[2][0] + (1 - u) * v * quad[3][0];
        const y = (1 - u) * (1 - v) * quad[0][1] + u * (1 - v) * quad[1][1] + u * v * quad[2][1] + (1 - u) * v * quad[3][1];
        c.beginPath(); c.arc(x, y, r, 0, 2 * Math.PI); c.fill();
      }
    });
  }

  function hull(points) {  // convex hull (monotone chain) of a few points
    const pts = points.slice().sort((a, b) => a[0] - b[0] || a[1] - b[1]);
    const cross3 = (o, a, b) => (a[0] - o[0]) * (b[1] - o[1]) - (a[1] - o[1]) * (b[0] - o[0]);
    const lower = [], upper = [];
    for (const p of pts) { while (lower.length >= 2 && cross3(lower[lower.length - 2], lower[lower.length - 1], p) <= 0) lower.pop(); lower.push(p); }
    for (const p of pts.reverse()) { while (upper.length >= 2 && cross3(upper[upper.length - 2], upper[upper.length - 1], p) <= 0) upper.pop(); upper.push(p); }
    return lower.slice(0, -1).concat(upper.slice(0, -1));
  }

  function trail(c, T, track, from, to) {  // the recorded path between two times, as one line
    c.beginPath();
    const start = along_(track, from);
    c.moveTo(T.x(start.p[0] * 100), T.y(start.p[1] * 100));
    for (let j = 0; j < track.times.length && track.times[j] < to; j++) {
      if (track.times[j] > from) c.lineTo(T.x(track.poses[j].p[0] * 100), T.y(track.poses[j].p[1] * 100));
    }
    const end = along_(track, to);
    c.lineTo(T.x(end.p[0] * 100), T.y(end.p[1] * 100));
  }

  function drawTrails(c, T, step, t) {
    const px = window.devicePixelRatio || 1;
    step.tracks.forEach((track, k) => {
      const seat = G.seats[G.ships[track.name].seat];
      if (t < track.times[0]) return;
      const counted = track.aground === null ? t : Math.min(t, track.aground);
      trail(c, T, track, track.times[0], counted);
      c.setLineDash(k ? [3 * px, 3 * px] : []);
      c.strokeStyle = "rgba(255,255,255,0.8)"; c.lineWidth = 4 * px; c.stroke();
      c.strokeStyle = rgb(seat.rgb, 0.85); c.lineWidth = 2 * px; c.stroke();
      c.setLineDash([]);
      if (track.aground === null || t < track.aground) return;
      // D19: what the die did after it ran aground did not count: its path faded, the crossing marked
      trail(c, T, track, track.aground, Math.min(t, track.end));
      c.setLineDash([1.5 * px, 3 * px]); c.strokeStyle = rgb(seat.rgb, 0.85); c.globalAlpha = 0.35;
      c.lineWidth = 1.5 * px; c.stroke(); c.globalAlpha = 1; c.setLineDash([]);
      const x = T.x(track.crossed[0] * 100), y = T.y(track.crossed[1] * 100), s = 7 * px;
      const rest = t >= step.duration ? step.after[track.name] : null;
      if (rest) {  // dashed to where the rules set it down
        c.beginPath(); c.moveTo(x, y); c.lineTo(T.x(rest.p[0] * 100), T.y(rest.p[1] * 100));
        c.setLineDash([4 * px, 3 * px]); c.strokeStyle = "#333"; c.lineWidth = 1.2 * px; c.stroke(); c.setLineDash([]);
      }
      c.beginPath(); c.moveTo(x, y - s); c.lineTo(x + s * 0.9, y + s * 0.6); c.lineTo(x - s * 0.9, y + s * 0.6); c.closePath();
      c.fillStyle = "#fff"; c.fill(); c.strokeStyle = rgb(seat.rgb, 0.85); c.lineWidth = 2 * px; c.stroke();
    });
  }

  function drawThrown(c, T, step, poses) {  // a ring round the die this step threw
    const pose = step.ship ? poses[step.ship] : null;
    if (!pose || pose.p[2] <= -half) return;
    const px = window.devicePixelRatio || 1, x = T.x(pose.p[0] * 100), y = T.y(pose.p[1] * 100);
    const r = Math.max(1.3 * G.die / PER_M * 100 * T.scale, 9 * px);
    c.beginPath(); c.arc(x, y, r, 0, 2 * Math.PI);
    c.strokeStyle = "rgba(255,255,255,0.95)"; c.lineWidth = 4 * px; c.stroke();
    c.strokeStyle = "#111"; c.lineWidth = 1.6 * px; c.stroke();
  }

  function draw() {
    resize();
    if (!boardCache) boardCache = drawBoard();
    ctx.drawImage(boardCache, 0, 0);
    const T = transform(), step = steps[state.index];
    if (state.trails && step.tracks.length) drawTrails(ctx, T, step, state.t);
    const poses = posesAt(step, state.t);
    drawThrown(ctx, T, step, poses);
    Object.keys(poses).filter((n) => poses[n].p[2] > -half)
      .sort((a, b) => poses[a].p[2] - poses[b].p[2]).forEach((name) => drawDie(ctx, T, name, poses[name]));
  }

  // ---- words and controls ------------------------------------------------------------------------------
  const $ = (id) => document.getElementById(id);

  function done() { return state.t >= steps[state.index].duration; }

  function items(list, cls) {
    return list.map(([kind, text]) => { const li = document.createElement("li"); li.className = `k-${kind} ${cls}`; li.textContent = text; return li; });
  }

  let told = null;  // the step and outcome the captions show: rebuilt when either changes, not every frame

  function tell() {
    const step = steps[state.index];
    $("counter").textContent = `step ${state.index + 1} of ${N} \u00b7 round ${step.round}, turn ${step.turn}` +
      (step.kind === "throw" ? ` \u00b7 ${Math.min(state.t, step.duration).toFixed(2)} / ${step.duration.toFixed(2)} s` : " \u00b7 pirate raid");
    $("play").innerHTML = state.mode === "playing" ? "&#x275A;&#x275A; pause" : "&#x25B6; play";
    const now = `${state.index}/${done()}`;
    if (now === told) return;
    told = now;
    const where = $("where");
    where.replaceChildren(...step.where.map((text, k) => {
      const div = document.createElement("div"); div.textContent = text; if (k === 0) div.className = "line"; return div;
    }));
    $("news").replaceChildren(...items(step.pre, "before"), ...(done() ? items(step.post, "after") : []));
    $("final").hidden = !(state.index === N - 1 && done() && G.final);
    more();
    const segs = $("timeline").children;
    for (let k = 0; k < segs.length; k++) segs[k].classList.toggle("now", k === state.index);
    $("timeline").setAttribute("aria-valuenow", String(state.index + 1));
  }

  function more() {  // captions below the captions' box fade out at its foot, till scrolled to
    const news = $("news");
    news.classList.toggle("more", news.scrollHeight - news.scrollTop > news.clientHeight + 1);
  }

  function go(index, show) {  // show: "start" plays the step from its start, "end" shows its outcome
    state.index = Math.max(0, Math.min(N - 1, index));
    state.t = show === "end" ? steps[state.index].duration : 0;
    state.hold = HOLD;
    if (show === "start" && state.mode !== "playing") state.mode = "single";
    if (show === "end" && state.mode === "single") state.mode = "paused";
    $("news").scrollTop = 0;  // a new step's captions open at their top
    told = null;
    dirty = true; tell();
  }

  function turnStart(i) { const s = steps[i]; while (i > 0 && steps[i - 1].round === s.round && steps[i - 1].turn === s.turn) i--; return i; }
  function roundStart(i) { const r = steps[i].round; while (i > 0 && steps[i - 1].round === r) i--; return i; }
  function nextWhere(i, key) { const k = key(steps[i]); for (let j = i + 1; j < N; j++) if (key(steps[j]) !== k) return j; return i; }

  const turnKey = (s) => `${s.round}/${s.turn}`, roundKey = (s) => s.round;
  const actions = {
    first: () => { state.mode = "paused"; go(0, "none"); },
    last: () => { state.mode = "paused"; go(N - 1, "end"); },
    prev: () => go(state.index - 1, "start"),
    next: () => (state.index === N - 1 ? go(N - 1, "end") : go(state.index + 1, "start")),
    "prev-turn": () => { const s = turnStart(state.index); go(s > 0 ? turnStart(s - 1) : 0, "start"); },
    "next-turn": () => go(nextWhere(state.index, turnKey), "start"),
    "prev-round": () => { const s = roundStart(state.index); go(s > 0 ? roundStart(s - 1) : 0, "start"); },
    "next-round": () => go(nextWhere(state.index, roundKey), "start"),
    play: () => {
      if (state.mode === "playing") state.mode = "paused";
      else { if (state.index === N - 1 && done()) go(0, "none"); state.mode = "playing"; }
      tell();
    },
  };

  function timeline() {
    const bar = $("timeline");
    bar.setAttribute("aria-valuemin", "1"); bar.setAttribute("aria-valuemax", String(N));
    let parity = 0;
    steps.forEach((step, k) => {
      const seg = document.createElement("div");
      if (k > 0 && step.round !== steps[k - 1].round) parity ^= 1;
      seg.className = `seg r${parity}` + (step.kind === "pirates" ? " pirates" : "") +
        (k > 0 && step.round !== steps[k - 1].round ? " round-start" : "");
      const mark = MARKS.find(([kind]) => step.post.some(([k2]) => k2 === kind));
      if (mark) { seg.classList.add("mark"); seg.style.setProperty("--mark", mark[1]); }
      seg.title = `round ${step.round}, turn ${step.turn}: ${step.where[step.where.length - 1]}` +
        (step.post.length ? "\n" + step.post.map(([, t]) => t).join("\n") : "");
      seg.addEventListener("click", () => go(k, state.mode === "playing" ? "start" : "end"));
      bar.appendChild(seg);
    });
  }

  function legend() {
    const box = $("legend"), rows = [];
    // every text from the record or the map goes in through escape(): none of it is markup
    G.seats.forEach((seat, k) => rows.push(`<div><span class="swatch" style="background:${escape(rgb(seat.rgb, 1))}"></span>${escape(seat.colour)} (seat ${k}, ${escape(seat.strategy)})</div>`));
    G.board.routes.forEach((r) => rows.push(`<div><span class="swatch" style="background:repeating-linear-gradient(90deg,${escape(r.colour)} 0 6px,transparent 6px 9px)"></span>route: ${escape(r.title)}</div>`));
    rows.push(`<div><span class="swatch" style="text-align:center;color:#fff;font-weight:bold">\u2715</span>pirate port</div>`);
    rows.push(`<div><span class="swatch" style="background:rgba(200,200,200,0.4);border:1px solid #ccc"></span>destination zone</div>`);
    rows.push(`<div>Keys: space play/pause, \u2192 next step, \u2190 previous, \u2191 next turn, \u2193 previous, Page Down next round, Page Up previous, Home/End.</div>`);
    box.innerHTML = rows.join("");
  }

  function escape(text) { return String(text).replace(/[&<>"]/g, (ch) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;" }[ch])); }

  function finalTable() {
    if (!G.final) return;
    $("final").querySelector("tbody").innerHTML = G.final.rows.map((row) => {
      const seat = G.seats.find((s) => s.colour === row.colour);
      return `<tr class="standing"><td>${escape(row.place)}</td><td><span class="swatch" style="background:${seat ? escape(rgb(seat.rgb, 1)) : "#888"}"></span>${escape(row.colour)}</td>` +
        `<td>${escape(row.points)}</td><td>${escape(row.full)}</td><td>${escape(row.half / 2)}</td><td>${escape(row.ransom)}</td><td>${escape(row.fulfilled)}</td></tr>` +
        `<tr class="why"><td></td><td colspan="6">why: ${escape(row.reason)}</td></tr>`;
    }).join("");
    const names = G.final.winners.map((w) => G.seats[w] ? G.seats[w].colour : `seat ${w}`);
    $("winner").textContent = `Winner: ${names.join(" and ")}` + (names.length > 1 ? " (shared)" : "");
  }

  function about() {
    $("about").textContent = `${G.title} \u00b7 seed ${G.seed} \u00b7 ${G.seats.length} players, ${G.rounds} rounds \u00b7 somaliland ${G.version}`;
    const notes = [];
    if (!G.paths) notes.push("This record was made with --no-paths: each die moves in a straight line from rest to rest, not as it rolled.");
    for (const w of G.warnings) if (!/without recorded paths/.test(w)) notes.push(w);
    if (notes.length) { $("notice").hidden = false; $("notice").textContent = notes.join(" "); }
  }

  function controls() {
    for (const id in actions) $(id).addEventListener("click", actions[id]);
    $("speed").addEventListener("change", (e) => { state.speed = parseFloat(e.target.value); });
    $("trails").addEventListener("change", (e) => { state.trails = e.target.checked; dirty = true; });
    $("news").addEventListener("scroll", more);
    window.addEventListener("resize", more);
    const keys = { " ": "play", ArrowRight: "next", ArrowLeft: "prev", ArrowUp: "next-turn", ArrowDown: "prev-turn",
                   PageDown: "next-round", PageUp: "prev-round", Home: "first", End: "last" };
    document.addEventListener("keydown", (e) => {
      if (e.target.tagName === "SELECT" || e.target.tagName === "INPUT") return;
      if (keys[e.key]) { e.preventDefault(); actions[keys[e.key]](); }
    });
    let drag = null;
    canvas.addEventListener("wheel", (e) => {
      e.preventDefault();
      const dpr = window.devicePixelRatio || 1, T = transform();
      const [x, y] = T.back(e.offsetX * dpr, e.offsetY * dpr);
      const factor = Math.pow(1.15, -e.deltaY / 100);
      view.zoom = Math.max(1, Math.min(12, view.zoom * factor));
      const T2 = transform(), [x2, y2] = T2.back(e.offsetX * dpr, e.offsetY * dpr);
      view.cx += x - x2; view.cy += y - y2;
      boardCache = null; dirty = true;
    }, { passive: false });
    canvas.addEventListener("mousedown", (e) => { drag = [e.clientX, e.clientY]; canvas.classList.add("dragging"); });
    window.addEventListener("mouseup", () => { drag = null; canvas.classList.remove("dragging"); });
    window.addEventListener("mousemove", (e) => {
      if (!drag) return;
      const s = transform().scale / (window.devicePixelRatio || 1);
      view.cx -= (e.clientX - drag[0]) / s; view.cy += (e.clientY - drag[1]) / s;
      drag = [e.clientX, e.clientY]; boardCache = null; dirty = true;
    });
    canvas.addEventListener("dblclick", () => { view.zoom = 1; view.cx = G.board.width / 2; view.cy = G.board.depth / 2; boardCache = null; dirty = true; });
    window.addEventListener("resize", resize);
  }

  let last = null;
  function tick(now) {
    const dt = last === null ? 0 : Math.min(0.1, (now - last) / 1000) * state.speed;
    last = now;
    if (state.mode !== "paused") {
      const step = steps[state.index];
      if (state.t < step.duration) { state.t = Math.min(step.duration, state.t + dt); dirty = true; tell(); }
      else if (state.mode === "single") { state.mode = "paused"; tell(); }
      else if ((state.hold -= dt) <= 0) {
        if (state.index < N - 1) go(state.index + 1, "start"); else { state.mode = "paused"; tell(); }
      }
    }
    if (dirty) { draw(); dirty = false; }
    requestAnimationFrame(tick);
  }

  about(); legend(); finalTable(); timeline(); controls();
  go(0, "none");
  requestAnimationFrame(tick);
  window.replay = {  // for tests and the curious: where the page stands, and a way to move
    steps: N,
    state: () => ({ index: state.index, t: state.t, done: done(), mode: state.mode, duration: steps[state.index].duration }),
    go: (i, show) => go(i, show || "end"),
    labels: () => placed.map((b) => ({ what: b.what, box: b.slice(0, 4) })),
  };
})();
