// The device's own page: plain JavaScript against the daemon's API, no build step and nothing
// loaded from anywhere else. Status comes from GET /api/status; changes arrive as server-sent
// events from /api/events, each of which makes the page fetch the status again.
"use strict";

const $ = (id) => document.getElementById(id);
let status = null;
let fetchedAt = 0;
let lockedUntil = 0;

async function post(path, body = {}) {
  const response = await fetch(path, {
    method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body),
  });
  let json = {};
  try { json = await response.json(); } catch (_) { /* an empty or non-JSON answer */ }
  return { status: response.status, json };
}

function clock(seconds) {
  const s = Math.max(0, Math.ceil(seconds));
  return String(Math.floor(s / 60)).padStart(2, "0") + ":" + String(s % 60).padStart(2, "0");
}

function setRow(id, level, value, detail = "") {
  const row = $(id);
  row.dataset.level = level;
  row.querySelector(".value").textContent = value;
  row.querySelector(".detail").textContent = detail;
  return level;
}

const keychainStates = {
  "connected": ["ok", "Connected"],
  "searching": ["warning", "Searching"],
  "cannot find the keychain": ["error", "Cannot find the keychain"],
  "not paired": ["warning", "Not paired"],
  "adapter off": ["error", "Bluetooth adapter off"],
  "binding unreadable": ["error", "Pairing unreadable"],
  "not configured": ["unknown", "Not configured"],
};

// "sms (signal −71 dBm)": the modem's last reading, where there is one.
function channelText(c) {
  return typeof c.signal_dbm === "number" ? c.name + " (signal " + c.signal_dbm + " dBm)" : c.name;
}

function renderRows(s) {
  const levels = [];
  const k = s.keychain || {};
  const [kLevel, kText] = keychainStates[k.state] || ["warning", k.state || "?"];
  levels.push(setRow("row-keychain", kLevel, kText, k.reason || ""));
  if (typeof k.battery_percent === "number") {
    const low = k.battery_percent < 20;
    levels.push(setRow("row-battery", low ? "warning" : "ok", k.battery_percent + " %", low ? "Charge your keychain soon" : ""));
  } else {
    levels.push(setRow("row-battery", "unknown", "?"));
  }
  const sensor = s.sensor || {};
  const worn = (s.detector || {}).worn !== false;
  if (sensor.fault) levels.push(setRow("row-detection", "error", "Sensor fault", sensor.fault_reason || sensor.health || ""));
  else if (!worn) levels.push(setRow("row-detection", "warning", "Not worn", "Falls cannot be detected while the device is off"));
  else levels.push(setRow("row-detection", "ok", "Running", (s.detector || {}).profile || ""));
  const gnss = s.gnss || {};
  const ago = typeof gnss.position_age_s === "number" ? Math.round(gnss.position_age_s / 60) : null;
  const since = ago === null ? "" : "Last location recorded " + ago + " minute" + (ago === 1 ? "" : "s") + " ago";
  if (gnss.quality === "good") levels.push(setRow("row-gps", "ok", "Good"));
  else if (gnss.quality === "weak") levels.push(setRow("row-gps", "warning", "Weak", since));
  else if (gnss.source === "none") levels.push(setRow("row-gps", "warning", "Not configured", "Alerts carry no location"));
  else levels.push(setRow("row-gps", "error", "Unavailable", since));
  const channels = s.channels || [];
  const failing = channels.filter((c) => c.state !== "reachable");
  if (channels.length === 0) levels.push(setRow("row-channels", "error", "None configured"));
  else if (failing.length === channels.length) levels.push(setRow("row-channels", "error", "Unreachable", failing.map(channelText).join(", ")));
  else if (failing.length > 0) levels.push(setRow("row-channels", "warning", "Partly reachable", failing.map((c) => channelText(c) + " failing").join(", ")));
  else levels.push(setRow("row-channels", "ok", "Reachable", channels.map(channelText).join(", ")));

  // A database that cannot be written: the device runs from memory and forgets at its next stop.
  const storage = s.storage || {};
  if (storage.durable === false) levels.push(setRow("row-records", "error", "Not saved", "Alerts still go out, but a restart forgets them: " + (storage.problem || "")));
  else levels.push(setRow("row-records", "ok", "Saved"));
  const overall = levels.includes("error") ? "error" : levels.includes("warning") ? "warning" : "ok";
  $("overall").dataset.level = overall;
  $("overall").textContent = { ok: "✓ All good", warning: "⚠ Check", error: "✕ Problem" }[overall];
}

function renderContacts(s) {
  const list = $("contacts");
  const contacts = s.contact_list || [];
  list.replaceChildren(...contacts.map((c) => {
    const li = document.createElement("li");
    li.textContent = c.name + " · " + c.phone + " · " + c.channel;
    return li;
  }));
  if (contacts.length === 0) {
    const li = document.createElement("li");
    li.textContent = "No contacts yet: nobody would be told.";
    list.append(li);
  }
}

const stateText = {
  ALERT_COUNTDOWN: "Alarm! Sending the alert in",
  EMERGENCY_SENDING: "Sending the alert…",
  EMERGENCY_SENT: "Alert sent",
  EMERGENCY_SENDING_FAILED: "Sending failed: retrying",
  EMERGENCY_ENDED: "Emergency ended",
};

function renderAlarm() {
  const w = (status && status.workflow) || {};
  const state = w.state || "NO_EMERGENCY";
  const alarm = $("alarm");
  alarm.hidden = state === "NO_EMERGENCY";
  alarm.dataset.state = state;
  if (alarm.hidden) return;
  const elapsed = (Date.now() - fetchedAt) / 1000;
  $("alarm-state").textContent = stateText[state] || state;
  let time = "";
  if (typeof w.countdown_s === "number") time = clock(w.countdown_s - elapsed);
  else if (typeof w.tracking_s === "number") time = "Tracking " + clock(w.tracking_s - elapsed) + " left";
  $("alarm-time").textContent = time;
  const next = w.next_keychain_message_s;
  $("alarm-keychain").hidden = typeof next !== "number";
  if (typeof next === "number") $("alarm-keychain").textContent = "The keychain's message repeats in " + clock(next - elapsed);
  const countdown = state === "ALERT_COUNTDOWN";
  // After sending: the PIN first; then the survey, or, once the emergency has ended, resuming
  // protection (until then a new fall or SOS is taken as part of this emergency).
  const ended = state === "EMERGENCY_ENDED";
  const disarmed = w.disarmed === true;
  $("fine").hidden = !countdown;
  $("pin-form").hidden = countdown || disarmed;
  $("after").hidden = countdown || !disarmed;
  $("after-question").textContent = ended ? "Disarmed. The emergency has ended." : "Disarmed. Did you fall?";
  for (const id of ["survey-didnt-fall", "survey-fell", "survey-no-help"]) $(id).hidden = ended;
  $("resume").hidden = !ended;
  const locked = lockedUntil - Date.now();
  $("disarm").disabled = locked > 0;
  if (locked > 0) $("pin-message").textContent = "Locked: try again in " + clock(locked / 1000);
  else if ($("pin-message").dataset.locked) { $("pin-message").textContent = ""; delete $("pin-message").dataset.locked; }
}

async function refresh() {
  try {
    const response = await fetch("/api/status", { cache: "no-store" });
    if (response.status === 401) { showLogin(); return; }
    status = await response.json();
    fetchedAt = Date.now();
    $("checked").textContent = "Last checked " + new Date(fetchedAt).toLocaleTimeString();
    renderRows(status);
    renderContacts(status);
    $("not-set-up").hidden = !!status.person;
    renderAlarm();
    document.body.dataset.state = (status.workflow || {}).state || "";
  } catch (error) {
    $("overall").dataset.level = "error";
    $("overall").textContent = "✕ No answer from the device";
  }
}

let pending = null;
function refreshSoon() {
  if (pending) return;
  pending = setTimeout(() => { pending = null; refresh(); }, 50);
}

// One stream and at most one retry pending: each login calls listen() again, and a second
// stream per login and restart would soon take the browser's six connections to the device,
// leaving none for "I'm fine" or disarming.
let stream = null;
let retry = null;
function listen() {
  if (retry) { clearTimeout(retry); retry = null; }
  if (stream) stream.close();
  const events = new EventSource("/api/events");
  stream = events;
  for (const type of ["transition", "keychain", "keychain_battery", "keychain_press", "alarm", "sensor_fault", "sensor_recovered",
                      "gnss", "worn", "not_worn", "message", "tracking", "setup"]) {
    events.addEventListener(type, refreshSoon);
  }
  events.onerror = () => {
    if (stream !== events) return;
    $("overall").textContent = "… reconnecting";
    // A refused stream (401 before the login) does not retry by itself.
    if (events.readyState === EventSource.CLOSED && !retry) retry = setTimeout(() => { retry = null; listen(); }, 5000);
  };
}

$("refresh").addEventListener("click", refresh);
$("fine").addEventListener("click", () => post("/api/fine").then(refresh));
$("call112").addEventListener("click", () => { post("/api/call112"); });
$("sos").addEventListener("click", async () => {
  const answer = await post("/api/sos");
  // Refused (an emergency already in progress, or ended and not yet resumed): say why.
  if (answer.status >= 400) alert((answer.json.notes || []).join("; ") || answer.json.error || "The SOS was not taken");
  refresh();
});
async function afterAnswer(path, body) {
  const answer = await post(path, body);
  $("after-message").textContent = answer.status === 200 ? "" : ((answer.json.notes || []).join("; ") || answer.json.error || "Not taken");
  refresh();
}
for (const id of ["survey-didnt-fall", "survey-fell", "survey-no-help"]) {
  $(id).addEventListener("click", (event) => afterAnswer("/api/survey", { answer: event.target.dataset.answer }));
}
$("resume").addEventListener("click", () => afterAnswer("/api/resume"));
$("beep").addEventListener("click", async () => {
  const answer = await post("/api/keychain/beep", { seconds: 2 });
  if (answer.status !== 200) alert(answer.json.error || "No keychain to beep");
});
$("pad").addEventListener("click", (event) => {
  const key = event.target.dataset && event.target.dataset.key;
  if (!key) return;
  const input = $("pin");
  input.value = key === "clear" ? input.value.slice(0, -1) : (input.value + key).slice(0, 12);
});
$("pin-form").addEventListener("submit", async (event) => {
  event.preventDefault();
  const pin = $("pin").value;
  $("pin").value = "";
  if (!pin) return;
  const answer = await post("/api/disarm", { pin });
  const message = $("pin-message");
  const notes = (answer.json.notes || []).join("; ") || answer.json.error || "";
  const locked = /locked for (\d+) s/.exec(notes);
  if (locked) {
    lockedUntil = Date.now() + Number(locked[1]) * 1000;
    message.dataset.locked = "1";
  } else if (answer.status === 200) {
    message.textContent = "Disarmed";
  } else {
    message.textContent = notes || "Wrong PIN";
  }
  refresh();
});

setInterval(renderAlarm, 250);
setInterval(refresh, 30000);
refresh();
listen();
