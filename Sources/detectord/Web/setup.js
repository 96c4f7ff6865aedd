// Set-up, settings, incident history and the login, on top of app.js. Before a PIN is set the
// page is setting the device up and needs none; afterwards the settings open with the PIN, which
// this page keeps in memory only (never stored) for five minutes to send with each change.
"use strict";

const E164 = /^\+[1-9][0-9]{6,14}$/;
let setup = null;
let settingsPin = null;
let pinKeptUntil = 0;

function withPin(body) {
  if (settingsPin && Date.now() < pinKeptUntil) body.pin = settingsPin;
  return body;
}

function say(form, text, good = false) {
  const p = form.querySelector(".message");
  p.textContent = text;
  p.dataset.good = good ? "1" : "";
}

function phoneHint(input, hint) {
  const check = () => {
    const v = input.value.replace(/[\s-]/g, "");
    const ok = E164.test(v);
    input.setCustomValidity(ok || v === "" ? "" : "international form: + then 7 to 15 digits");
    hint.textContent = v === "" ? "" : ok ? "✓ valid number" : "Use the international form: + country code and number, e.g. +351912345678";
    hint.dataset.good = ok ? "1" : "";
  };
  input.addEventListener("input", check);
  return check;
}

async function loadSetup() {
  const response = await fetch("/api/setup", { cache: "no-store" });
  if (response.status === 401) return showLogin();
  setup = await response.json();
  renderSetup();
}

function renderSetup() {
  const s = setup;
  const locked = s.complete && !(settingsPin && Date.now() < pinKeptUntil);
  $("unlock-form").hidden = !locked;
  $("setup-body").hidden = locked;
  $("tab-setup").textContent = s.complete ? "Settings" : "Set-up";
  $("setup-title").textContent = s.complete ? "Settings" : "Set up this device";
  const managed = s.file_managed || {};
  const p = s.person || {};
  $("person-name").value = p.name || "";
  $("person-phone").value = s.full_numbers ? (p.phone || "") : "";
  $("person-phone").placeholder = s.full_numbers ? "+351912345678" : (p.phone || "+351912345678");
  $("person-country").value = p.country || "";
  for (const id of ["person-name", "person-phone", "person-country"]) $(id).disabled = managed.person;
  if (managed.person) say($("person-form"), "Set in the configuration file; change it there.");
  $("pin-setup-form").querySelector("h3").textContent = s.pin_set ? "2 · Change the PIN" : "2 · PIN";
  for (const id of ["new-pin", "confirm-pin"]) $(id).disabled = managed.pin;
  if (managed.pin) say($("pin-setup-form"), "Set in the configuration file; change it there.");
  const kc = s.keychain;
  $("keychain-current").textContent = !s.keychain_configured ? "No keychain is configured ([keychain] in the configuration file)."
    : managed.keychain ? "Set in the configuration file ([keychain] address); change it there."
    : kc ? "Paired: " + kc.name + " " + kc.address : "No keychain paired yet.";
  $("scan").disabled = !s.keychain_configured || managed.keychain;
  const list = $("setup-contacts");
  list.replaceChildren(...s.contacts.map((c) => {
    const li = document.createElement("li");
    const text = document.createElement("span");
    text.textContent = c.name + " · " + c.phone + " · " + c.channel;
    li.append(text);
    if (!managed.contacts) {
      const edit = document.createElement("button");
      edit.type = "button";
      edit.textContent = "Edit";
      edit.addEventListener("click", () => {
        $("contact-name").value = c.name;
        $("contact-phone").value = s.full_numbers ? c.phone : "";
        $("contact-replacing").value = s.full_numbers ? c.phone : "";
        $("contact-save").textContent = "Save contact";
        if (!s.full_numbers) $("contact-message").textContent = "Enter the PIN in Settings to edit numbers.";
      });
      const del = document.createElement("button");
      del.type = "button";
      del.textContent = "Delete";
      del.className = "danger";
      del.addEventListener("click", async () => {
        if (!s.full_numbers) { $("contact-message").textContent = "Enter the PIN in Settings to delete a contact."; return; }
        const answer = await post("/api/setup/contact/delete", withPin({ phone: c.phone }));
        $("contact-message").textContent = answer.status === 200 ? "Deleted." : answer.json.error || "Not deleted";
        $("contact-message").dataset.refused = answer.status === 200 ? "" : "1";
        reloadDetails();
      });
      li.append(edit, del);
    }
    return li;
  }));
  const full = s.contacts.length >= s.contact_limit && !$("contact-replacing").value;
  $("contact-form").querySelectorAll("input").forEach((i) => { i.disabled = managed.contacts; });
  $("contact-save").disabled = managed.contacts;
  if (managed.contacts) $("contact-message").textContent = "Set in the configuration file; change them there.";
  // The general note must not replace the device's answer to the wearer's last try (this render
  // follows every answer), or "at most 5 contacts" would flash and be gone.
  else if (full && !$("contact-message").dataset.refused) {
    $("contact-message").textContent = "Five contacts is the most: edit or delete one to add another.";
  }
  fillSelect($("profile"), s.profiles, s.detector.profile);
  fillSelect($("sensitivity"), s.sensitivities, s.detector.sensitivity);
  $("profile").disabled = $("sensitivity").disabled = managed.detector;
  if (managed.detector) say($("detector-form"), "Set in the configuration file; change it there.");
}

function fillSelect(select, values, chosen) {
  select.replaceChildren(...values.map((v) => {
    const o = document.createElement("option");
    o.value = v;
    o.textContent = v;
    o.selected = v === chosen;
    return o;
  }));
}

// After the PIN: the full details; before set-up is complete: the public ones are full already.
async function reloadDetails() {
  if (setup && setup.complete && settingsPin) {
    const answer = await post("/api/setup/details", withPin({}));
    if (answer.status === 200) { setup = answer.json; renderSetup(); return; }
  }
  await loadSetup();
}

function answerText(answer, fallback) {
  if (answer.status === 200) return null;
  if (answer.json.locked_s) return "PIN entry locked for " + answer.json.locked_s + " s";
  if (answer.json.pin_required) { settingsPin = null; return "Enter the PIN in Settings first"; }
  return answer.json.error || fallback;
}

$("unlock-form").addEventListener("submit", async (event) => {
  event.preventDefault();
  const pin = $("unlock-pin").value;
  $("unlock-pin").value = "";
  const answer = await post("/api/setup/details", { pin });
  if (answer.status === 200) {
    settingsPin = pin;
    pinKeptUntil = Date.now() + 5 * 60 * 1000;
    setup = answer.json;
    $("unlock-message").textContent = "";
    renderSetup();
  } else {
    $("unlock-message").textContent = answerText(answer, "Wrong PIN");
  }
});

const checkPersonPhone = phoneHint($("person-phone"), $("person-phone-hint"));
const checkContactPhone = phoneHint($("contact-phone"), $("contact-phone-hint"));

$("person-form").addEventListener("submit", async (event) => {
  event.preventDefault();
  checkPersonPhone();
  const body = withPin({ name: $("person-name").value, phone: $("person-phone").value.replace(/[\s-]/g, ""), country: $("person-country").value.toUpperCase() });
  const answer = await post("/api/setup/person", body);
  say($("person-form"), answerText(answer, "Not saved") || "Saved: " + body.name + " is protected.", answer.status === 200);
  if (answer.status === 200) { refresh(); reloadDetails(); }
});

$("pin-setup-form").addEventListener("submit", async (event) => {
  event.preventDefault();
  const newPin = $("new-pin").value;
  const confirm = $("confirm-pin").value;
  if (newPin !== confirm) { say($("pin-setup-form"), "The two PINs differ."); return; }
  const answer = await post("/api/setup/pin", withPin({ new_pin: newPin, confirm }));
  $("new-pin").value = $("confirm-pin").value = "";
  const problem = answerText(answer, "Not set");
  say($("pin-setup-form"), problem || "PIN set.", !problem);
  if (!problem) {
    settingsPin = newPin;
    pinKeptUntil = Date.now() + 5 * 60 * 1000;
    reloadDetails();
  }
});

async function scan() {
  $("pair-retry").hidden = true;
  $("pair-message").textContent = "Scanning… hold the keychain near the device.";
  $("scan-list").replaceChildren();
  const answer = await post("/api/keychain/scan", { seconds: 4 });
  if (answer.status !== 200 || answer.json.found.length === 0) {
    $("pair-message").textContent = answer.status === 200 ? "Device not found: try again or cancel." : answer.json.error;
    $("pair-retry").hidden = false;
    return;
  }
  $("pair-message").textContent = "Choose your keychain:";
  $("scan-list").replaceChildren(...answer.json.found.map((k) => {
    const li = document.createElement("li");
    const button = document.createElement("button");
    button.type = "button";
    const bars = "▮".repeat(k.bars) + "▯".repeat(4 - k.bars);
    button.textContent = k.name + " " + k.address + "  " + bars + " " + (k.rssi === null ? "?" : k.rssi + " dBm");
    button.addEventListener("click", () => pair(k));
    li.append(button);
    return li;
  }));
}

async function pair(k) {
  $("scan-list").replaceChildren();
  $("pair-message").textContent = "Is this your keychain? It is beeping now: press its button to confirm.";
  const answer = await post("/api/keychain/pair", withPin({ address: k.address, address_type: k.address_type, name: k.name }));
  $("pair-message").dataset.good = answer.status === 200 ? "1" : "";
  if (answer.status === 200) {
    $("pair-message").textContent = "Paired: " + answer.json.name + " " + answer.json.address
      + (answer.json.battery_percent === null ? "" : " · battery " + answer.json.battery_percent + " %");
    reloadDetails();
  } else {
    $("pair-message").textContent = answer.json.not_found ? "Device not found: try again or cancel." : answerText(answer, "Not paired");
    $("pair-retry").hidden = false;
  }
}

$("scan").addEventListener("click", scan);
$("scan-again").addEventListener("click", scan);
$("scan-cancel").addEventListener("click", () => { $("pair-retry").hidden = true; $("pair-message").textContent = ""; });

$("contact-form").addEventListener("submit", async (event) => {
  event.preventDefault();
  checkContactPhone();
  const body = withPin({ name: $("contact-name").value, phone: $("contact-phone").value.replace(/[\s-]/g, "") });
  if ($("contact-replacing").value) body.replacing = $("contact-replacing").value;
  const answer = await post("/api/setup/contact", body);
  const problem = answerText(answer, "Not saved");
  $("contact-message").textContent = problem || "Saved.";
  $("contact-message").dataset.refused = problem ? "1" : "";
  if (!problem) {
    $("contact-name").value = $("contact-phone").value = $("contact-replacing").value = "";
    $("contact-save").textContent = "Add contact";
    $("contact-phone-hint").textContent = "";
    refresh();
  }
  reloadDetails();
});

$("detector-form").addEventListener("submit", async (event) => {
  event.preventDefault();
  const answer = await post("/api/setup/detector", withPin({ profile: $("profile").value, sensitivity: $("sensitivity").value }));
  const problem = answerText(answer, "Not saved");
  say($("detector-form"), problem || "Detecting with the " + answer.json.profile + " profile, " + answer.json.sensitivity + " sensitivity.", !problem);
  refresh();
});

$("test-alarm").addEventListener("click", async () => {
  const answer = await post("/api/setup/test-alarm", withPin({}));
  $("test-message").textContent = answerText(answer, "Not started") || "Test alarm started: the countdown is running.";
  refresh();
});

async function loadHistory() {
  const response = await fetch("/api/incidents", { cache: "no-store" });
  if (response.status === 401) return showLogin();
  const { incidents } = await response.json();
  const list = $("incidents");
  if (incidents.length === 0) {
    const li = document.createElement("li");
    li.textContent = "No incidents yet.";
    list.replaceChildren(li);
    return;
  }
  list.replaceChildren(...incidents.map((i) => {
    const li = document.createElement("li");
    const title = document.createElement("h3");
    title.textContent = i.trigger.replace(/_/g, " ") + " · " + new Date(i.started).toLocaleString() + " · " + (i.outcome || "in progress");
    li.append(title);
    for (const e of i.evidence) li.append(line("evidence", e));
    const steps = document.createElement("ul");
    steps.className = "timeline";
    steps.append(...i.timeline.map((t) => item(new Date(t.time).toLocaleTimeString() + " " + t.type + " "
      + t.detail.replace(">", " → ").replace("|", ": "))));
    const messages = document.createElement("ul");
    messages.className = "messages";
    messages.append(...i.messages.map((m) => item(m.kind + " → " + m.recipient + " (" + m.channel + "): " + m.state
      + (m.delivered ? " " + new Date(m.delivered).toLocaleTimeString() : "") + (m.test ? " · test" : ""))));
    li.append(steps, messages);
    return li;
  }));
}

function line(cls, text) { const p = document.createElement("p"); p.className = cls; p.textContent = text; return p; }
function item(text) { const li = document.createElement("li"); li.textContent = text; return li; }

function showLogin() {
  for (const id of ["dashboard", "setup", "history"]) $(id).hidden = true;
  $("login").hidden = false;
}

$("login-form").addEventListener("submit", async (event) => {
  event.preventDefault();
  const answer = await post("/api/login", { token: $("token").value.trim() });
  $("token").value = "";
  if (answer.status === 200) { $("login").hidden = true; route(); refresh(); loadSetup(); listen(); }
  else $("login-message").textContent = answer.json.error || "Not logged in";
});

function route() {
  const tab = (location.hash || "#status").slice(1);
  $("dashboard").hidden = tab !== "status";
  $("setup").hidden = tab !== "setup";
  $("history").hidden = tab !== "history";
  for (const name of ["status", "setup", "history"]) $("tab-" + name).dataset.active = name === tab ? "1" : "";
  if (tab === "setup") reloadDetails();
  if (tab === "history") loadHistory();
}

window.addEventListener("hashchange", route);
route();
loadSetup().then(() => {
  if (setup && !setup.complete && !location.hash) location.hash = "#setup";
});
