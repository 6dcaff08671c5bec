// A phone as seat N's button: one big button, and the seat's own LED (its
// role at the device's deal and a check's answer are spelled out here only).
"use strict";
const seat = Number(location.pathname.split("/").pop());
let socket = null;
let replaced = false;

function show(v) {
  $("title").textContent = v.title || "";
  $("number").textContent = seat;
  const button = $("button");
  for (const p of ["on", "blink", "fast", "pulse", "flash", "slow"]) button.classList.toggle(`led-${p}`, v.led === p);
  button.classList.toggle("out", v.alive === false);
  $("signal").textContent = v.signal || "";
  $("hint").textContent = v.hint || "";
}

function connect() {
  socket = socketTo(`/api/seat/${seat}`);
  socket.onopen = () => { $("status").textContent = `место ${seat} · подключено`; };
  socket.onmessage = (m) => {
    const v = JSON.parse(m.data);
    if (v.type === "view") show(v);
    if (v.type === "replaced") {
      replaced = true;
      $("status").textContent = "Это место открыто на другом телефоне: здесь кнопка больше не работает";
      document.body.classList.add("replaced");
    }
  };
  socket.onclose = () => {
    if (replaced) return;
    $("status").textContent = "нет связи с ведущим… переподключение";
    setTimeout(connect, 1000);
  };
}

$("button").addEventListener("pointerdown", (e) => {
  e.preventDefault();
  if (!socket || socket.readyState !== WebSocket.OPEN) return;
  socket.send("press");
  if (navigator.vibrate) navigator.vibrate(30);
  const b = $("button");
  b.classList.add("pressed");
  setTimeout(() => b.classList.remove("pressed"), 150);
});
$("number").textContent = seat;
connect();
