"""
Keeps docs/protocol.md in step with the code: every message type in the protocol table
(server/src/proto/proto.c) and every error code (server/src/core/errors.h, server/src/proto/proto.h)
must appear in the document. Prints what is missing and exits 1.
"""
import os
import re
import sys

root = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")


def read(path):
    with open(os.path.join(root, path)) as f:
        return f.read()


doc = read("docs/protocol.md")
types = re.findall(r'^PROTO_CLIENT\(\w+,\s*"([a-z_]+)"', read("server/src/proto/messages.def"), re.M)
codes = re.findall(r"^\s*X\(([A-Z_]+),", read("server/src/core/errors.h") + read("server/src/proto/proto.h"),
                   re.M)
missing = []
for t in types:
    # A heading that names it, or an example of it.
    if not re.search(r"^#+ .*\b%s\b" % t, doc, re.M) and '"type": "%s"' % t not in doc:
        missing.append("message " + t)
for c in codes:
    if "`%s`" % c not in doc:
        missing.append("error " + c)
if not types or not codes:
    missing.append("(could not read the message table or the error lists)")
for m in missing:
    print("docs/protocol.md does not document", m)
print("%d message types, %d error codes checked, %d missing" % (len(types), len(codes), len(missing)))
sys.exit(1 if missing else 0)
