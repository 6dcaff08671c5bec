// The table page: the public state (GET /api/state) redrawn on every public
// event (WebSocket /api/events); the step's time counts down here between them.
"use strict";
const HOW = { vote: "заголосован", shot: "убит", disqualified: "дисквалифицирован" };
let reviewAsked = false; // the game's review asked for once, at its end
const ROLES = { civilian: "мирный", sheriff: "Шериф", commissar: "Комиссар", mafia: "мафия", don: "Дон", doctor: "доктор", lover: "любовница" };
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
      el.innerHTML = `<span class="n">${seat.seat}</span><span class="fouls"></span><span class="role"></span><span class="name"></span>`;
      const angle = Math.PI / 2 + (2 * Math.PI * i) / n; // seat 1 at the bottom, then clockwise
      const [x, y] = [Math.cos(angle), Math.sin(angle)];
      el.style.left = `${50 + 46 * x}%`;
      el.style.top = `${50 + 44 * y}%`;
      // where its labels go (table.css): the role inwards, the name outwards (at the sides, where
      // the screen's edge is outside, towards the neighbour across the table's middle line)
      el.classList.add(Math.abs(x) > 0.7 ? (x < 0 ? "west" : "east") : y > 0 ? "south" : "north", y > 0 ? "lower" : "upper");
      el.addEventListener("click", () => { if (whole()) sendHost({ press: seat.seat, made_in: console_.window }); });
      table.appendChild(el);
    }
    el.classList.toggle("out", !seat.alive);
    el.classList.toggle("speaking", s.speaker === seat.seat);
    const led = whole() ? console_.seats[i].led : seat.led;
    for (const p of ["on", "blink", "fast", "pulse", "flash", "slow"]) el.classList.toggle(`led-${p}`, led === p);
    el.querySelector(".fouls").textContent = seat.fouls ? `Ф${seat.fouls}` : ""; // the count, large
    const role = el.querySelector(".role");
    role.textContent = seat.role ? ROLES[seat.role] || seat.role : "";
    role.classList.toggle("black", seat.role === "mafia" || seat.role === "don");
    fit(el.querySelector(".name"), seat.name || ""); // only where the device made it public
    el.title = seat.left ? `выбыл: ${HOW[seat.left.how] || seat.left.how}` : `игрок ${seat.seat}`;
  });
}

function fit(el, text) {
  // a long name in one line, smaller until it fits its room (table.css's max-width), then cut with «…»
  if (el.textContent === text && el.dataset.fitted === String(innerWidth)) return;
  el.textContent = text;
  el.dataset.fitted = String(innerWidth);
  el.style.fontSize = "";
  const smallest = 0.75 * parseFloat(getComputedStyle(el).fontSize);
  for (let size = parseFloat(getComputedStyle(el).fontSize); el.scrollWidth > el.clientWidth && size > smallest; ) {
    size -= 1;
    el.style.fontSize = `${size}px`;
  }
}

function seatList(seats) {
  // [5, 8] -> "5 и 8"; [3, 5, 8] -> "3, 5 и 8"
  return seats.length < 2 ? seats.join("") : `${seats.slice(0, -1).join(", ")} и ${seats[seats.length - 1]}`;
}

function round(s) {
  // who is in a revote (through the tie's speeches too), or in the vote for them all
  const kind = s.vote ? s.vote.kind : "main";
  const seats = kind === "main" ? s.tied : s.vote.candidates;
  if (!seats.length) return "";
  return kind === "all" ? `Все голосуемые: ${seatList(seats)}` : `Переголосование: игроки ${seatList(seats)}`;
}

function nowrap(text) {
  // "Переголосование: игроки 5 и 8" breaks after its colon, if at all
  const [head, ...rest] = text.split(": ");
  return rest.length ? `<span>${head}:</span> <span class="who">${rest.join(": ")}</span>` : text;
}

function votes(n) {
  // 1 голос, 3 голоса, 5 голосов
  const [ten, hundred] = [n % 10, n % 100];
  const word = ten === 1 && hundred !== 11 ? "голос" : ten >= 2 && ten <= 4 && (hundred < 12 || hundred > 14) ? "голоса" : "голосов";
  return `${n} ${word}`;
}

function counted(c) {
  // the day's last vote, counted: each candidate's votes (shown, not only said)
  const rows = c.counts.map(([seat, n]) => (seat === 0 ? `все покидают игру: ${votes(n)}` : `игрок ${seat} — ${votes(n)}`));
  if (c.nobody !== null && c.nobody !== undefined) rows.push(`никого — ${votes(c.nobody)}`);
  return `${c.kind === "revote" ? "Итог переголосования" : "Итог"}:\n${rows.join("\n")}`;
}

function voting(s) {
  // the vote in the centre of the table, large (the question, the presses so far), and at the side
  const v = s.vote;
  const line = round(s);
  $("round").innerHTML = nowrap(line);
  $("ballot").hidden = !v;
  if (!v) {
    const waiting = line || (s.candidates.length && !s.counted ? `кандидаты: ${s.candidates.join(", ")}` : "");
    $("vote").textContent = [s.counted ? counted(s.counted) : "", waiting].filter(Boolean).join("\n");
    $("voting").hidden = !$("vote").textContent; // the side panel: what is there to read, or nothing
    return;
  }
  const who = v.candidate === 0 ? "за то, чтобы все покинули игру" : `за игрока ${v.candidate}`;
  const pressed = Object.entries(v.ballots).filter(([, c]) => c === v.candidate).map(([voter]) => voter);
  $("ballot").classList.toggle("open", v.window_open);
  $("ballot-call").innerHTML = nowrap(`${v.window_open ? "ГОЛОСУЙТЕ" : "Голосование"}: ${who}`);
  $("ballot-count").textContent = `голосов: ${pressed.length}`;
  $("vote").textContent = `${line ? `${line}\n` : ""}${who}: ${pressed.join(", ") || "—"}`;
  $("voting").hidden = false;
}

function draw() {
  const s = state;
  if (!s) return;
  $("title").textContent = (s.table ? `${s.table} · ` : "") + s.title; // «Стол 2 · игра 3 · День 1 …»
  $("paused").hidden = !s.paused;
  $("speaker").textContent = s.speaker ? `Говорит игрок ${s.speaker}` : "";
  // before the deal (or a resumed game) with phones: what it waits for, in the middle of the table
  const waiting = s.phones_wait || "";
  $("phones-wait").hidden = !waiting;
  $("phones-wait").textContent = waiting;
  $("called").hidden = s.called === null || s.called === undefined || Boolean(waiting); // the night's number, large
  $("called").textContent = $("called").hidden ? "" : String(s.called);
  $("phrase").textContent = $("called").hidden && !waiting ? s.last_phrase || "" : "";
  seats(s);
  $("nominations").innerHTML = s.nominations.map((x) => `<li>${x.seat} <small>(от ${x.by})</small></li>`).join("");
  voting(s);
  $("nominated").hidden = !s.nominations.length;
  const left = s.seats.filter((x) => !x.alive);
  $("departed").innerHTML = left
    .map((x) => `<li>${x.seat} — ${HOW[x.left?.how] || "выбыл"}${x.left?.day ? ` <small>(день ${x.left.day})</small>` : x.left?.night ? ` <small>(ночь ${x.left.night})</small>` : ""}</li>`).join("");
  $("left").hidden = !left.length;
  document.body.classList.toggle("whole", whole());
  document.body.classList.toggle("over", s.phase === "game_over");
  $("whole-switch").hidden = !(console_ && console_.whole_table);
  $("whole-on").hidden = !whole();
  $("whole-public").hidden = !s.whole_on || whole(); // every TV: the console sees and presses every seat
  $("console-used").hidden = !s.console; // host mode: the console's last use, «С пульта: …»
  $("console-line").textContent = s.console || "";
  $("typed").hidden = !(whole() && console_.typed);
  $("winner").hidden = !s.winner;
  $("review").hidden = s.phase !== "game_over"; // the after-game review (/game/ID), once the game has ended
  if (s.phase === "game_over" && !reviewAsked) {
    reviewAsked = true; // the review drawn now (the club's worker), so that the link opens at once
    setTimeout(() => fetch("/game/current").catch(() => {}), 2000);
  }
  $("winner").textContent = s.winner === "red" ? "Победа мирных жителей!" : s.winner === "black" ? "Победа мафии!" : "";
  tick();
}

function timeLeft(s) {
  // time_left is as of the moment the state was served; from there it runs to its deadline (both on
  // the device's clock, at its speed), and stands still without one (paused) or before the timer starts
  if (s.deadline === null || s.deadline === undefined) return s.time_left;
  const run = (performance.now() - received) / 1000;
  return Math.min(s.time_left, (s.deadline - s.now - run) * (s.speed || 1));
}

function tick() {
  const s = state;
  $("clock").textContent = !s || s.time_left === null || s.phones_wait ? "" : clock(timeLeft(s));
}

async function refresh() {
  try {
    const response = await fetch("/api/state", { cache: "no-store" });
    const at = performance.now(); // the state's moment, as near as the page can tell
    const next = await response.json();
    [state, received] = [next, at];
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
addEventListener("resize", draw); // the names fitted again to their room

