#!/usr/bin/env python3
"""Measures the listener figures RELIABILITY.md quotes for issue 31 against `quire serve FOLDER`.

    python3 Tests/Scripts/listener-figures.py [--quire .build/debug/quire] [--databases 2000]

Linux only (reads /proc). Starts `quire serve` on a scratch folder (loopback, a free port,
--create-databases, --max-body 64M) and prints, one line each:

- repeated keys: `POST /db/_all_docs?include_docs=true` with 48 times the key of one 30 MB
  document: response bytes, seconds, and the server's peak resident memory during the request
  (VmHWM, reset through /proc/PID/clear_refs just before it), beside its resident memory before;
  the same for `POST /db/_bulk_get?attachments=true` naming a 20 MB attachment 48 times;
- dotted path: `GET /a.a.a...` of 78 KB (under NIO's 80 KiB request-line limit): status and
  seconds, and the seconds of a `GET /` sent while it runs;
- databases: creates and opens N databases (`PUT /dN`, then `GET /dN`) and prints the server's
  open descriptors and resident memory afterwards (the folder keeps at most
  --max-open-databases, 100 by default, open).

Standard library only. The server is stopped with SIGTERM at the end.
"""

import argparse
import base64
import http.client
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time


def status_kib(pid, field):
    with open(f"/proc/{pid}/status") as file:
        for line in file:
            if line.startswith(field + ":"):
                return int(line.split()[1])
    return 0


def reset_peak(pid):
    with open(f"/proc/{pid}/clear_refs", "w") as file:
        file.write("5")


def descriptors(pid):
    return len(os.listdir(f"/proc/{pid}/fd"))


def request(port, method, path, body=None, headers=None, timeout=600):
    """Sends one request on a new connection; reads the reply in 1 MiB pieces, keeping only
    the first 4 KiB. Returns (status, bytes read, head of the body)."""
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout)
    all_headers = {"Content-Type": "application/json"} if body is not None else {}
    all_headers.update(headers or {})
    connection.request(method, path, body=body, headers=all_headers)
    response = connection.getresponse()
    total, head = 0, b""
    while True:
        piece = response.read(1 << 20)
        if not piece:
            break
        if len(head) < 4096:
            head += piece[: 4096 - len(head)]
        total += len(piece)
    connection.close()
    return response.status, total, head


def measured(pid, label, action):
    before = status_kib(pid, "VmRSS")
    reset_peak(pid)
    start = time.monotonic()
    status, size, head = action()
    seconds = time.monotonic() - start
    peak = status_kib(pid, "VmHWM")
    print(
        f"{label}: HTTP {status}, {size:,} bytes in {seconds:.2f} s; server resident "
        f"{before / 1024:.0f} MB before, peak {peak / 1024:.0f} MB during",
        flush=True,
    )
    if status >= 300:
        print(f"  body: {head[:300]!r}")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--quire", default=".build/debug/quire")
    parser.add_argument("--databases", type=int, default=2000)
    parser.add_argument("--skip", default="", help="comma-separated: keys,bulkget,path,databases")
    arguments = parser.parse_args()
    skip = set(filter(None, arguments.skip.split(",")))

    folder = tempfile.mkdtemp(prefix="quire-figures-")
    server = subprocess.Popen(
        [arguments.quire, "serve", folder, "--port", "0", "--create-databases", "--max-body", "64M"],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    try:
        port = None
        for line in server.stdout:
            if line.startswith("Serving "):
                port = int(line.split(":")[-1].strip().rstrip("/"))
                break
        if port is None:
            sys.exit("quire serve printed no URL")
        threading.Thread(target=lambda: [None for _ in server.stdout], daemon=True).start()
        pid = server.pid
        print(f"quire serve pid {pid}, port {port}, {arguments.quire}", flush=True)

        if "keys" not in skip or "bulkget" not in skip:
            assert request(port, "PUT", "/big")[0] == 201
            text = "x" * (30 * 1000 * 1000)
            assert request(port, "PUT", "/big/big", json.dumps({"text": text}))[0] == 201
            attachment = base64.b64encode(b"y" * (20 * 1000 * 1000)).decode()
            reply = request(
                port,
                "PUT",
                "/big/blob",
                json.dumps({"_attachments": {"a.bin": {"content_type": "application/octet-stream", "data": attachment}}}),
            )
            assert reply[0] == 201, reply
            blob_rev = json.loads(reply[2])["rev"]
        if "keys" not in skip:
            keys = json.dumps({"keys": ["big"] * 48})
            measured(
                pid,
                f"_all_docs include_docs, 48 x one 30 MB document ({len(keys)}-byte body)",
                lambda: request(port, "POST", "/big/_all_docs?include_docs=true", keys),
            )
        if "bulkget" not in skip:
            docs = json.dumps({"docs": [{"id": "blob", "rev": blob_rev}] * 48})
            measured(
                pid,
                f"_bulk_get attachments=true, 48 x one 20 MB attachment ({len(docs)}-byte body)",
                lambda: request(port, "POST", "/big/_bulk_get?attachments=true", docs),
            )

        if "path" not in skip:
            path = "/" + ".".join(["a"] * 39_000)  # 78,000 bytes with the slash
            result = {}

            def long_request():
                start = time.monotonic()
                status, _, head = request(port, "GET", path)
                result["long"] = (status, time.monotonic() - start, head[:200])

            thread = threading.Thread(target=long_request)
            reset_peak(pid)
            thread.start()
            start = time.monotonic()
            other = request(port, "GET", "/")[0]
            other_seconds = time.monotonic() - start
            thread.join(timeout=600)
            status, seconds, head = result.get("long", (0, -1, b""))
            print(
                f"dotted path of {len(path):,} bytes: HTTP {status} in {seconds:.3f} s ({head!r}); "
                f"GET / meanwhile: HTTP {other} in {other_seconds:.3f} s; server peak {status_kib(pid, 'VmHWM') / 1024:.0f} MB",
                flush=True,
            )

        if "databases" not in skip:
            before = descriptors(pid)
            start = time.monotonic()
            connection = http.client.HTTPConnection("127.0.0.1", port, timeout=60)

            def send(method, path):
                connection.request(method, path)
                response = connection.getresponse()
                response.read()
                return response.status

            for index in range(arguments.databases):
                assert send("PUT", f"/d{index}") == 201
                assert send("GET", f"/d{index}") == 200
            for index in range(arguments.databases):
                assert send("GET", f"/d{index}/_all_docs?limit=1") == 200
            connection.close()
            print(
                f"{arguments.databases} databases created and opened, then each read again, in "
                f"{time.monotonic() - start:.1f} s: server descriptors {before} before, {descriptors(pid)} after; "
                f"resident {status_kib(pid, 'VmRSS') / 1024:.0f} MB",
                flush=True,
            )
    finally:
        server.send_signal(signal.SIGTERM)
        try:
            server.wait(timeout=60)
        except subprocess.TimeoutExpired:
            server.kill()
        shutil.rmtree(folder, ignore_errors=True)


if __name__ == "__main__":
    main()
