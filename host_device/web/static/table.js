// The table page: the public state (GET /api/state) redrawn on every public
// event (WebSocket /api/events); the speaker's time counts down here between events.
"use strict";
const HOW = { vote: "заголосован", shot: "убит ночью", disqualified: "дисквалифицирован" };
const ROLES = { civilian: "мирный", sheriff: "Шериф", commissar: "Комиссар", mafia: "мафия", don: "Дон" };
let state = null;
let received = 0;
// With the host's token (?t=…) and --panel web: the "whole table on one screen" switch. It is
// told to the device, which sends this connection alone every seat's LED while it is on.
let console_ = null; // the console's view: every seat's LED only while the device has the switch on
let hostSocket = null;
const whole = () => Boolean(console_ && console_.whole_on);


function seats(s) {
  const table = $("table");
  const n = s.seats.length;
  s.seats.forEach((seat, i) => {
    let el = document.getElementById(`seat-${seat.seat}`);
    if (!el) {
      el = document.createElement("div");
      el.id = `seat-${seat.seat}`;
      el.className = "seat";
      el.innerHTML = `<span class="n">${seat.seat}</span><span class="fouls"></span><span class="role"></span>`;
      const angle = Math.PI / 2 + (2 * Math.PI * i) / n; // seat 1 at the bottom, then clockwise
      el.style.left = `${50 + 46 * Math.cos(angle)}%`;
      el.style.top = `${50 + 44 * Math.sin(angle)}%`;
      el.addEventListener("click", () => { if (whole()) sendHost({ press: seat.seat }); });
      table.appendChild(el);
    }
    el.classList.toggle("out", !seat.alive);
    el.classList.toggle("speaking", s.speaker === seat.seat);
    const led = whole() ? console_.seats[i].led : seat.led;
    for (const p of ["on", "blink", "fast", "pulse", "flash", "slow"]) el.classList.toggle(`led-${p}`, led === p);
    el.querySelector(".fouls").textContent = seat.fouls ? "Ф".repeat(seat.fouls) : "";
    el.querySelector(".role").textContent = seat.role ? ROLES[seat.role] || seat.role : "";
    el.title = seat.left ? `выбыл: ${HOW[seat.left.how] || seat.left.how}` : `игрок ${seat.seat}`;
  });
}

function draw() {
  const s = state;
  if (!s) return;
  $("title").textContent = s.title;
  $("paused").hidden = !s.paused;
  $("speaker").textContent = s.speaker ? `Говорит игрок ${s.speaker}` : "";
  $("phrase").textContent = s.last_phrase || "";
  seats(s);
  $("nominations").innerHTML = s.nominations.map((x) => `<li>${x.seat} <small>(от ${x.by})</small></li>`).join("");
  if (s.vote) {
    const who = s.vote.candidate === 0 ? "все голосуемые" : `за игрока ${s.vote.candidate}`;
    const pressed = Object.entries(s.vote.ballots).filter(([, c]) => c === s.vote.candidate).map(([v]) => v);
    $("vote").textContent = `${who}${s.vote.window_open ? " — голосуйте!" : ""}: ${pressed.join(", ") || "—"}`;
  } else {
    $("vote").textContent = s.candidates.length ? `кандидаты: ${s.candidates.join(", ")}` : "—";
  }
  $("departed").innerHTML = s.seats.filter((x) => !x.alive)
    .map((x) => `<li>${x.seat} — ${HOW[x.left?.how] || "выбыл"}${x.left?.day ? `, день ${x.left.day}` : x.left?.night ? `, ночь ${x.left.night}` : ""}</li>`).join("");
  document.body.classList.toggle("whole", whole());
  $("whole-switch").hidden = !(console_ && console_.whole_table);
  $("whole-on").hidden = !whole();
  $("typed").hidden = !(whole() && console_.typed);
  $("winner").hidden = !s.winner;
  $("winner").textContent = s.winner === "red" ? "Победа мирных жителей!" : s.winner === "black" ? "Победа мафии!" : "";
  tick();
}

function tick() {
  const s = state;
  if (!s || s.time_left === null) { $("clock").textContent = ""; return; }
  const run = s.paused ? 0 : ((performance.now() - received) / 1000) * (s.speed || 1);
  $("clock").textContent = clock(s.time_left - run);
}

async function refresh() {
  try {
    const response = await fetch("/api/state", { cache: "no-store" });
    state = await response.json();
    received = performance.now();
    draw();
  } catch (e) { /* the device is away for a moment: the next event or poll tries again */ }
}

function listen() {
  const socket = socketTo("/api/events");
  socket.onmessage = () => refresh();
  socket.onclose = () => setTimeout(listen, 1000);
}

function sendHost(message) {
  if (hostSocket && hostSocket.readyState === WebSocket.OPEN) hostSocket.send(JSON.stringify(message));
}

function switchWhole() {
  sendHost({ whole: $("whole").checked });
}

function listenHost() {
  hostSocket = socketTo("/api/host");
  hostSocket.onopen = () => { if ($("whole").checked) switchWhole(); }; // a new connection starts off
  hostSocket.onmessage = (m) => {
    const v = JSON.parse(m.data);
    if (v.type === "view") { console_ = v; draw(); }
  };
  hostSocket.onclose = () => setTimeout(listenHost, 1000);
}

$("whole").addEventListener("change", switchWhole);
$("typed").addEventListener("submit", (e) => {
  e.preventDefault();
  const words = $("words").value.trim();
  if (words) sendHost({ text: words });
  $("words").value = "";
});
if (token) listenHost();
refresh();
listen();
setInterval(tick, 100);
setInterval(refresh, 2000);
