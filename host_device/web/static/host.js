// The host's console: the assist keys as buttons (host mode: next and
// pause), the seats for the keys that wait for one, the roles entry, the
// counts, the free timers, the questions and messages, the phones' QR codes.
"use strict";
let socket = null;
let view = null;
let received = 0;

function send(message) {
  if (socket && socket.readyState === WebSocket.OPEN) socket.send(JSON.stringify(message));
}


function buttons(el, items) {
  // items: [text, message, enabled, classes]; rebuilt only when they change. A text given as a list
  // of [words, class] is one span a line (a seat: its number and marks, then its role)
  const key = JSON.stringify(items);
  if (el.dataset.key === key) return;
  el.dataset.key = key;
  el.innerHTML = "";
  for (const [text, message, enabled, cls] of items) {
    const b = document.createElement("button");
    if (Array.isArray(text)) {
      for (const [words, part] of text) {
        const span = document.createElement("span");
        span.className = part;
        span.textContent = words;
        b.appendChild(span);
      }
    } else b.textContent = text;
    b.disabled = !enabled;
    if (cls) b.className = cls;
    b.addEventListener("click", () => send(message));
    el.appendChild(b);
  }
}

function seatText(x) {
  let t = String(x.seat);
  if (x.fouls) t += " " + "Ф".repeat(x.fouls);
  if (x.nominated_by) t += " ▲";
  if (x.voted !== null && x.voted !== undefined) t += ` ✓${x.voted || "все"}`;
  // the role (after the end, or the host's role view) on a line of its own, in smaller type
  return x.role ? [[t, "seat-marks"], [x.role, "seat-role"]] : [[t, "seat-marks"]];
}

function voteLine(vote) {
  // host mode: the vote the device runs (public: the phones show it too)
  if (!vote) return "";
  const whom = vote.candidate ? `за игрока ${vote.candidate}` : "все уходят?";
  return `Голосование: ${whom}${vote.open ? " — окно открыто" : ""}`;
}

function draw() {
  const v = view;
  $("title").textContent = (v.table ? `${v.table} · ` : "") + v.title; // «Стол 2 · игра 3 · День 1 …»
  $("paused").hidden = !v.paused;
  $("speaker").textContent = v.speaker ? `Говорит игрок ${v.speaker}` : v.winner ? (v.winner === "red" ? "Победа мирных жителей" : "Победа мафии") : voteLine(v.vote);
  const q = v.question;
  $("question").hidden = !q;
  if (q) {
    $("question-text").textContent = q.text;
    $("yes").textContent = q.yes;
    $("no").hidden = !q.no;
    $("no").textContent = q.no || "";
  }
  $("messages").innerHTML = "";
  for (const m of v.messages || []) { const li = document.createElement("li"); li.textContent = m; $("messages").appendChild(li); }
  $("waiting").textContent = (v.waiting || []).join("\n");
  buttons($("keys"), v.keys.map((k) => [k.label, { key: k.name }, k.legal, `key-${k.name}`]));
  const counting = v.pending === "count";
  $("pad").hidden = !counting;
  if (counting) buttons($("pad"), [1, 2, 3, 4, 5, 6, 7, 8, 9, 0].map((d) => [String(d), { seat: d === 0 ? 10 : d }, true]));
  const timers = v.pending === "timer";
  $("timers").hidden = !timers;
  if (timers) buttons($("timers"), [...v.timers.map((t, i) => [t, { seat: i + 1 }, true]), ["стоп", { seat: 10 }, true]]);
  // host mode: the seats are shown, never pressed from here (a seat is pressed by its own button or phone)
  buttons($("seats"), v.seats.map((x) => [seatText(x), { seat: x.seat }, v.mode !== "host",
    ["seat", x.alive ? "" : "out", x.selected ? "selected" : "", v.speaker === x.seat ? "speaking" : ""].join(" ")]));
  $("seats").classList.toggle("roles", v.seats.some((x) => x.role)); // wider cells: a role fits whole
  $("candidates").textContent = v.candidates || "";
  $("transcript").textContent = v.transcript ? `Услышано: «${v.transcript}»` : "";
  $("typed").hidden = !v.typed;
  $("withdraw").hidden = !v.withdraw_foul; // host mode: the device's foul, while it is the last input
  $("withdraw-foul").textContent = v.withdraw_foul ? `Снять: ${v.withdraw_foul}` : "";
  drawSeatGrid(v, send); // the players at the table (seating.js)
  drawBestMove(v);
  drawChapters(v);
  tick();
}

function tick() {
  if (!view) return;
  const run = view.paused ? 0 : ((performance.now() - received) / 1000) * (view.speed || 1);
  const parts = [];
  const counted = view.starts_in === null || view.starts_in === undefined ? 0 : Math.max(0, run - view.starts_in);
  if (view.time_left !== null) parts.push(clock(view.time_left - counted));
  if (view.free_left !== null && view.free_left !== undefined) parts.push(`таймер ${clock(view.free_left - run)}`);
  $("clock").textContent = parts.join(" · ");
}

function phones(p) {
  $("phones-box").hidden = !p.seats.length;
  const box = $("phones");
  box.innerHTML = "";
  for (const seat of p.seats) {
    const fig = document.createElement("figure");
    const on = p.connected.includes(seat);
    fig.innerHTML = `<img alt="QR место ${seat}" src="/api/qr/${seat}.svg?t=${encodeURIComponent(token)}"><figcaption>место ${seat}${on ? " · подключён" : ""}</figcaption>`;
    const link = location.origin + p.links[seat];  // the seat's link as text: to send, or to open on a laptop
    fig.insertAdjacentHTML("beforeend", `<a class="link" style="overflow-wrap:anywhere" href="${link}">${link}</a>`);
    box.appendChild(fig);
  }
}

function connect() {
  socket = socketTo("/api/host");
  socket.onopen = () => { $("status").textContent = "подключено"; };
  socket.onmessage = (m) => {
    const v = JSON.parse(m.data);
    if (v.type === "view") { view = v; received = performance.now(); draw(); }
    else if (v.type === "phones") phones(v);
    else if (v.type === "error") { $("error").textContent = v.text; setTimeout(() => { $("error").textContent = ""; }, 4000); }
  };
  socket.onclose = () => { $("status").textContent = "нет связи с устройством… переподключение"; setTimeout(connect, 1000); };
}

// ---- the best move: in the last word of the first night's victim, the host enters the three
// seats he names («лучший ход: три, пять, восемь»); the engine judges them, the device says them back
function drawBestMove(v) {
  const taken = Boolean(v.best_move && v.best_move.length);
  $("best-move").hidden = !v.best_move_due;
  // in host mode the console enters it only while none was taken: the victim's own is never replaced
  $("best-move-seats").disabled = $("best-move").querySelector("button").disabled = v.mode === "host" && taken;
  $("best-move-said").textContent = taken ? `Принято: ${v.best_move.join(", ")}` : "";
}

// ---- after the end: the chapters for the video's description, from the game's start (the view
// has them only once the end is said); with the stream's offset: the command games chapters --from
function drawChapters(v) {
  const has = "chapters" in v;
  $("chapters").hidden = !has;
  if (!has) return;
  const text = (v.chapters || []).join("\n");
  const area = $("chapters-text");
  if (area.value !== text) area.value = text;
  area.hidden = !v.chapters;
  area.style.height = "auto"; // as tall as its lines wrapped at this width: all seen, no scrolling inside
  if (v.chapters) area.style.height = `${area.scrollHeight + area.offsetHeight - area.clientHeight}px`;
  $("chapters-note").textContent = v.chapters
    ? "Время — от начала игры. Со сдвигом на начало игры в записи: host-device games chapters ИГРА --from ЧЧ:ММ:СС"
    : "Главы этой игры — в команде host-device games chapters ИГРА (игру продолжали после перерыва)";
}

function bestMoveSeats(text) {
  return (text.match(/\d+/g) || []).map(Number);
}

$("best-move").addEventListener("submit", (e) => {
  e.preventDefault();
  const seats = bestMoveSeats($("best-move-seats").value);
  if (seats.length) send({ best_move: seats });
  $("best-move-seats").value = "";
});

addEventListener("resize", () => { if (view) drawChapters(view); }); // the chapters' lines wrap anew
$("withdraw-foul").addEventListener("click", () => send({ withdraw_foul: true }));
$("yes").addEventListener("click", () => send({ key: "next" }));
$("no").addEventListener("click", () => send({ key: "undo" }));
$("typed").addEventListener("submit", (e) => {
  e.preventDefault();
  const words = $("words").value.trim();
  if (words) send({ text: words });
  $("words").value = "";
});
connect();
setInterval(tick, 100);
