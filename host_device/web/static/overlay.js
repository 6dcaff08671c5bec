// The stream overlay (host_device/web/overlay.py): reads /api/overlay with its token every half second and
// draws it. Its size is its address: /overlay (1920×1080), /overlay/seats (1920×260), /overlay/line (1920×100).
"use strict";
const ROLES = { civilian: "мирный", sheriff: "шериф", commissar: "комиссар", mafia: "мафия", don: "дон", doctor: "доктор", lover: "любовница" };
const KINDS = { main: "Голосование", revote: "Переголосование", all: "Все выставленные покидают игру?" };
const token = new URLSearchParams(location.search).get("t") || "";
const size = location.pathname.replace(/^\/overlay\/?/, "") || "full";
document.body.className = size;
const $ = (id) => document.getElementById(id);
let state = null;

function clock(seconds) {
  const s = Math.max(0, Math.ceil(seconds));
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}`;
}

function left(how) {
  if (!how) return "";
  if (how.how === "shot") return `убит ночью ${how.night}`;
  if (how.how === "vote") return `ушёл голосованием, день ${how.day}`;
  if (how.how === "disqualified") return "удалён";
  return how.how;
}

function votedFor(s) {
  const rounds = s.votes || [];
  return rounds.length ? rounds[rounds.length - 1].voters : {};
}

function drawSeats(s) {
  const box = $("seats");
  const secrets = s.secrets || null;
  const nominated = new Set((s.nominations || []).map((n) => n.seat));
  const voters = votedFor(s);
  box.replaceChildren(...s.seats.map((seat) => {
    const el = document.createElement("div");
    el.className = "seat" + (seat.alive ? "" : " out") + (s.speaker === seat.seat ? " speaking" : "");
    el.id = `seat-${seat.seat}`;
    const role = seat.role || (secrets && secrets.roles[String(seat.seat)]) || "";
    const tags = [];
    if (!seat.alive) tags.push(left(seat.left));
    else if (nominated.has(seat.seat)) tags.push("выставлен");
    if (voters[String(seat.seat)] !== undefined) tags.push(`голос → ${voters[String(seat.seat)]}`);
    el.innerHTML = '<div class="num"></div><div class="name"></div><div class="fouls"></div><div class="tag"></div><div class="role"></div>';
    el.querySelector(".num").textContent = seat.seat;
    el.querySelector(".name").textContent = seat.name || "";
    el.querySelector(".fouls").textContent = seat.fouls ? "●".repeat(seat.fouls) + ` ${seat.fouls}` : "";
    el.querySelector(".tag").textContent = tags.join(" · ");
    const r = el.querySelector(".role");
    r.textContent = role ? ROLES[role] || role : "";
    r.className = role ? `role ${role}` : "role";
    r.hidden = !role;
    return el;
  }));
}

// who voted for a candidate: the presses, and «остальные» for the votes no one pressed (they go to the last one)
function voters(pressed, votes) {
  const named = pressed.slice();
  if (named.length < votes) named.push("остальные");
  return named.join(", ") || "—";
}

function drawVotes(s) {
  const box = $("vote-result");
  const rounds = s.votes || [];
  box.hidden = !rounds.length;
  box.replaceChildren(...rounds.map((round) => {
    const row = document.createElement("div");
    row.className = "row";
    const byCandidate = {};
    for (const [voter, candidate] of Object.entries(round.voters)) (byCandidate[candidate] ||= []).push(voter);
    const parts = round.counts.map(([candidate, votes]) =>
      round.kind === "all" ? `за: ${votes}` : `№${candidate}: ${votes} (${voters(byCandidate[candidate] || [], votes)})`);
    row.textContent = `${KINDS[round.kind] || round.kind}: ${parts.join("; ")}`;
    return row;
  }));
}

function drawChecks(s) {
  const box = $("checks");
  const secrets = s.secrets;
  const lines = [];
  if (secrets) {
    for (const c of secrets.checks) lines.push(`Ночь ${c.night}: ${ROLES[c.by] || c.by} проверяет №${c.seat} — ${c.black ? "чёрный" : "красный"}`);
    for (const shot of secrets.shots) lines.push(`Ночь ${shot.night}: выстрел №${shot.by} в №${shot.seat}`);
    if (secrets.best_move) lines.push(`Лучший ход №${secrets.best_move.seat}: ${secrets.best_move.seats.join(", ")}`);
  }
  box.hidden = !lines.length;
  box.replaceChildren(...lines.map((text) => Object.assign(document.createElement("div"), { textContent: text })));
}

function draw(s) {
  $("waiting").hidden = !s.waiting;
  if (s.waiting) {
    $("waiting").textContent = `Оверлей отстаёт от стола на ${s.delay_s} с: ждём…`;
    return;
  }
  const head = s.table ? `${s.table} · ` : "";
  $("title").textContent = head + (s.title || "");
  const speaker = s.speaker ? s.seats.find((seat) => seat.seat === s.speaker) : null;
  const won = s.winner === "red" ? "Победа мирных жителей!" : s.winner === "black" ? "Победа мафии!" : "";
  $("speaker").textContent = won || (speaker ? `Говорит №${speaker.seat}${speaker.name ? " " + speaker.name : ""}` : "");
  $("clock").textContent = s.time_left === null || s.time_left === undefined ? "" : clock(s.time_left);
  $("clock").classList.toggle("low", s.time_left !== null && s.time_left <= 10);
  const nominees = s.candidates && s.candidates.length ? s.candidates : (s.nominations || []).map((n) => n.seat);
  $("nominees").textContent = nominees.length ? `Выставлены: ${nominees.join(", ")}` : "";
  const night = s.night_end;
  $("night-end").hidden = !night;
  if (night) {
    const who = night.killed.length ? `убит №${night.killed.join(", №")}` : "никто не убит";
    $("night-end").innerHTML = "";
    $("night-end").append(`Ночь ${night.night} окончена`, Object.assign(document.createElement("small"), { textContent: who }));
  }
  drawSeats(s);
  drawVotes(s);
  drawChecks(s);
}

async function poll() {
  try {
    const answer = await fetch(`/api/overlay?t=${encodeURIComponent(token)}`, { cache: "no-store" });
    if (answer.ok) {
      state = await answer.json();
      draw(state);
    }
  } catch (e) {
    // the box is restarting: the next poll draws again
  }
  setTimeout(poll, 500);
}
poll();
