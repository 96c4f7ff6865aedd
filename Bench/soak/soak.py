"""A day of the live daemon in minutes: `detectord run` on a replayed source at 100x real time.

The replay is a playlist of the synthetic demo recordings (Datasets/demo): two hours of walking,
sitting down and lying down with one forward fall and one bike crash in each two hours, looped
until --hours of data have played (24 by default: 14.4 min of wall time). A driver plays the
wearer through the local API: most countdowns end with "I'm fine"; every fourth goes on to
sending (the console channel), and is then disarmed with the PIN, quit and answered "I didn't
fall". Every --every seconds it samples the process's RSS, open file descriptors, the database's
size (with its WAL) and the ring's drops. It ends with the workflow back at NO_EMERGENCY and
prints one JSON object (the format of Bench/results/latest.json) with the samples' first and last
thirds compared: RSS and open descriptors are "flat" when the last third's mean is within 10 %
(or 1 MB / 2 fds) of the first third's. The database keeps every incident with its journal and
messages, so it is judged by what it holds after the daemon stops (the WAL checkpointed): at
most 64 kB per incident, and a WAL that never passes SQLite's 4 MB checkpoint. Exit 1 when a
figure fails, a ring sample was dropped, a message was left undelivered, or an incident did not
end.

usage: soak.py BINARY [--hours 24] [--speed 100] [--every 10] [--out FILE]
"""
import argparse
import json
import os
import signal
import sqlite3
import subprocess
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.request

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "daemon"))
from footprint import Log, machine  # noqa: E402

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
DEMO = os.path.join(ROOT, "Datasets", "demo")
PIN = "2468"


def playlist(folder):
    """Two hours of data: daily activities in turn, a fall after the first hour, a crash at the end."""
    daily = ["walking.detrec", "sitting-down.detrec", "walking.detrec", "lying-down.detrec"]
    seconds = {"walking.detrec": 60.0, "sitting-down.detrec": 42.9, "lying-down.detrec": 47.2,
               "forward-fall.detrec": 57.5, "bike-crash.detrec": 40.2}
    names, total, fell = [], 0.0, False
    while total < 7200:
        if not fell and total >= 3600:
            names.append("forward-fall.detrec")
            fell = True
        names.append(daily[len(names) % len(daily)])
        total += seconds[names[-1]]
    names.append("bike-crash.detrec")
    for i, name in enumerate(names):
        os.symlink(os.path.join(DEMO, name), os.path.join(folder, f"{i:04d}-{name}"))
    return sum(seconds[n] for n in names), names.count("forward-fall.detrec") + names.count("bike-crash.detrec")


def config(directory, replay, speed):
    text = f"""
[person]
name = "Soak Wearer"
phone = "+351912345678"
country = "PT"

[[contacts]]
name = "Receiver"
phone = "+351913333333"
channel = "console"

[detector]
profile = "walking"

[sensor]
source = "replay"

[sensor.replay]
path = "{replay}"
speed = {speed}
loop = true

[gnss]
source = "none"

[workflow]
countdown_seconds = 5
tracking_minutes = 0
demo = true

[channels.console]
enabled = true

[storage]
database = "{directory}/soak.sqlite"
position_retention_hours = 1
"""
    path = os.path.join(directory, "soak.toml")
    with open(path, "w") as f:
        f.write(text)
    return path


def rss_mb(pid):
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    return float("nan")


def file_mb(path):
    return os.path.getsize(path) / 1e6 if os.path.exists(path) else 0.0


class Wearer(threading.Thread):
    """Answers each countdown through the API, as a person would."""

    def __init__(self, api):
        super().__init__(daemon=True)
        self.api, self.incidents, self.sent, self.errors, self.stopping = api, 0, 0, [], False
        self.last_state = "NO_EMERGENCY"

    def post(self, path, body=None):
        request = urllib.request.Request(self.api + path, data=json.dumps(body or {}).encode(), method="POST",
                                         headers={"Content-Type": "application/json"})
        try:
            with urllib.request.urlopen(request, timeout=10) as r:
                return r.status
        except urllib.error.HTTPError as e:
            return e.code

    def state(self):
        with urllib.request.urlopen(self.api + "/api/status", timeout=10) as r:
            return json.load(r)

    def run(self):
        while not self.stopping:
            try:
                status = self.state()
                state = status["workflow"]["state"]
                if state == "ALERT_COUNTDOWN" and self.last_state != "ALERT_COUNTDOWN":
                    self.incidents += 1
                    if self.incidents % 4 != 0:
                        self.post("/api/fine")
                elif state in ("EMERGENCY_SENT", "EMERGENCY_SENDING_FAILED", "EMERGENCY_ENDED") and self.last_state != state:
                    if state == "EMERGENCY_SENT":
                        self.sent += 1
                    self.post("/api/disarm", {"pin": PIN})
                    self.post("/api/quit")
                    self.post("/api/survey", {"answer": "didnt_fall"})
                    self.post("/api/resume")
                self.last_state = state
            except Exception as e:  # a missed poll is retried; it is reported, not fatal
                self.errors.append(str(e))
            time.sleep(0.25)


def flat(values, slack):
    third = max(1, len(values) // 3)
    first, last = values[:third], values[-third:]
    a, b = sum(first) / len(first), sum(last) / len(last)
    return {"first_third": round(a, 2), "last_third": round(b, 2), "max": round(max(values), 2),
            "flat": b <= a * 1.10 or b - a <= slack}


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("binary")
    parser.add_argument("--hours", type=float, default=24)
    parser.add_argument("--speed", type=float, default=100)
    parser.add_argument("--every", type=float, default=10)
    parser.add_argument("--out")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as directory:
        folder = os.path.join(directory, "playlist")
        os.mkdir(folder)
        loop_seconds, loop_events = playlist(folder)
        daemon = subprocess.Popen([args.binary, "run", "--config", config(directory, folder, args.speed), "--listen", "127.0.0.1:0",
                                   "--status-every", "0"], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        database = os.path.join(directory, "soak.sqlite")
        log = Log(daemon)
        api = log.wait(["api"]).split("url=")[1].split(" ")[0].rsplit("/api/", 1)[0]
        wearer = Wearer(api)
        # The PIN is set as on the page's set-up (loopback, before any PIN exists).
        if wearer.post("/api/setup/pin", {"new_pin": PIN, "confirm": PIN}) != 200:
            raise SystemExit("could not set the PIN through /api/setup/pin")
        wearer.start()
        wall = args.hours * 3600 / args.speed
        samples, begun = [], time.time()
        while time.time() - begun < wall:
            time.sleep(args.every)
            status = wearer.state()
            samples.append({"t": round(time.time() - begun, 1), "rss_mb": round(rss_mb(daemon.pid), 2),
                            "fds": len(os.listdir(f"/proc/{daemon.pid}/fd")), "db_mb": round(file_mb(database), 3),
                            "wal_mb": round(file_mb(database + "-wal"), 3),
                            "dropped": status["sensor"]["dropped"], "samples": status["sensor"]["samples"],
                            "state": status["workflow"]["state"]})
            print(json.dumps(samples[-1]), file=sys.stderr, flush=True)
        # Let the last incident finish, then stop.
        deadline = time.time() + 60
        while wearer.state()["workflow"]["state"] != "NO_EMERGENCY" and time.time() < deadline:
            time.sleep(0.5)
        final = wearer.state()
        wearer.stopping = True
        daemon.send_signal(signal.SIGTERM)
        daemon.wait(timeout=60)
        # Closed: the WAL is checkpointed into the file, which now holds exactly what is kept.
        kept_mb = file_mb(database)
        with sqlite3.connect(os.path.join(directory, "soak.sqlite")) as db:
            counts = db.execute("SELECT (SELECT COUNT(*) FROM incident), (SELECT COUNT(endedAt) FROM incident), "
                                "(SELECT COUNT(*) FROM journal), (SELECT COUNT(*) FROM outbox), "
                                "(SELECT COUNT(*) FROM outbox WHERE deliveredAt IS NULL AND supersededAt IS NULL)").fetchone()
        rows = dict(zip(["incidents", "incidents_ended", "journal", "outbox", "outbox_undelivered"], counts))
    figures = {name: flat([s[name] for s in samples], slack) for name, slack in (("rss_mb", 1.0), ("fds", 2))}
    # The database keeps every incident, its journal and its messages: it grows by those, and by
    # nothing else. The WAL is bounded by SQLite's automatic checkpoint (1000 pages, 4 MB).
    first_mb = samples[0]["db_mb"] if samples else 0
    per_incident_kb = (kept_mb - first_mb) * 1000 / max(1, rows["incidents"])
    figures["database"] = {"first_mb": first_mb, "kept_mb_after_stop": round(kept_mb, 3), "per_incident_kb": round(per_incident_kb, 1),
                           "wal_max_mb": max((s["wal_mb"] for s in samples), default=0),
                           "flat": per_incident_kb <= 64 and max((s["wal_mb"] for s in samples), default=0) <= 4.5}
    data_hours = samples[-1]["samples"] / 100 / 3600 if samples else 0
    result = {
        "name": "daemon_soak", "unit": "hours of data", "ours": round(data_hours, 2), "speed": args.speed,
        "wall_s": round(time.time() - begun, 1), "loop_s_of_data": round(loop_seconds, 1), "falls_and_crashes_per_loop": loop_events,
        "incidents": wearer.incidents, "sent": wearer.sent, "database_rows": rows, "dropped": samples[-1]["dropped"] if samples else None,
        "final_state": final["workflow"]["state"], "poll_errors": len(wearer.errors), "figures": figures, "machine": machine(),
    }
    print(json.dumps(result))
    if args.out:
        with open(args.out, "w") as f:
            json.dump({"result": result, "samples": samples}, f, indent=1)
    ok = (all(f["flat"] for f in figures.values()) and result["dropped"] == 0 and final["workflow"]["state"] == "NO_EMERGENCY"
          and rows["incidents"] == rows["incidents_ended"] and rows["outbox_undelivered"] == 0)
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()
