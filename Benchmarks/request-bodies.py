"""The load tests' request bodies, written into the folder given: a 10 x 100 table
(table.json), one single-move request (single.json), one 1,000-move request with seeded moves
mixed within and across sections (batch.json) and those moves alone (batch-moves.json), for
the bundled grouped-list policy, and wrk's script that posts the file named by $BODY
(post.lua); and the two requests naming the table once stored (single-ref.json, batch-ref.json,
its reference in table.ref). Used by server-load.sh, server-compare.sh and server-stored.sh."""
import hashlib
import json
import random
import sys

work = sys.argv[1]
random.seed(7)
table = {"sections": [{"id": f"S{s}", "rows": [f"r{s}-{r}" for r in range(99)] + [{"id": "Add", "kind": "add"}]} for s in range(10)]}
single = [{"from": [3, 10], "to": [3, 50]}]
batch = []
for _ in range(1000):
    s, t = random.randrange(10), random.randrange(10)
    batch.append({"from": [s, random.randrange(100)], "to": [t, random.randrange(100 if s != t else 99)]})
json.dump(table, open(f"{work}/table.json", "w"))
# The same requests naming the table stored with PUT /v1/tables/{sha256} (docs/SERVER.md).
ref = hashlib.sha256(open(f"{work}/table.json", "rb").read()).hexdigest()
open(f"{work}/table.ref", "w").write(ref)
json.dump({"table-ref": ref, "moves": single}, open(f"{work}/single-ref.json", "w"))
json.dump({"table-ref": ref, "moves": batch}, open(f"{work}/batch-ref.json", "w"))
json.dump({"table": table, "moves": single}, open(f"{work}/single.json", "w"))
json.dump({"table": table, "moves": batch}, open(f"{work}/batch.json", "w"))
json.dump(batch, open(f"{work}/batch-moves.json", "w"))
open(f"{work}/post.lua", "w").write(
    'local f = io.open(os.getenv("BODY"), "rb"); wrk.body = f:read("*a"); f:close()\n'
    'wrk.method = "POST"; wrk.headers["Content-Type"] = "application/json"\n')
