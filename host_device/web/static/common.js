// What every page shares: an element by id, the countdown digits, a socket to the device.
"use strict";
const $ = (id) => document.getElementById(id);
const token = new URLSearchParams(location.search).get("t") || "";

function clock(seconds) {
  const whole = Math.max(0, Math.ceil(seconds - 1e-9));
  return `${Math.floor(whole / 60)}:${String(whole % 60).padStart(2, "0")}`;
}

function socketTo(path) {
  const sep = path.includes("?") ? "&" : "?";
  const query = token ? `${sep}t=${encodeURIComponent(token)}` : "";
  return new WebSocket(`${location.protocol === "https:" ? "wss" : "ws"}://${location.host}${path}${query}`);
}
