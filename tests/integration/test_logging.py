"""
The server's log as JSON (--log-format json, docs/self-hosting.md): every line the real server
writes, from its start through a game to its shutdown, is one JSON object with ts (RFC 3339,
UTC, milliseconds), level, module and msg; text with quotes, backslashes, control characters,
non-ASCII and bytes that are not UTF-8 stays inside its string. A bad value for the flag or its
environment variable stops the start with the configuration's exit status, 2.
"""
import datetime
import re
import subprocess

from harness import *

# A static directory that does not exist, named to need every kind of escape: the server logs
# its name (a warning at start, and where it serves files from). "\udcff" is the byte 0xff on
# the command line (not UTF-8: logged as U+FFFD).
ODD_DIR = '/nonexistent/no "client" \\ caf\u00e9 \u265e\n\tx\x01y \udcff'
LOGGED_DIR = ODD_DIR.replace("\udcff", "\ufffd")

SERVER_ARGS = ["--log-format", "json", "--static-dir", ODD_DIR]

TS = re.compile(r"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$")


async def test_every_line_is_one_json_object(srv):
    a, b = await srv.player("Ann"), await srv.player("Ben")
    gid = await start_game(a, b)
    await play(gid, a, b, ["e4", "e5"])
    await b.error({"type": "move", "game": gid, "move": "d5"}, "NOT_YOUR_TURN")
    assert srv.http("/api/nothing")[0] == 404
    await srv.close_clients()
    assert srv.stop() == 0
    with open(srv.log_path, "rb") as f:
        raw = f.read()
    text = raw.decode("utf-8")  # strict: the lines are UTF-8 whatever the server was given
    assert text.endswith("\n"), text[-200:]
    lines = text[:-1].split("\n")
    now = datetime.datetime.now(datetime.timezone.utc)
    entries = []
    for line in lines:
        entry = json.loads(line)
        assert isinstance(entry, dict) and set(entry) == {"ts", "level", "module", "msg"}, line
        assert TS.match(entry["ts"]), line
        when = datetime.datetime.strptime(entry["ts"], "%Y-%m-%dT%H:%M:%S.%fZ").replace(
            tzinfo=datetime.timezone.utc)
        assert abs((now - when).total_seconds()) < 600, line
        assert entry["level"] in ("debug", "info", "warn", "error"), line
        assert all(isinstance(entry[k], str) for k in ("module", "msg")), line
        entries.append(entry)
    msgs = [e["msg"] for e in entries]
    # From the start (with the odd directory's name as it was given) to the exit.
    assert any(e["level"] == "warn" and e["module"] == "net" and
               e["msg"] == "static directory %s not found: only the API and /ws are served"
               % LOGGED_DIR for e in entries), msgs[:10]
    assert any(m.startswith("listening on ") and m.endswith(LOGGED_DIR) for m in msgs), msgs[:10]
    assert any(e["level"] == "debug" and e["msg"] == "GET /api/nothing" for e in entries), msgs
    assert any(m.startswith("shutdown complete") for m in msgs), msgs[-5:]
    assert msgs[-1] == "exit 0", msgs[-5:]


def start(binary, args, env=None):
    """Runs the server with args until it stops by itself (10 s at most)."""
    tmp = tempfile.mkdtemp(prefix="chess-log-")
    try:
        return subprocess.run([binary, "--listen", "127.0.0.1", "--port", str(free_port()),
                               "--data-dir", os.path.join(tmp, "data")] + args,
                              env=dict(os.environ, **(env or {})), capture_output=True,
                              text=True, timeout=10)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


async def test_a_bad_format_is_a_configuration_error(srv):
    for args, env, source in ((["--log-format", "xml"], None, "command line"),
                              (["--log-format=JSON"], None, "command line"),
                              ([], {"CHESS_LOG_FORMAT": "yaml"}, "CHESS_LOG_FORMAT")):
        run = start(srv.binary, args, env)
        assert run.returncode == 2, (args, env, run.returncode, run.stderr)
        assert "log-format" in run.stderr and source in run.stderr, run.stderr
    # --help names the flag, its variable and the value in effect.
    shown = start(srv.binary, ["--help"], {"CHESS_LOG_FORMAT": "json"})
    assert shown.returncode == 0
    line = next(l for l in shown.stdout.splitlines() if "--log-format" in l)
    assert "CHESS_LOG_FORMAT" in line and line.endswith("(json)"), line


if __name__ == "__main__":
    run_tests(globals())
