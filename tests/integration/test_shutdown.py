"""
Graceful shutdown: SIGTERM or SIGINT stop accepting, send every client a GOING_AWAY (1001)
close frame, and exit with status 0.
"""
import signal

from harness import *

SERVER_ARGS = []


async def expect_going_away(c):
    try:
        while True:
            await c._read(5)
    except websockets.ConnectionClosed as e:
        assert e.code == 1001, "close code %s" % e.code
        return


async def shutdown_with(srv, sig):
    a, b = await srv.player("Ann"), await srv.player("Ben")
    gid = await start_game(a, b)
    await play(gid, a, b, ["e4", "e5"])
    srv.proc.send_signal(sig)
    await asyncio.gather(expect_going_away(a), expect_going_away(b))
    rc = await asyncio.get_running_loop().run_in_executor(None, srv.stop)
    assert rc == 0, "exit status %s" % rc
    log = srv.read_log()
    assert "shutdown complete" in log, log


async def test_sigterm(srv):
    await shutdown_with(srv, signal.SIGTERM)


async def test_sigint(srv):
    await shutdown_with(srv, signal.SIGINT)


async def test_idle_server_stops_quickly(srv):
    t0 = time.time()
    assert srv.stop() == 0
    assert time.time() - t0 < 2


async def test_port_in_use_fails_cleanly(srv):
    proc = subprocess.run([srv.binary, "--listen", "127.0.0.1", "--port", str(srv.port),
                           "--data-dir", os.path.join(srv.tmp, "d2")],
                          capture_output=True, text=True, timeout=10)
    assert proc.returncode == 1 and "cannot listen" in proc.stderr, proc


if __name__ == "__main__":
    run_tests(globals())
