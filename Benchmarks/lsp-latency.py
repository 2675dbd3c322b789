#!/usr/bin/env python3
"""`reorder-policy lsp` as an editor drives it (issue #57, "Speed"): over stdio with raw frames,
no client library in the measurement.

- didChange → first publishDiagnostics (load and syntax), median and p95 per bundled policy;
- didChange → the analysis's publishDiagnostics, p95 over the bundled policies;
- hover and completion on a 300-rule policy while its analysis runs;
- the server's resident memory over 10,000 edits.

Usage: Benchmarks/lsp-latency.py [path/to/reorder-policy]   (default: the release build)
"""
import glob, json, os, statistics, subprocess, sys, threading, time, queue

root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
binary = sys.argv[1] if len(sys.argv) > 1 else os.path.join(root, ".build/release/reorder-policy")


class Server:
    def __init__(self):
        self.p = subprocess.Popen([binary, "lsp"], stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, cwd=root)
        self.inbox = queue.Queue()
        threading.Thread(target=self.read, daemon=True).start()
        self.next_id = 0

    def read(self):
        out = self.p.stdout
        while True:
            header = b""
            while not header.endswith(b"\r\n\r\n"):
                c = out.read(1)
                if not c:
                    return
                header += c
            n = int([l for l in header.decode().split("\r\n") if l.lower().startswith("content-length")][0].split(":")[1])
            self.inbox.put((time.perf_counter(), json.loads(out.read(n))))

    def send(self, message):
        body = json.dumps(message).encode()
        self.p.stdin.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
        self.p.stdin.flush()
        return time.perf_counter()

    def request(self, method, params):
        self.next_id += 1
        sent = self.send({"jsonrpc": "2.0", "id": self.next_id, "method": method, "params": params})
        while True:
            at, m = self.inbox.get(timeout=30)
            if m.get("id") == self.next_id:
                return at - sent, m

    def notify(self, method, params):
        return self.send({"jsonrpc": "2.0", "method": method, "params": params})

    def diagnostics(self, uri, version, count=1):
        """The arrival times of the next `count` publishDiagnostics for uri at version."""
        times = []
        while len(times) < count:
            at, m = self.inbox.get(timeout=60)
            if m.get("method") == "textDocument/publishDiagnostics" and m["params"]["uri"] == uri and m["params"].get("version") == version:
                times.append(at)
        return times

    def rss_kb(self):
        for line in open(f"/proc/{self.p.pid}/status"):
            if line.startswith("VmRSS:"):
                return int(line.split()[1])

    def close(self):
        self.request("shutdown", None)
        self.notify("exit", None)
        self.p.wait(timeout=10)


def ms(x):
    return f"{x * 1000:.1f} ms"


s = Server()
s.request("initialize", {"processId": None, "rootUri": None, "capabilities": {}})
s.notify("initialized", {})

print(f"binary: {binary}")
quick_all, full_all = [], []
for path in sorted(glob.glob(os.path.join(root, "policies/*.yaml"))):
    uri = "file://" + path
    text = open(path).read()
    s.notify("textDocument/didOpen", {"textDocument": {"uri": uri, "languageId": "yaml", "version": 1, "text": text}})
    s.diagnostics(uri, 1, 1 if False else 1)
    time.sleep(0.5)
    while not s.inbox.empty():
        s.inbox.get()
    quick, full = [], []
    for v in range(2, 42):
        # A change that keeps the policy valid: a comment at the end, edited.
        sent = s.notify("textDocument/didChange", {"textDocument": {"uri": uri, "version": v}, "contentChanges": [{"text": text + f"# edit {v}\n"}]})
        times = s.diagnostics(uri, v, 2)
        quick.append(times[0] - sent)
        full.append(times[1] - sent)
    quick_all += quick
    full_all += full
    print(f"{os.path.basename(path):24} first publish median {ms(statistics.median(quick))}, analysis median {ms(statistics.median(full))}")
    s.notify("textDocument/didClose", {"textDocument": {"uri": uri}})
print(f"all bundled policies: first publish median {ms(statistics.median(quick_all))}, p95 {ms(sorted(quick_all)[int(len(quick_all) * 0.95)])}; "
      f"analysis p95 {ms(sorted(full_all)[int(len(full_all) * 0.95)])}")

# A 300-rule policy: hover and completion while its analysis runs.
sys.path.insert(0, os.path.join(root, "Benchmarks"))
import random
from random_policies import RandomPolicies
gen = RandomPolicies(7 + 300, sections=[f"S{i}" for i in range(8)], kinds=["card", "header", "note", "add", "status"],
                     tags=["sticky", "sorted", "urgent"], ids=[f"item{i}" for i in range(40)],
                     sections_by=[(0.5, "name"), (0.7, "pair"), (0.8, "bucket"), (0.9, "index")],
                     positions=[(0.25, "first"), (0.4, "last"), (0.5, "index")], first=3,
                     indices=lambda: [0, 1, 2, -1, -2, random.randint(3, 5000)], section_chance=0.4, tag_chance=0.15,
                     key_always=True, reserve_sections=True, max_bound=9)
big = "reorder-policy: 1\nname: big\nrules:\n" + "".join(f"  - {gen.rule()}\n" for _ in range(300))
uri = "file:///tmp/lsp-bench-300.yaml"
s.notify("textDocument/didOpen", {"textDocument": {"uri": uri, "languageId": "yaml", "version": 1, "text": big}})
s.diagnostics(uri, 1, 1)
hovers, completions = [], []
for i in range(20):
    t, _ = s.request("textDocument/hover", {"textDocument": {"uri": uri}, "position": {"line": 3 + i * 7, "character": 5}})
    hovers.append(t)
    t, _ = s.request("textDocument/completion", {"textDocument": {"uri": uri}, "position": {"line": 3 + i * 7, "character": 4}})
    completions.append(t)
print(f"300 rules, during the analysis: hover median {ms(statistics.median(hovers))}, max {ms(max(hovers))}; "
      f"completion median {ms(statistics.median(completions))}, max {ms(max(completions))}")
s.notify("textDocument/didClose", {"textDocument": {"uri": uri}})
time.sleep(3)

# Memory over 10,000 edits (incremental, one character in and out).
path = os.path.join(root, "policies/kanban.yaml")
uri = "file://" + path
text = open(path).read()
s.notify("textDocument/didOpen", {"textDocument": {"uri": uri, "languageId": "yaml", "version": 1, "text": text}})
samples = []
for v in range(2, 10002):
    ch = {"range": {"start": {"line": 0, "character": 0}, "end": {"line": 0, "character": 0}}, "text": "#\n"} if v % 2 == 0 else \
         {"range": {"start": {"line": 0, "character": 0}, "end": {"line": 1, "character": 0}}, "text": ""}
    s.notify("textDocument/didChange", {"textDocument": {"uri": uri, "version": v}, "contentChanges": [ch]})
    if v % 2000 == 0:
        s.diagnostics(uri, v, 1)
        samples.append(s.rss_kb())
print("resident memory every 2,000 edits: " + ", ".join(f"{k // 1024} MB" for k in samples))
s.close()
