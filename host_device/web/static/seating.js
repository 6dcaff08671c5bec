// The players at the table: the console's seat grid (per seat, a name picked
// from the club's roster with search as you type, or added new, and the
// host's extra points in steps) and a phone's pick of its player's own name.
// Loaded after common.js by host.html and seat.html; host.js calls
// drawSeatGrid(view, send), seat.js drawOwnName(view, send). Names are shown
// here, never spoken: the device keeps saying seat numbers.
"use strict";

function fold(text) {
  return (text || "").toLocaleLowerCase("ru").replaceAll("ё", "е");
}

// a search box over the roster: its matches as buttons, «добавить» for a name it lacks; with
// ``search``, the roster is not here: each text typed is sent, and found() gives back its matches
function picker(box, placeholder, pick, search) {
  const input = document.createElement("input");
  input.className = "pick-input";
  input.placeholder = placeholder;
  input.autocomplete = "off";
  const list = document.createElement("div");
  list.className = "pick-list";
  box.append(input, list);
  const state = { roster: [], input, search, asked: null };
  const done = (message) => { pick(message); input.value = ""; refill(); };
  function refill() {
    list.innerHTML = "";
    const text = input.value.trim().replace(/\s+/g, " ");
    if (!text) return;
    const q = fold(text);
    const found = state.roster.filter((p) => fold(p.name).includes(q) || fold(p.nickname).includes(q)).slice(0, 8);
    for (const p of found) {
      const b = document.createElement("button");
      b.type = "button";
      b.className = "pick";
      b.textContent = p.label;
      b.addEventListener("click", () => done({ player: p.id }));
      list.appendChild(b);
    }
    if (!found.some((p) => fold(p.name) === q)) {
      const add = document.createElement("button");
      add.type = "button";
      add.className = "pick-add";
      add.textContent = `добавить «${text}»`;
      add.addEventListener("click", () => done({ new: text }));
      list.appendChild(add);
    }
  }
  input.addEventListener("input", () => {
    const text = input.value.trim().replace(/\s+/g, " ");
    if (search && text && text !== state.asked) { state.asked = text; search(text); }
    refill();
  });
  input.addEventListener("keydown", (e) => {
    if (e.key !== "Enter") return;
    e.preventDefault();
    const first = list.querySelector("button");
    if (first) first.click();
  });
  state.refill = refill;
  return state;
}

// a picker's roster replaced only when it changed: its buttons are never rebuilt under a finger
function renew(pick, roster) {
  const key = JSON.stringify(roster);
  if (pick.key === key) return;
  pick.key = key;
  pick.roster = roster;
  pick.refill();
}

// ---------------------------------------------------------------- the console's seat grid

let seatGrid = null; // one row a seat, built once (typing in a box is never interrupted by a view)

function extraText(points) {
  if (!points) return "0";
  const digits = Math.abs(points * 10 - Math.round(points * 10)) < 1e-6 ? 1 : 2; // 0,1 or 0,25
  return (points > 0 ? "+" : "−") + Math.abs(points).toFixed(digits).replace(".", ",");
}

function buildSeatGrid(box, seats, send) {
  box.innerHTML = "";
  seatGrid = [];
  for (const x of seats) {
    const row = document.createElement("div");
    row.className = "name-row";
    row.dataset.seat = x.seat;
    const number = document.createElement("span");
    number.className = "name-seat";
    number.textContent = x.seat;
    const name = document.createElement("span");
    name.className = "name-now";
    const clear = document.createElement("button");
    clear.type = "button";
    clear.className = "name-clear";
    clear.textContent = "убрать";
    clear.addEventListener("click", () => send({ name: { seat: x.seat, player: null } }));
    const search = document.createElement("span");
    search.className = "name-pick";
    const pick = picker(search, "имя или ник…", (m) => send({ name: { seat: x.seat, ...m } }));
    const extra = document.createElement("span");
    extra.className = "extra";
    const minus = document.createElement("button");
    const plus = document.createElement("button");
    const value = document.createElement("span");
    minus.type = plus.type = "button";
    minus.className = "extra-minus";
    plus.className = "extra-plus";
    minus.textContent = "−0,1";
    plus.textContent = "+0,1";
    value.className = "extra-value";
    extra.append(minus, value, plus);
    const item = { seat: x.seat, name, clear, pick, value, points: 0, range: null };
    // a step from the value the record holds (games extra may have changed it), not from this copy
    const step = (sign) => send({ extra: { seat: x.seat, steps: sign } });
    minus.addEventListener("click", () => step(-1));
    plus.addEventListener("click", () => step(1));
    item.minus = minus;
    item.plus = plus;
    row.append(number, name, clear, search, extra);
    box.appendChild(row);
    seatGrid.push(item);
  }
}

function drawSeatGrid(v, send) {
  const box = $("names");
  if (!box) return;
  box.hidden = !v.roster;
  if (!v.roster) return;
  const rows = $("names-rows");
  if (!seatGrid || seatGrid.length !== v.seats.length) buildSeatGrid(rows, v.seats, send);
  v.seats.forEach((x, i) => {
    const item = seatGrid[i];
    item.name.textContent = x.player ? x.player.label : "—";
    item.clear.hidden = !x.player;
    item.points = x.extra || 0;
    item.range = v.extra_range;
    item.minus.textContent = `−${extraText(v.extra_range.step).replace("+", "")}`;
    item.plus.textContent = extraText(v.extra_range.step);
    item.value.textContent = extraText(item.points);
    const closed = v.extra_open === false; // host mode: after the end only (console_powers.py)
    item.minus.disabled = closed || item.points - v.extra_range.step < v.extra_range.low - 1e-9;
    item.plus.disabled = closed || item.points + v.extra_range.step > v.extra_range.high + 1e-9;
    item.minus.title = item.plus.title = closed ? "доп. баллы — после конца игры" : "";
    renew(item.pick, v.roster);
  });
}

// ---------------------------------------------------------------- a phone's own name

let ownPick = null;
let ownAuto = false; // the picker opened by the device (no name yet), not by «это не я — изменить»

// a phone is never sent the roster: it sends what is typed ({"find": …}) and the device answers
// with a page of the names that match ({"type": "found"}), shown if the box still holds that text
function drawOwnName(v, send) {
  const box = $("own-name");
  if (!box) return;
  box.hidden = !v.naming;
  if (!v.naming) return;
  if (!ownPick) {
    ownPick = picker(
      $("own-pick"),
      "найдите себя: имя или ник…",
      (m) => { send({ name: m }); $("own-pick").hidden = true; },
      (text) => send({ find: text }),
    );
    $("own-change").addEventListener("click", () => { ownAuto = false; $("own-pick").hidden = false; ownPick.input.focus(); });
  }
  // a name picked at night is kept by the device and given in the morning: the phone says so
  const held = Boolean(v.held);
  $("own-now").textContent = held ? `Имя «${v.held}» запомнено: оно появится утром` : v.player ? `Вы: ${v.player.label}` : "Кто вы? Выберите своё имя";
  $("own-refused").textContent = v.name_refused || "";
  // a view from before his name was taken opened the picker: once the name is his, it closes again
  // (else «это не я — изменить» stays hidden behind a picker he never asked for)
  if (!v.player && !held) {
    if ($("own-pick").hidden) ownAuto = true;
    $("own-pick").hidden = false;
  } else if (ownAuto) {
    ownAuto = false;
    $("own-pick").hidden = true;
  }
  $("own-change").hidden = !(v.player || held) || !$("own-pick").hidden;
}

function ownFound(m) {
  if (!ownPick || m.query !== ownPick.input.value.trim().replace(/\s+/g, " ")) return; // typed on since
  renew(ownPick, m.players);
}
