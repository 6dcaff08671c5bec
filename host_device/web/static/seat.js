// A phone as seat N's button: one big button, and the seat's own LED (its
// role at the device's deal and a check's answer are spelled out here only).
// His role stays here for the whole game, behind «Показать мою роль».
// A heartbeat: the page pings the device every PING_MS and says at once
// when nothing has come back for LOST_MS; a press is never queued for later.
"use strict";
const seat = Number(location.pathname.split("/").pop());
const SHOW_MS = 5000; // the role (and a check's answer) stays up this long after the press
const PING_MS = 250;
const LOST_MS = 1200;
let socket = null;
let replaced = false;
let view = null;
let heard = 0; // when the device last said anything (performance.now())
let lost = true;
let hiding = null;

function show(v) {
  view = v;
  $("title").textContent = v.title || "";
  $("number").textContent = seat;
  const button = $("button");
  for (const p of ["on", "blink", "fast", "pulse", "flash", "slow"]) button.classList.toggle(`led-${p}`, v.led === p);
  button.classList.toggle("out", v.alive === false);
  $("signal").textContent = v.signal || "";
  $("hint").textContent = v.hint || "";
  if ($("secret").hidden) $("reveal").hidden = !secret();
  else $("secret").textContent = secret();
  drawOwnName(v, (m) => { if (socket && socket.readyState === WebSocket.OPEN) socket.send(JSON.stringify(m)); });
}

function secret() {
  return view ? [view.role, view.answer].filter(Boolean).join("\n") : "";
}

function reveal() {
  $("secret").textContent = secret();
  $("secret").hidden = false;
  $("reveal").hidden = true;
  clearTimeout(hiding);
  hiding = setTimeout(() => {
    $("secret").hidden = true;
    $("secret").textContent = "";
    $("reveal").hidden = !secret();
  }, SHOW_MS);
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
  if (navigator.vibrate) navigator.vibrate(30);
  const b = $("button");
  b.classList.add("pressed");
  setTimeout(() => b.classList.remove("pressed"), 150);
});
$("reveal").addEventListener("click", reveal);
$("number").textContent = seat;
connect();
setInterval(heartbeat, PING_MS);
