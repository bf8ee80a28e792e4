"""
The protocol checks catch what they are for: run on deliberately altered copies, each must fail
and say what differs; run on the real files, each must pass.

  - the generated TypeScript (proto_schema --check): a copy of client/src/net/messages.gen.ts
    without one message, and one with a field made optional;
  - the document (check_protocol_doc.py): a copy of docs/protocol.md without one message's
    section, one without an error code, and one whose example has a key the table lacks.

    check_protocol_mismatch.py --schema BUILD/server/proto_schema
"""
import argparse
import os
import re
import subprocess
import sys
import tempfile

here = os.path.dirname(os.path.abspath(__file__))
root = os.path.join(here, "..", "..")
parser = argparse.ArgumentParser()
parser.add_argument("--schema", required=True, help="the proto_schema program")
opts = parser.parse_args()

ts_path = os.path.join(root, "client", "src", "net", "messages.gen.ts")
doc_path = os.path.join(root, "docs", "protocol.md")
failures = []


def run(cmd):
    p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    return p.returncode, p.stdout


def expect(what, cmd, status, *needles):
    """Runs cmd; its exit status must be status and its output hold every needle."""
    rc, out = run(cmd)
    missing = [n for n in needles if n not in out]
    if rc != status or missing:
        failures.append("%s: exit %d (expected %d), output lacks %s:\n%s"
                        % (what, rc, status, missing, out))
    else:
        print("ok: %s" % what)


def altered(path, change, suffix):
    """A temporary copy of path with change(text) applied; the change must alter it."""
    with open(path) as f:
        text = f.read()
    new = change(text)
    if new == text:
        sys.exit("the alteration for %s no longer applies: update this test" % suffix)
    f = tempfile.NamedTemporaryFile("w", suffix=suffix, delete=False)
    f.write(new)
    f.close()
    return f.name


def without_ts_message(text):
    """messages.gen.ts without the resign request: its interface and its member of the union."""
    text = re.sub(r"\nexport interface ResignRequest \{.*?\n\}\n", "\n", text, flags=re.S)
    return text.replace("  | ResignRequest\n", "")


def optional_san(text):
    block = re.search(r"export interface MoveMessage \{.*?\n\}", text, re.S).group(0)
    return text.replace(block, block.replace("  san: string;", "  san?: string;"))


def without_doc_section(text):
    """docs/protocol.md without its resign section."""
    return re.sub(r"### resign\n.*?(?=\n### )", "", text, flags=re.S)


def without_error_code(text):
    return re.sub(r"^\| `NO_OFFER` \|.*\n", "", text, flags=re.M)


def renamed_key(text):
    return text.replace('"undone": 1, "ply": 2,', '"undone": 1, "plies": 2,')


check_doc = [sys.executable, os.path.join(here, "check_protocol_doc.py"), "--schema", opts.schema]
temporary = []
try:
    expect("the generated TypeScript as it is", [opts.schema, "--check", ts_path], 0)
    copy = altered(ts_path, without_ts_message, ".ts")
    temporary.append(copy)
    expect("the generated TypeScript without a message", [opts.schema, "--check", copy], 1,
           "is not what server/src/proto/messages.def generates",
           "cmake --build --preset release --target update_messages_ts")
    copy = altered(ts_path, optional_san, ".ts")
    temporary.append(copy)
    expect("the generated TypeScript with a key made optional", [opts.schema, "--check", copy], 1,
           "san?: string;", "update_messages_ts")

    expect("the document as it is", check_doc, 0, "0 problems")
    copy = altered(doc_path, without_doc_section, ".md")
    temporary.append(copy)
    expect("the document without a message", check_doc + ["--doc", copy], 1,
           "does not document the client message resign")
    copy = altered(doc_path, without_error_code, ".md")
    temporary.append(copy)
    expect("the document without an error code", check_doc + ["--doc", copy], 1,
           "does not document the error code NO_OFFER")
    copy = altered(doc_path, renamed_key, ".md")
    temporary.append(copy)
    expect("the document with an undeclared key", check_doc + ["--doc", copy], 1,
           "shows takeback unlike its declaration", "undeclared keys ['plies']")
finally:
    for path in temporary:
        os.unlink(path)

for f in failures:
    print("FAIL " + f)
print("%d checks failed" % len(failures))
sys.exit(1 if failures else 0)
