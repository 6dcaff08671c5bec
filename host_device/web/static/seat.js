// A phone as seat N's button: one big button, and the seat's own LED by day.
// His role (from his turn of the deal on, for the whole game) and a check's
// answer are written here only, dim and small, and only while he holds «Моя
// роль»: they are never in the page otherwise. At the deal and at night
// (the view's «dark») the page is dark and the same on every seat, whatever
// it holds: no LED, no colour, no vibration (a buzz is heard in a quiet room).
// In a vote it shows the candidate's number, large; a press that did not
// count says why. A heartbeat: the page pings the device every PING_MS and
// says at once when nothing has come back for LOST_MS; a press is never
// queued for later.
"use strict";
const seat = Number(location.pathname.split("/").pop());
const PING_MS = 250;
const LOST_MS = 1200;
let socket = null;
let replaced = false;
let view = null;
let heard = 0; // when the device last said anything (performance.now())
let lost = true;
let holding = false; // «Моя роль» held: the secret shown until it is let go

function show(v) {
  view = v;
  document.body.classList.toggle("dark", Boolean(v.dark));
  $("title").textContent = v.title || "";
  $("number").textContent = seat;
  const button = $("button");
  const led = v.dark ? "off" : v.led; // the device sends none at night; never lit here then either
  for (const p of ["on", "blink", "fast", "pulse", "flash", "slow"]) button.classList.toggle(`led-${p}`, led === p);
  button.classList.toggle("out", v.alive === false && !v.dark); // at night the dead look as the living do
  drawVote(v.vote);
  $("refused").textContent = v.refused || "";
  $("hint").textContent = v.hint || "";
  drawSecret();
  drawOwnName(v, (m) => { if (socket && socket.readyState === WebSocket.OPEN) socket.send(JSON.stringify(m)); });
}

function drawVote(vote) {
  // the vote a press counts in: its candidate's number, large (0: the question whether all leave)
  // no vote: emptied, not only hidden, so the page is the same whatever votes this phone saw
  $("vote-for").hidden = !vote;
  if (vote && vote.open) $("vote-for").className = "open";
  else $("vote-for").removeAttribute("class"); // not class="": the same bytes as a page that never had it
  const all = Boolean(vote) && vote.candidate === 0;
  $("vote-call").textContent = !vote ? "" : all ? "Голосуем: все покидают игру?" : vote.open ? "ГОЛОСУЙТЕ за игрока" : "Голосование за игрока";
  $("vote-number").textContent = !vote ? "" : all ? "все" : String(vote.candidate);
}

function secret() {
  const text = view ? [view.role, view.answer].filter(Boolean).join("\n") : "";
  return text || "Роль ещё не показана: её покажут, когда назовут ваш номер";
}

function drawSecret() {
  $("secret").textContent = holding ? secret() : "";
  if (holding) $("hold").className = "held";
  else $("hold").removeAttribute("class"); // let go: the page as it was, to the byte
}

function hold(on) {
  if (holding === on) return;
  holding = on;
  drawSecret();
}

function setLost(on) {
  lost = on;
  document.body.classList.toggle("lost", on);
  if (!replaced) $("status").textContent = on ? "НЕТ СВЯЗИ с ведущим: нажатия не доходят… переподключение" : `место ${seat} · подключено`;
}

function connect() {
  const mine = socketTo(`/api/seat/${seat}`);
  socket = mine;
  mine.onopen = () => { heard = performance.now(); setLost(false); };
  mine.onmessage = (m) => {
    if (socket !== mine) return;
    heard = performance.now();
    if (lost) setLost(false);
    const v = JSON.parse(m.data);
    if (v.type === "view") show(v);
    if (v.type === "found") ownFound(v); // a page of the roster's names its search matched (seating.js)
    if (v.type === "replaced") {
      replaced = true;
      $("status").textContent = "Это место открыто на другом телефоне: здесь кнопка больше не работает";
      document.body.classList.add("replaced");
    }
  };
  mine.onclose = () => {
    if (socket !== mine || replaced) return;
    socket = null;
    setLost(true);
    setTimeout(connect, 1000);
  };
}

function heartbeat() {
  if (replaced || !socket || socket.readyState !== WebSocket.OPEN) return;
  socket.send(JSON.stringify({ ping: performance.now() }));
  if (!lost && performance.now() - heard > LOST_MS) {
    // nothing came back: the connection is gone, whatever the socket says; a new one is made
    const old = socket;
    socket = null;
    setLost(true);
    old.close();
    setTimeout(connect, 1000);
  }
}

$("button").addEventListener("pointerdown", (e) => {
  e.preventDefault();
  if (lost || !socket || socket.readyState !== WebSocket.OPEN || !view) {
    $("status").textContent = "НЕТ СВЯЗИ: нажатие не отправлено";
    return;
  }
  // what the press was for (the step it was made in) and when: the device refuses it once that is over
  socket.send(JSON.stringify({ press: view.window, at: performance.now() }));
  if (navigator.vibrate && !view.dark) navigator.vibrate(30); // never at night: a buzz is heard
  const b = $("button");
  b.classList.add("pressed");
  setTimeout(() => b.classList.remove("pressed"), 150);
});
const holder = $("hold");
holder.addEventListener("pointerdown", (e) => {
  e.preventDefault();
  if (holder.setPointerCapture) holder.setPointerCapture(e.pointerId);
  hold(true);
});
for (const ended of ["pointerup", "pointercancel", "lostpointercapture"]) holder.addEventListener(ended, () => hold(false));
holder.addEventListener("keydown", (e) => { if (e.key === " " || e.key === "Enter") { e.preventDefault(); hold(true); } });
holder.addEventListener("keyup", () => hold(false));
holder.addEventListener("blur", () => hold(false));
holder.addEventListener("contextmenu", (e) => e.preventDefault()); // a long press opens no menu
document.addEventListener("visibilitychange", () => { if (document.hidden) hold(false); });
$("number").textContent = seat;
connect();
setInterval(heartbeat, PING_MS);
