#!/usr/bin/env python3
"""Times `halite lsp` on a module directory as an editor would use it.

Usage: scripts/bench-lsp.py HALITE_BINARY MODULE_DIR FILE_IN_IT

Starts the server with MODULE_DIR as the workspace folder, opens FILE
(which needs a `local.` reference and an attribute that is a plain string),
and prints: the time from `initialized` to the file's first diagnostics
(pulled, so a file without any counts too: its own syntax errors and
lints while the workspace is still being reported) and to its complete
(`check`'s) diagnostics (pulled again when the server asks with
`workspace/diagnostic/refresh`); the time from a one-attribute
edit to its diagnostics (debounce included); hover and definition latency
percentiles over 200 requests each; the server's peak resident memory
beside the module's source size. Standard library only.
"""

import json
import os
import queue
import re
import subprocess
import sys
import threading
import time


def resident_kb(pid, field):
    status = open(f"/proc/{pid}/status").read()
    return int(next(it for it in status.splitlines() if it.startswith(field)).split()[1])


def main():
    binary, root, path = sys.argv[1], os.path.abspath(sys.argv[2]), os.path.abspath(sys.argv[3])
    server = subprocess.Popen([binary, "lsp"], stdin=subprocess.PIPE, stdout=subprocess.PIPE)
    next_id = [0]
    refreshed = [None]

    def send(message):
        body = json.dumps(message).encode()
        server.stdin.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
        server.stdin.flush()

    def read_messages():
        while True:
            length = 0
            while True:
                line = server.stdout.readline()
                if line in (b"\r\n", b""):
                    break
                if line.lower().startswith(b"content-length:"):
                    length = int(line.split(b":")[1])
            if not length:
                return
            messages.put(json.loads(server.stdout.read(length)))

    messages = queue.Queue()
    threading.Thread(target=read_messages, daemon=True).start()

    def receive(timeout=None):
        try:
            return messages.get(timeout=timeout)
        except queue.Empty:
            return None

    def request(method, params):
        next_id[0] += 1
        send({"jsonrpc": "2.0", "id": next_id[0], "method": method, "params": params})
        while True:
            message = receive()
            if message.get("method") == "workspace/diagnostic/refresh":
                refreshed[0] = time.perf_counter()
                send({"jsonrpc": "2.0", "id": message["id"], "result": None})
                continue
            if message.get("id") == next_id[0] and "method" not in message:
                if "error" in message:
                    raise SystemExit(f"{method}: {message['error']}")
                return message.get("result")

    def notify(method, params):
        send({"jsonrpc": "2.0", "method": method, "params": params})

    uri = "file://" + path
    capabilities = {"workspace": {"diagnostic": {"refreshSupport": True}}}
    request("initialize", {"capabilities": capabilities, "rootUri": "file://" + root,
                           "workspaceFolders": [{"uri": "file://" + root, "name": "bench"}]})
    started = time.perf_counter()
    notify("initialized", {})
    text = open(path).read()
    notify("textDocument/didOpen", {"textDocument": {"uri": uri, "languageId": "hcl", "version": 1, "text": text}})
    request("textDocument/diagnostic", {"textDocument": {"uri": uri}})
    first = time.perf_counter() - started
    # The server asks for a pull again when its answer was not complete
    # (a server that answered completely asks nothing: 60 s pass).
    while refreshed[0] is None:
        message = receive(timeout=60)
        if message is None:
            break
        if message.get("method") == "workspace/diagnostic/refresh":
            refreshed[0] = time.perf_counter()
            send({"jsonrpc": "2.0", "id": message["id"], "result": None})
    if refreshed[0] is not None:
        request("textDocument/diagnostic", {"textDocument": {"uri": uri}})
        complete = time.perf_counter() - started
    else:
        complete = first
    settled_kb = resident_kb(server.pid, "VmRSS")

    # One attribute edited: `"svc-N"` becomes `"svc-Nx"`, then back (in a
    # file of another module, the first attribute that is a plain string).
    lines = text.split("\n")
    line = next((i for i, it in enumerate(lines) if '_name   = "svc-' in it or '_name = "svc-' in it), None)
    if line is None:
        line = next(i for i, it in enumerate(lines) if re.fullmatch(r'\s*\w+\s*=\s*"[^"$%\\]*"\s*', it))
    column = lines[line].rindex('"')
    edits = []
    for version in range(2, 22):
        change = ({"range": {"start": {"line": line, "character": column}, "end": {"line": line, "character": column}}, "text": "x"}
                  if version % 2 == 0 else
                  {"range": {"start": {"line": line, "character": column}, "end": {"line": line, "character": column + 1}}, "text": ""})
        before = time.perf_counter()
        notify("textDocument/didChange", {"textDocument": {"uri": uri, "version": version}, "contentChanges": [change]})
        request("textDocument/diagnostic", {"textDocument": {"uri": uri}})
        edits.append(time.perf_counter() - before)

    def latencies(method, params):
        out = []
        for _ in range(200):
            before = time.perf_counter()
            request(method, params)
            out.append(time.perf_counter() - before)
        out.sort()
        return out[len(out) // 2], out[int(len(out) * 0.99) - 1]

    reference = next(i for i, it in enumerate(lines) if "local." in it)
    position = {"line": reference, "character": lines[reference].index("local.") + 7}
    at = {"textDocument": {"uri": uri}, "position": position}
    hover = latencies("textDocument/hover", at)
    definition = latencies("textDocument/definition", at)
    completion = latencies("textDocument/completion", {"textDocument": {"uri": uri},
                                                         "position": {"line": reference, "character": lines[reference].index("local.") + 6}})
    peak_kb = resident_kb(server.pid, "VmHWM")
    source = sum(os.path.getsize(os.path.join(d, f)) for d, _, fs in os.walk(root) for f in fs if not f.endswith(".json"))
    request("shutdown", None)
    notify("exit", None)
    server.wait(timeout=30)
    edits.sort()
    print(f"first diagnostics after initialized: {first * 1000:.0f} ms")
    print(f"complete diagnostics after initialized: {complete * 1000:.0f} ms")
    print(f"edit to diagnostics (50 ms debounce included): median {edits[len(edits) // 2] * 1000:.1f} ms, max {edits[-1] * 1000:.1f} ms")
    for name, (median, p99) in [("hover", hover), ("definition", definition), ("completion", completion)]:
        print(f"{name}: median {median * 1000:.2f} ms, p99 {p99 * 1000:.2f} ms")
    print(f"peak resident memory: {peak_kb / 1024:.0f} MiB for {source / 1e6:.1f} MB of source "
          f"({peak_kb * 1024 / source:.1f} bytes per source byte)")
    print(f"resident once the workspace's diagnostics were complete: {settled_kb / 1024:.0f} MiB")


if __name__ == "__main__":
    main()
