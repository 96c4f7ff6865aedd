"""The live daemon's footprint and its alert path, measured on real processes.

1. `detectord run` replays a generated walking-like signal in real time at 200 Hz and at 1000 Hz
   for 70 s; from second 5 to second 65 it samples the process's CPU time (/proc/PID/stat), and at
   the end reads its peak RSS (VmHWM) and the decision latency the daemon measured itself
   (HdrHistogram, from a batch reaching the ring to the end of the detector pass that judged it).
   The same again with a simulated MPU-6050 measuring the signal, read through the real driver,
   its FIFO drains and the timestamper (`source = "simulated"`): the driver path's CPU against the
   replay's, and the decision latency from the simulated FIFO drain.
2. A replayed fall with a 3 s demo countdown and a webhook to a loopback receiver: the time from the
   EMERGENCY_SENDING transition (the countdown's end) to the signed request's arrival is the
   dispatch part of countdown + dispatch.

Prints one JSON object per figure (the format of Bench/results/latest.json).
"""
import http.server
import json
import math
import os
import signal
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
from datetime import datetime

BINARY = sys.argv[1]
ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
TICKS = os.sysconf("SC_CLK_TCK")


def machine():
    model = "unknown"
    with open("/proc/cpuinfo") as f:
        for line in f:
            if line.startswith("model name"):
                model = line.split(":", 1)[1].strip()
                break
    return f"{model}, {os.cpu_count()} cores (nproc), {os.uname().machine}"


def write_signal(path, rate, seconds):
    """Standing and walking: 1 g with a 2 Hz step bounce and a little sway, gyroscope to match."""
    with open(path, "w") as f:
        f.write("time,ax,ay,az,gx,gy,gz\n")
        for i in range(int(rate * seconds)):
            t = i / rate
            bounce = 0.15 * math.sin(2 * math.pi * 2 * t)
            sway = 0.05 * math.sin(2 * math.pi * 1 * t)
            f.write(f"{t:.6f},{sway:.5f},{0.02 * math.cos(2 * math.pi * t):.5f},{1 + bounce:.5f},"
                    f"{8 * math.sin(2 * math.pi * t):.4f},{5 * math.cos(2 * math.pi * 2 * t):.4f},0\n")


def config(directory, replay, rate, countdown=30, webhook=None, speed=1.0, chip=None):
    text = f"""
[person]
name = "Bench Wearer"
phone = "+351912345678"
country = "PT"

[[contacts]]
name = "Receiver"
phone = "+351913333333"
channel = "{'webhook' if webhook else 'console'}"

[detector]
profile = "walking"

[sensor]
source = "{'simulated' if chip else 'replay'}"
rate_hz = {rate}

[sensor.{'simulated' if chip else 'replay'}]
{f'chip = "{chip}"' if chip else ''}
{'motion' if chip else 'path'} = "{replay}"
speed = {speed}

[gnss]
source = "none"

[workflow]
countdown_seconds = {countdown}
tracking_minutes = 0
demo = true

[channels.console]
enabled = true

[storage]
database = "{directory}/bench.sqlite"
"""
    if webhook:
        secret = os.path.join(directory, "secret")
        with open(secret, "w") as f:
            f.write("bench-secret-0123456789abcdef\n")
        text += f'\n[channels.webhook]\nurl = "{webhook}"\nsecret_file = "{secret}"\n'
    path = os.path.join(directory, "bench.toml")
    with open(path, "w") as f:
        f.write(text)
    return path


def start(path):
    return subprocess.Popen([BINARY, "run", "--config", path, "--listen", "127.0.0.1:0", "--status-every", "0"],
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)


class Log:
    """Collects the daemon's log lines on a thread."""

    def __init__(self, process):
        self.lines = []
        self.thread = threading.Thread(target=self._read, args=(process,), daemon=True)
        self.thread.start()

    def _read(self, process):
        for line in process.stderr:
            self.lines.append(line.rstrip("\n"))

    def wait(self, word, timeout=60):
        deadline = time.time() + timeout
        while time.time() < deadline:
            for line in self.lines:
                parts = line.split(" ", 3)
                if len(parts) >= 3 and parts[2] == word[0] and all(w in line for w in word[1:]):
                    return line
            time.sleep(0.02)
        raise SystemExit(f"no '{word}' in the daemon's log:\n" + "\n".join(self.lines))


def log_time(line):
    return datetime.fromisoformat(line.split(" ")[0].replace("Z", "+00:00")).timestamp()


def cpu_seconds(pid):
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / TICKS


def peak_rss_mb(pid):
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) / 1024
    return float("nan")


def private_dirty_mb(pid):
    """Memory that is the daemon's own (heap, stacks, data); the rest of RSS is clean code pages
    mapped from the binary and the Swift libraries, which the kernel may drop and reload."""
    with open(f"/proc/{pid}/smaps_rollup") as f:
        for line in f:
            if line.startswith("Private_Dirty:"):
                return int(line.split()[1]) / 1024
    return float("nan")


def footprint(rate, seconds=70, window=(5, 65), chip=None):
    """chip: None replays the signal as the sensor; a chip name (mpu6050) has a simulated chip
    measure it, read through the real driver, FIFO, timestamps and ring."""
    with tempfile.TemporaryDirectory() as directory:
        replay = os.path.join(directory, f"walk-{rate}.csv")
        write_signal(replay, rate, seconds)
        daemon = start(config(directory, replay, rate, chip=chip))
        log = Log(daemon)
        api = log.wait(["api"]).split("url=")[1].split(" ")[0].rsplit("/api/", 1)[0]
        begun = time.time()
        time.sleep(window[0])
        cpu0, t0 = cpu_seconds(daemon.pid), time.time()
        time.sleep(window[1] - window[0])
        cpu1, t1 = cpu_seconds(daemon.pid), time.time()
        status = json.load(urllib.request.urlopen(api + "/api/status"))
        rss = peak_rss_mb(daemon.pid)
        dirty = private_dirty_mb(daemon.pid)
        daemon.send_signal(signal.SIGTERM)
        daemon.wait(timeout=30)
        latency = status["detector"].get("latency_us", {})
        share = 100 * (cpu1 - cpu0) / (t1 - t0)
        return {"rate": rate, "cpu_percent_of_one_core": round(share, 3), "peak_rss_mb": round(rss, 1), "private_dirty_mb": round(dirty, 1),
                "latency_p50_us": latency.get("p50"), "latency_p99_us": latency.get("p99"),
                "latency_max_us": latency.get("max"), "batches": latency.get("count"),
                "samples": status["sensor"]["samples"], "dropped": status["sensor"]["dropped"],
                "window_s": round(t1 - t0, 1)}


class Receiver(http.server.BaseHTTPRequestHandler):
    arrivals = []

    def do_POST(self):
        body = self.rfile.read(int(self.headers.get("Content-Length", 0)))
        Receiver.arrivals.append((time.time(), json.loads(body).get("message_kind")))
        self.send_response(200)
        self.send_header("Content-Length", "0")
        self.end_headers()

    def log_message(self, *args):
        pass


def dispatch(rounds=5):
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Receiver)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    url = f"http://127.0.0.1:{server.server_address[1]}/alert"
    delays = []
    for _ in range(rounds):
        Receiver.arrivals.clear()
        with tempfile.TemporaryDirectory() as directory:
            replay = os.path.join(ROOT, "Datasets/demo/forward-fall.detrec")
            daemon = start(config(directory, replay, 100, countdown=3, webhook=url, speed=4))
            log = Log(daemon)
            sending = log_time(log.wait(["transition", "to=EMERGENCY_SENDING"]))
            deadline = time.time() + 20
            while time.time() < deadline and not any(kind == "alert" for _, kind in Receiver.arrivals):
                time.sleep(0.005)
            arrival = next(t for t, kind in Receiver.arrivals if kind == "alert")
            delays.append((arrival - sending) * 1000)
            daemon.send_signal(signal.SIGTERM)
            daemon.wait(timeout=30)
    server.shutdown()
    delays.sort()
    return {"rounds": rounds, "median_ms": round(delays[len(delays) // 2], 1), "max_ms": round(delays[-1], 1)}


def main():
    where = machine()
    for rate in (200, 1000):
        f = footprint(rate)
        # The same signal measured by a simulated MPU-6050 and read through the driver path; the
        # replay run beside it is the peer (the same detector without a driver underneath).
        g = footprint(rate, chip="mpu6050")
        print(json.dumps({"name": f"daemon_driver_path_cpu_at_{rate}hz", "unit": "% of one core", "ours": g["cpu_percent_of_one_core"],
                          "peer": "the same daemon on a replay (no driver, no simulated chip)", "peer_value": f["cpu_percent_of_one_core"],
                          "ratio": round(f["cpu_percent_of_one_core"] / g["cpu_percent_of_one_core"], 2) if g["cpu_percent_of_one_core"] else None,
                          "details": g, "machine": where}))
        print(json.dumps({"name": f"daemon_driver_path_decision_latency_at_{rate}hz", "unit": "us", "ours": g["latency_p99_us"],
                          "p50": g["latency_p50_us"], "goal": 2000, "machine": where}))
        print(json.dumps({"name": f"daemon_cpu_at_{rate}hz", "unit": "% of one core", "ours": f["cpu_percent_of_one_core"],
                          "goal": 1.0 if rate == 200 else None, "details": f, "machine": where}))
        print(json.dumps({"name": f"daemon_peak_rss_at_{rate}hz", "unit": "MB", "ours": f["peak_rss_mb"], "goal": 40,
                          "private_dirty_mb": f["private_dirty_mb"], "machine": where}))
        print(json.dumps({"name": f"daemon_decision_latency_p99_at_{rate}hz", "unit": "us", "ours": f["latency_p99_us"],
                          "p50": f["latency_p50_us"], "goal": 2000, "machine": where}))
    d = dispatch()
    print(json.dumps({"name": "alert_dispatch_after_countdown", "unit": "ms", "ours": d["median_ms"], "details": d,
                      "machine": where}))


if __name__ == "__main__":
    main()
