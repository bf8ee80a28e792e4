"""
Keeps docs/protocol.md in step with the message table, server/src/proto/messages.def, as the
proto_schema program prints it (--json). The document must name every client message, every
server message (a heading that names it, or an example of it) and every error code (`CODE`); and
every example in it (a JSON object with a "type", in a ```json block or inline) must be a message
the table declares: a declared type, only declared keys (and "id"), every key the message always
has, and a declared error code. The error table must list only declared codes. Prints what
differs and exits 1.

    check_protocol_doc.py --schema BUILD/server/proto_schema [--doc docs/protocol.md]
"""
import argparse
import json
import os
import re
import subprocess
import sys

root = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")
parser = argparse.ArgumentParser()
parser.add_argument("--schema", required=True, help="the proto_schema program")
parser.add_argument("--doc", default=os.path.join(root, "docs", "protocol.md"))
opts = parser.parse_args()

schema = json.loads(subprocess.check_output([opts.schema, "--json"]))
with open(opts.doc) as f:
    doc = f.read()

client = {m["type"]: m for m in schema["client"]}
server = {m["type"]: m for m in schema["server"]}
codes = [e["code"] for e in schema["errors"]]
problems = []

# ---- everything declared is documented ----


def named(t):
    """A heading that names the type, or an example of it."""
    return re.search(r"^#+ .*\b%s\b" % re.escape(t), doc, re.M) or '"type": "%s"' % t in doc


for t in client:
    if not named(t):
        problems.append("does not document the client message %s" % t)
for t in server:
    if not named(t):
        problems.append("does not document the server message %s" % t)
for c in codes:
    if "`%s`" % c not in doc:
        problems.append("does not document the error code %s" % c)

# ---- everything documented is declared ----


def examples():
    """Every JSON object with a "type" the document shows: ```json blocks (one object, or one
    per line) and inline `{"type": ...}` code. Placeholders such as {...full state...} count as
    empty objects."""
    for block in re.findall(r"```json\n(.*?)```", doc, re.S):
        try:
            yield json.loads(block)
            continue
        except ValueError:
            pass
        for line in block.strip().split("\n"):
            try:
                yield json.loads(line)
            except ValueError:
                problems.append("cannot read this example: %s" % line)
    for text in re.findall(r'`(\{"type": [^`]*\})`', doc):
        try:
            yield json.loads(re.sub(r"\{\.\.\.[^{}]*\.\.\.\}", "{}", text))
        except ValueError:
            problems.append("cannot read this example: %s" % text)


def fits(example, keys):
    """Which keys of the example the declaration does not have, and which it misses."""
    declared = {k["key"] for k in keys} | {"type", "id"}
    extra = sorted(set(example) - declared)
    missing = [k["key"] for k in keys if k["required"] and k["key"] not in example]
    return extra, missing


count = 0
for example in examples():
    if not isinstance(example, dict) or "type" not in example:
        continue
    count += 1
    t = example["type"]
    shapes = []
    if t in client:
        shapes.append(("client", [dict(f, key=f["key"]) for f in client[t]["fields"]]))
    if t in server:
        shapes.append(("server", server[t]["keys"]))
    if not shapes:
        problems.append("shows the message %s, which the table does not declare" % t)
        continue
    verdicts = [(side,) + fits(example, keys) for side, keys in shapes]
    if not any(not extra and not missing for _, extra, missing in verdicts):
        why = "; ".join("as a %s message: undeclared keys %s, missing keys %s" % v for v in verdicts)
        problems.append("shows %s unlike its declaration (%s): %s" % (t, why, json.dumps(example)))
    if t == "error" and example.get("code") not in codes:
        problems.append("shows the error code %s, which the table does not declare"
                        % example.get("code"))
for c in re.findall(r"^\| `([A-Z_]+)` \|", doc, re.M):
    if c not in codes:
        problems.append("lists the error code %s, which the table does not declare" % c)

if not client or not server or not codes or not count:
    problems.append("(could not read the table or the examples)")
for p in problems:
    print("%s %s" % (os.path.relpath(opts.doc), p))
print("%d client messages, %d server messages, %d error codes, %d examples checked; %d problems"
      % (len(client), len(server), len(codes), count, len(problems)))
sys.exit(1 if problems else 0)
