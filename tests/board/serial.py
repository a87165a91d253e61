#!/usr/bin/env python3
"""serial.py - drives evmbench on the emulated board over its serial console.

    tests/board/serial.py BOARDDIR [--variant am625|j721e] [--steps LIST]
                          [--log FILE]

BOARDDIR is what tests/board/mkimage.sh wrote (Image, initrd.cpio.gz,
board.dtb, qemu-args, cmdline). qemu-system-aarch64 boots it with the
board's only UART (PL011, the kernel's ttyAMA0) on a Unix socket: what is
read there are the guest's own bytes, with no newline translation of a
host terminal in between. The script types at the shell as a person at a
serial terminal would (stty rows 24 cols 80, TERM=vt100), renders every
byte it reads on an 80x24 terminal (pyte) and checks the text of the
screen, not only the byte stream.

Steps (all by default, in this order; --steps takes a comma list):
  sysinfo  `evmbench sysinfo` names the board the device tree describes
           (AM62x SK for am625, J721E EVM for j721e), how it decided, and
           how sure it is: doubtful, since this kernel has no soc0
  list     `evmbench list` shows the board's guide and its categories
  lava     `evmbench run --profile quick --format lava`: one well-formed
           LAVA signal line per metric the run saved, none split
  screens  home, arrows as ESC [ B and as ESC O B (and Up in both forms),
           a category, a live STREAM run to its end, the results screen,
           q back to the shell with the terminal modes restored
  hangup   SIGHUP while a second benchmark (LMBench) runs: status 129, the terminal
           modes restored, the finished STREAM run kept in the results store
  tmpdir   a read-only $TMPDIR: list, sysinfo, a run and the screens work
  line     the bytes of a live `lmbench --quick` run at TERM=vt100 and at
           TERM=linux (colour): the most in any one-second window after the
           first full paint, printed, held to 1500 bytes (issue 15)

Benchmark numbers under emulation mean nothing: only behaviour, detection
and the bytes on the line are checked, never speed. The waits are hang
detectors: each ends as soon as what it waits for is there
($EVMBENCH_BOARD_BOOT_TIMEOUT: seconds for the boot, default 120).
Prints one "ok N - ..." or "not ok N - ..." line per check and a closing
"N passed, N failed" line. Exit 0 all passed, 1 a check failed, 2 usage.
"""

import argparse
import copy
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time

try:
    import pexpect
    import pexpect.fdpexpect
    import pyte
except ImportError as exc:          # pragma: no cover - environment
    sys.stderr.write("serial.py: %s (sh .ci/deps board installs "
                     "python3-pexpect and python3-pyte)\n" % exc)
    sys.exit(1)

COLS, ROWS = 80, 24
LINE_LIMIT = 1500           # bytes in any one second after the first paint
BOOT_TIMEOUT = int(os.environ.get("EVMBENCH_BOARD_BOOT_TIMEOUT", "120"))
CMD_TIMEOUT = 120
UI_TIMEOUT = 60
RUN_TIMEOUT = 300
BOARDS = {
    "am625": ("AM62x SK", "am62xx_sk-fs", "ti,am625-sk"),
    "j721e": ("J721E EVM", "j721e-idk-gw", "ti,j721e-evm"),
}
PROMPT = "board$ "
# The shell echoes what is typed (wrapped by its line editor at column
# 80); a command's output is framed by markers whose typed form differs
# from what the shell prints: BEGIN-$((6*7)) prints BEGIN-42.
BEGIN_RE = rb"BEGIN-42\r\n"
END_RE = rb"::END-(\d+)::"
STEPS = ["sysinfo", "list", "lava", "screens", "hangup", "tmpdir", "line"]


class CheckFailed(Exception):
    """A check failed; the step stops, the next step starts afresh.
    REPORTED: its "not ok" line is printed already."""
    reported = False


class BoardScreen(pyte.Screen):
    """An 80x24 terminal as a serial terminal program draws it.

    pyte 0.8.0 differs from a VT100 after DECRC (ESC 8): it pops the saved
    cursor, so a second DECRC moves to the home position instead of to the
    same saved place again, and it clamps the restored cursor into the
    scrolling region. ncurses saves the cursor, changes the scrolling
    region (which homes the cursor), restores it and then inserts lines by
    reverse index at the restored row: pyte then inserts at the margin
    instead of at the row, shifting the lines drawn below. A VT100 keeps
    the saved state (DECRC may be repeated) and restores the position as
    saved, bounded by the screen (by the margins only in origin mode).
    """

    def __init__(self, columns, lines):
        super().__init__(columns, lines)

    def save_cursor(self):
        super().save_cursor()
        del self.savepoints[:-1]            # a VT100 has one saved cursor

    def restore_cursor(self):
        if not self.savepoints:
            super().restore_cursor()
            return
        saved = self.savepoints[-1]         # kept: DECRC may come again
        self.g0_charset = saved.g0_charset
        self.g1_charset = saved.g1_charset
        self.charset = saved.charset
        if saved.origin:
            self.set_mode(pyte.modes.DECOM)
        if saved.wrap:
            self.set_mode(pyte.modes.DECAWM)
        self.cursor = copy.copy(saved.cursor)
        self.ensure_hbounds()
        self.ensure_vbounds(use_margins=saved.origin)

    def write_process_input(self, data):
        # A terminal answers the cursor-position query busybox's shell
        # sends at every prompt; an answer that arrives after the next
        # typed line garbles it. The shell works without one, and the
        # program asks nothing, so nothing is answered.
        pass


def terminal_selftest():
    """The insert ncurses sends at TERM=vt100 when its table scrolls down:
    save the cursor on row 14, set the scrolling region to rows 15-21
    (which homes the cursor), restore it, go down one row to the region's
    top and reverse-index twice. A VT100 shows two new blank lines under
    row 14; returns what BoardScreen shows there instead, or None."""
    screen = BoardScreen(COLS, ROWS)
    stream = pyte.ByteStream(screen)
    stream.feed(b"".join(b"\x1b[%d;1Hrow %d" % (i + 1, i + 1) for i in range(ROWS)))
    stream.feed(b"\x1b[14;5H\x1b7\x1b[15;21r\x1b8\r\x1b[1B\x1bM\x1bM\x1b[1;24r")
    stream.feed(b"\x1b8X")                 # DECRC again: the same place
    got = [line.rstrip() for line in screen.display[12:18]]
    want = ["row 13", "row X4", "", "", "row 15", "row 16"]
    return None if got == want else got


class Recorder:
    """pexpect's logfile_read: every byte the board sends, once, with the
    time it arrived; it keeps the terminal (pyte) and a raw log."""

    def __init__(self, screen, log):
        self.screen = screen
        self.stream = pyte.ByteStream(screen)
        self.log = log
        self.marks = []             # (time, bytes so far) per chunk
        self.chunks = []            # (time, chunk) while recording
        self.recording = False
        self.data = bytearray()     # everything, for what came since a time

    def write(self, data):
        now = time.monotonic()
        self.data += data
        if self.recording:
            self.chunks.append((now, data))
        if self.log:
            self.log.write(data)
        self.stream.feed(data)

    def flush(self):
        if self.log:
            self.log.flush()


class Board:
    """The emulated board: qemu with its serial console on a socket."""

    def __init__(self, imgdir, workdir, log):
        self.workdir = workdir
        self.sock_path = os.path.join(workdir, "serial.sock")
        with open(os.path.join(imgdir, "qemu-args")) as f:
            args = f.read().split()
        with open(os.path.join(imgdir, "cmdline")) as f:
            cmdline = f.read().strip()
        cmd = ["qemu-system-aarch64"] + args + [
            "-nodefaults", "-display", "none", "-monitor", "none",
            "-no-reboot",
            "-chardev", "socket,id=con,path=%s,server=on,wait=on" % self.sock_path,
            "-serial", "chardev:con",
            "-kernel", os.path.join(imgdir, "Image"),
            "-initrd", os.path.join(imgdir, "initrd.cpio.gz"),
            "-dtb", os.path.join(imgdir, "board.dtb"),
            "-append", cmdline]
        self.qemu_log = open(os.path.join(workdir, "qemu.log"), "wb")
        self.qemu = subprocess.Popen(cmd, stdin=subprocess.DEVNULL,
                                     stdout=self.qemu_log, stderr=subprocess.STDOUT)
        self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        deadline = time.monotonic() + 30
        while True:
            try:
                self.sock.connect(self.sock_path)
                break
            except (FileNotFoundError, ConnectionRefusedError):
                if self.qemu.poll() is not None or time.monotonic() > deadline:
                    self.qemu_log.flush()
                    with open(os.path.join(workdir, "qemu.log"), "rb") as f:
                        sys.stderr.write(f.read().decode(errors="replace"))
                    raise CheckFailed("qemu-system-aarch64 did not start")
                time.sleep(0.05)
        self.screen = BoardScreen(COLS, ROWS)
        self.rec = Recorder(self.screen, log)
        self.p = pexpect.fdpexpect.fdspawn(self.sock.fileno(), timeout=CMD_TIMEOUT)
        self.p.logfile_read = self.rec

    def close(self):
        try:
            self.sock.close()
        finally:
            if self.qemu.poll() is None:
                self.qemu.terminate()
                try:
                    self.qemu.wait(10)
                except subprocess.TimeoutExpired:
                    self.qemu.kill()
                    self.qemu.wait()
            self.qemu_log.close()

    # --- reading --------------------------------------------------------
    def pump(self, seconds):
        """Reads what arrives for SECONDS (it goes to the recorder)."""
        end = time.monotonic() + seconds
        while True:
            left = end - time.monotonic()
            if left <= 0:
                return
            try:
                self.p.read_nonblocking(65536, timeout=min(left, 0.1))
            except pexpect.TIMEOUT:
                pass
            except pexpect.EOF:
                raise CheckFailed("the board's serial line closed (qemu exited)")

    def settle(self, quiet=0.4, timeout=10):
        """Reads until nothing has come for QUIET seconds (a frame drawn
        whole), TIMEOUT seconds at most."""
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            before = len(self.rec.data)
            self.pump(quiet)
            if len(self.rec.data) == before:
                return

    def text(self):
        return "\n".join(line.rstrip() for line in self.screen.display)

    def wait_screen(self, pattern, timeout=UI_TIMEOUT, stop=None):
        """Reads until the rendered screen matches PATTERN (a regex, with
        re.M); returns the match, or None after TIMEOUT seconds or as soon
        as the bytes read since the call match STOP (a bytes regex)."""
        rx = re.compile(pattern, re.M)
        stop_rx = re.compile(stop) if stop else None
        start = len(self.rec.data)
        end = time.monotonic() + timeout
        while True:
            m = rx.search(self.text())
            if m:
                return m
            if time.monotonic() > end or (stop_rx and stop_rx.search(self.rec.data, start)):
                return None
            self.pump(0.1)

    def wait_prompt(self, timeout=UI_TIMEOUT):
        """Reads until the shell's prompt is on the cursor's line (after a
        program that used the screen: read by the terminal, not pexpect)."""
        end = time.monotonic() + timeout
        while True:
            line = self.screen.display[self.screen.cursor.y].rstrip()
            if line == PROMPT.rstrip():
                return True
            if time.monotonic() > end:
                return False
            self.pump(0.1)

    # --- typing ---------------------------------------------------------
    def send(self, data):
        self.p.send(data)

    def type_line(self, line):
        """Types LINE and Enter, as a person does: the line goes out at
        once, the shell echoes it."""
        self.p.send(line.encode() + b"\r")

    def shell(self, command, timeout=CMD_TIMEOUT):
        """Runs COMMAND at the shell prompt; returns (status, output) with
        the output's CR LF made LF."""
        self.type_line("echo BEGIN-$((6*7)); %s; echo ::END-$?::" % command)
        try:
            self.p.expect(BEGIN_RE, timeout=timeout)
            self.p.expect(END_RE, timeout=timeout)
            out = self.p.before.decode(errors="replace").replace("\r\n", "\n")
            status = int(self.p.match.group(1))
            self.p.expect_exact(PROMPT.encode(), timeout=timeout)
        except pexpect.TIMEOUT:
            raise CheckFailed("`%s` did not finish within %d s" % (command, timeout))
        except pexpect.EOF:
            raise CheckFailed("the board's serial line closed (qemu exited)")
        return status, out

    def boot(self):
        try:
            self.p.expect_exact(b"evmbench-board: ready", timeout=BOOT_TIMEOUT)
            self.p.expect(rb"[#$] ", timeout=BOOT_TIMEOUT)
        except pexpect.TIMEOUT:
            raise CheckFailed("the board's shell did not start within %d s" % BOOT_TIMEOUT)
        # as a person sets up a serial terminal: its size, its type; the
        # results store in /root (HOME), a plain prompt
        self.type_line("stty rows %d cols %d; export TERM=vt100 PS1='%s'"
                       % (ROWS, COLS, PROMPT))
        self.p.expect_exact(PROMPT.encode(), timeout=CMD_TIMEOUT)


class Checks:
    def __init__(self, board, variant, workdir):
        self.b = board
        self.variant = variant
        self.workdir = workdir
        self.n = 0
        self.failed = 0
        self.peaks = {}

    def ok(self, cond, what, detail=None):
        self.n += 1
        if cond:
            print("ok %d - %s" % (self.n, what), flush=True)
            return True
        self.failed += 1
        print("not ok %d - %s" % (self.n, what), flush=True)
        if detail:
            for line in detail.rstrip("\n").split("\n"):
                print("#   " + line)
        return False

    def need(self, cond, what, detail=None):
        if not self.ok(cond, what, detail):
            exc = CheckFailed(what)
            exc.reported = True
            raise exc

    def screen_dump(self):
        return "--- the screen (80x24) ---\n%s\n--------------------------" % self.b.text()

    def expect_screen(self, pattern, what, timeout=UI_TIMEOUT):
        """Checks that the screen comes to match PATTERN within TIMEOUT
        seconds; the program ending first (tui-exit=N) fails at once."""
        stop = None if "tui-exit" in pattern else rb"tui-exit=\d+"
        m = self.b.wait_screen(pattern, timeout, stop)
        self.need(m is not None, what,
                  None if m else "waited for /%s/ (%d s at most)\n%s"
                  % (pattern, timeout, self.screen_dump()))
        return m

    def sh(self, command, timeout=CMD_TIMEOUT):
        return self.b.shell(command, timeout)

    # --- sysinfo, list ----------------------------------------------------
    def step_sysinfo(self):
        name, key, compat = BOARDS[self.variant]
        rc, out = self.sh("evmbench sysinfo")
        self.need(rc == 0, "sysinfo exits 0", out)
        self.ok(re.search(r"^Board: +%s \(%s\)$" % (re.escape(name), re.escape(key)), out, re.M),
                "sysinfo names the board: %s (%s)" % (name, key), out)
        self.ok(re.search(r'^Decided: +device-tree compatible "%s" matches %s'
                          % (re.escape(compat), re.escape(key)), out, re.M),
                "sysinfo says it decided by the device tree's compatible %s" % compat, out)
        # How sure: this kernel has no soc0 (no k3-socinfo for a virt
        # machine), which a TI kernel always has, so the match must be
        # doubtful and say why; the CPU part must confirm. The clock check
        # depends on the emulator's speed and is not looked at.
        self.ok(re.search(r"^Match: +doubtful: \d+ of \d+ checks? contradicts? the %s \(%s\)$"
                          % (re.escape(name), re.escape(key)), out, re.M),
                "sysinfo says how sure it is: doubtful about the %s" % name, out)
        self.ok(re.search(r"^Contradicts: +soc0: no /sys/devices/soc0", out, re.M),
                "sysinfo questions a board without soc0", out)
        part = "0xd03 \\(Cortex-A53\\)" if self.variant == "am625" else "0xd08 \\(Cortex-A72\\)"
        self.ok(re.search(r"^Confirms: +cpu: CPU part %s, as on %s$"
                          % (part, "AM62X" if self.variant == "am625" else "J721E"), out, re.M),
                "the CPU part confirms the board", out)
        cpu = "Cortex-A53" if self.variant == "am625" else "Cortex-A72"
        self.ok(re.search(r"^CPU: +2 x %s" % cpu, out, re.M),
                "sysinfo reads the CPU from /proc/cpuinfo: 2 x %s" % cpu, out)

    def step_list(self):
        rc, out = self.sh("evmbench list")
        self.need(rc == 0, "list exits 0", out)
        key = BOARDS[self.variant][1]
        self.ok(re.search(r"^# %s: .*Performance Guide" % re.escape(key), out, re.M),
                "list names the board's guide", out)
        self.ok(re.search(r"^System Benchmarks$", out, re.M)
                and re.search(r"^  stream +Stream +kernel \(no tool\) +\d+ refs$", out, re.M),
                "list shows the categories and the built-in STREAM kernel", out)

    # --- LAVA signals ------------------------------------------------------
    def step_lava(self):
        store = "/tmp/lava"
        rc, out = self.sh("rm -rf %s; evmbench run --profile quick --format lava "
                          "--results-dir %s 2>/tmp/lava.err" % (store, store), RUN_TIMEOUT)
        self.need(rc == 0, "run --profile quick --format lava exits 0", out)
        sig = re.compile(r"^<LAVA_SIGNAL_TESTCASE TEST_CASE_ID=([A-Za-z0-9_.-]+) "
                         r"RESULT=(pass|fail|skip|unknown)"
                         r"(?: UNITS=([A-Za-z0-9_./%-]+) MEASUREMENT=(-?[0-9.]+(?:[eE][-+]?[0-9]+)?))?>$")
        lines = [l for l in out.split("\n") if l.strip()]
        bad = [l for l in lines if not sig.match(l)]
        self.ok(not bad, "every line on stdout is a whole LAVA test-case signal",
                "\n".join(bad[:10]))
        ids = [sig.match(l).group(1) for l in lines if sig.match(l)]
        self.ok(len(ids) == len(set(ids)), "no test case is signalled twice")
        self.ok(all(sig.match(l).group(4) for l in lines if sig.match(l)),
                "every signal carries its measurement and units")
        rc, runs = self.sh("evmbench results list --results-dir %s" % store)
        m = re.search(r"^(\S+) +complete ", runs, re.M)
        self.need(m is not None, "the run is saved in the results store, complete", runs)
        rc, csv = self.sh("evmbench results show --results-dir %s --format csv %s"
                          % (store, m.group(1)))
        rows = [l for l in csv.split("\n")[1:] if l.strip()]
        self.ok(rc == 0 and len(rows) == len(ids) and len(ids) > 0,
                "one signal per saved metric (%d signals, %d metrics)" % (len(ids), len(rows)),
                csv)
        benches = {i.split(".", 1)[0] for i in ids}
        self.ok({"stream", "lmbench", "dhrystone"} <= benches,
                "the quick profile's benchmarks are all signalled (%s)" % ", ".join(sorted(benches)))

    # --- the screens ---------------------------------------------------------
    def selected(self, pattern, what):
        self.expect_screen(r"^> " + pattern, what)

    def step_screens(self):
        b = self.b
        self.sh("stty -g >/tmp/stty.before")
        b.type_line("clear; evmbench --quick --size 1000000; echo tui-exit=$?")
        self.expect_screen(r"Performance Guide categories", "the home screen opens")
        self.expect_screen(r"board: .*AM62x SK|board: .*\[%s\]" % BOARDS[self.variant][1],
                           "the top line names the detected board")
        self.selected(r"System Benchmarks +\d+ benchmarks", "the first category is selected")
        # the home's category rows, in order, from the screen itself
        b.settle()
        cats = re.findall(r"^[> ] (\S.*?) {2,}\d+ benchmarks?,", b.text(), re.M)
        self.need(len(cats) >= 3, "home lists the categories", self.screen_dump())
        b.send(b"\x1b[B")
        self.selected(re.escape(cats[1]) + " ", "Down as ESC [ B selects the next category")
        b.send(b"\x1bOB")
        self.selected(re.escape(cats[2]) + " ", "Down as ESC O B selects the one after")
        b.send(b"\x1bOA")
        self.selected(re.escape(cats[1]) + " ", "Up as ESC O A goes back one")
        b.send(b"\x1b[A")
        self.selected(re.escape(cats[0]) + " ", "Up as ESC [ A goes back to the first")
        self.ok("tui-exit=" not in b.text(), "no arrow was read as Esc (the program runs)")
        b.send(b"\r")
        self.expect_screen(r"^  benchmark +runs here +metrics", "Enter opens the category")
        b.settle()
        rows = re.findall(r"^[> ] (\S.*?) {2,}(?:yes|no|reference only)", b.text(), re.M)
        self.need("Stream" in [r.strip() for r in rows], "the category lists Stream",
                  self.screen_dump())
        for _ in range([r.strip() for r in rows].index("Stream")):
            b.send(b"\x1b[B")
            b.pump(0.3)
        self.selected(r"Stream +yes", "the arrows reach Stream")
        b.send(b"\r")
        self.expect_screen(r"Stream \(.*kernel stream", "Enter starts the live STREAM run")
        self.expect_screen(r"^copy +MB/s", "the live table shows the first metric", RUN_TIMEOUT)
        self.expect_screen(r"finished in", "the STREAM run finishes", RUN_TIMEOUT)
        # the rows follow "finished" within the line budget, a frame or two later
        for m in ("copy", "scale", "add", "triad"):
            self.expect_screen(r"^%s +MB/s +[0-9.kM]+" % m,
                               "the finished screen shows %s with a value" % m)
        b.send(b"v")
        self.expect_screen(r"^ Results: 4 metrics measured", "v opens the results screen")
        self.expect_screen(r"^> stream copy +MB/s +[0-9.kM]+", "the results list stream copy")
        b.send(b"q")
        self.expect_screen(r"^  benchmark +runs here|Performance Guide categories|finished in",
                           "q leaves the results screen")
        for _ in range(4):
            if re.search(r"^tui-exit=", b.text(), re.M):
                break
            b.send(b"q")
            b.wait_screen(r"^tui-exit=", 3)
        self.expect_screen(r"^tui-exit=0", "q back to the shell, status 0")
        self.need(b.wait_prompt(), "the shell prompts again", self.screen_dump())
        rc, out = self.sh("stty -a")
        self.ok(re.search(r"(^| )icanon( |$)", out, re.M) and re.search(r"(^| )echo( |$)", out, re.M),
                "stty -a shows icanon echo: the terminal is restored", out)
        rc, out = self.sh("stty -g | cmp -s - /tmp/stty.before && echo same-modes")
        self.ok("same-modes" in out, "every terminal mode is as before the program ran")
        self.ok(re.search(r"^%s" % re.escape(PROMPT.rstrip()), b.text(), re.M),
                "the shell's prompt is back on the screen", self.screen_dump())

    # --- SIGHUP mid-session ----------------------------------------------------
    def step_hangup(self):
        b = self.b
        store = "/tmp/hup"
        self.sh("stty -g >/tmp/stty.before; rm -rf %s" % store)
        # What a dropped line sends: SIGHUP to the program. It comes from a
        # job started before the program: once STREAM is saved in the
        # results store and a second benchmark's worker runs (two evmbench
        # processes), it waits 1 s and signals the program.
        self.sh("(while ! grep -qs '\"metric\":\"triad\"' %s/runs/*.evmrun; do sleep 0.2; done;"
                " while [ $(pidof evmbench | wc -w) -lt 2 ]; do sleep 0.2; done; sleep 1;"
                " kill -HUP $(cat /tmp/hup.pid)) >/dev/null 2>&1 & true" % store)
        b.type_line("clear; sh -c 'echo $$ >/tmp/hup.pid; exec evmbench --quick --size 1000000 "
                    "--results-dir %s --run stream'; echo tui-exit=$?" % store)
        self.expect_screen(r"Stream \(.*kernel stream", "--run stream opens the live STREAM run")
        self.expect_screen(r"finished in", "the STREAM run finishes", RUN_TIMEOUT)
        b.send(b"q")
        self.expect_screen(r"Performance Guide categories", "q goes to the home screen")
        b.send(b"\r")
        self.expect_screen(r"^  benchmark +runs here", "Enter opens System Benchmarks")
        self.selected(r"LMBench +yes", "LMBench is selected")
        b.send(b"r")
        self.expect_screen(r"LMBench \(.*kernel", "r starts LMBench")
        self.expect_screen(r"^tui-exit=129", "SIGHUP mid-run stops the program with status 129",
                           RUN_TIMEOUT)
        self.need(b.wait_prompt(), "the shell prompts again", self.screen_dump())
        rc, out = self.sh("stty -g | cmp -s - /tmp/stty.before && echo same-modes; stty -a")
        self.ok("same-modes" in out and re.search(r"(^| )icanon( |$)", out, re.M),
                "after SIGHUP the terminal modes are restored", out)
        rc, out = self.sh("evmbench results list --results-dir %s" % store)
        m = re.search(r"^(\S+) +incomplete ", out, re.M)
        self.ok(rc == 0 and m is not None,
                "the session's run is in the results store, marked incomplete", out)
        rc, out = self.sh("evmbench results show --results-dir %s --format csv %s"
                          % (store, m.group(1) if m else "none"))
        self.ok(rc == 0 and all(re.search(r"^stream,%s," % x, out, re.M)
                                for x in ("copy", "scale", "add", "triad")),
                "the finished STREAM metrics are kept", out)
        rc, out = self.sh("pidof evmbench || echo none-left")
        self.ok("none-left" in out, "no evmbench process is left (the worker stopped too)", out)

    # --- no writable TMPDIR ----------------------------------------------------
    def step_tmpdir(self):
        b = self.b
        rc, out = self.sh("mkdir -p /ro && mount -t tmpfs -o ro tmpfs /ro && touch /ro/x")
        self.need(rc != 0, "/ro is a read-only file system", out)
        rc, out = self.sh("TMPDIR=/ro evmbench list")
        self.ok(rc == 0 and re.search(r"^  stream +Stream", out, re.M),
                "with TMPDIR read-only, list shows the built-in data", out)
        rc, out = self.sh("TMPDIR=/ro evmbench sysinfo")
        self.ok(rc == 0 and re.search(r"^Guide EVM: +%s" % re.escape(BOARDS[self.variant][0]), out, re.M),
                "with TMPDIR read-only, sysinfo finds the board's guide", out)
        rc, out = self.sh("TMPDIR=/ro evmbench run stream --quick --size 1000000 2>&1",
                          RUN_TIMEOUT)
        self.ok(rc == 0 and re.search(r"^triad +[0-9.]+ mb/s +[0-9.]+ ", out, re.M | re.I),
                "with TMPDIR read-only, run stream compares with the guide", out)
        self.ok(re.search(r"^Warning: +this board does not match the guide's", out, re.M),
                "the run warns that the emulated board does not match the guide's", out)
        b.type_line("clear; TMPDIR=/ro evmbench; echo tui-exit=$?")
        self.expect_screen(r"Performance Guide categories",
                           "with TMPDIR read-only, the screens open (no terminfo on the board)")
        b.send(b"q")
        self.expect_screen(r"^tui-exit=0", "and q quits with status 0")
        self.need(b.wait_prompt(), "the shell prompts again", self.screen_dump())
        self.sh("umount /ro")

    # --- the bytes on the line -------------------------------------------------
    def measure(self, term, colour):
        """One live `lmbench --quick` run at TERM; returns the peak bytes
        in a one-second window after the first full paint."""
        b = self.b
        env = "TERM=%s%s" % (term, "" if colour else " NO_COLOR=1")
        self.sh("clear")
        b.type_line("%s evmbench --run lmbench --quick; echo tui-exit=$?" % env)
        b.rec.chunks = []
        b.rec.recording = True
        try:
            self.expect_screen(r"LMBench \(.*kernel", "TERM=%s: the live lmbench run opens" % term)
            self.expect_screen(r"finished in", "TERM=%s: the lmbench --quick run finishes" % term,
                               RUN_TIMEOUT)
            b.pump(1.5)     # the frames held back by the scheduler
        finally:
            b.rec.recording = False
        chunks = b.rec.chunks
        b.send(b"q")
        b.wait_screen(r"Performance Guide categories", UI_TIMEOUT)
        b.send(b"q")
        self.expect_screen(r"^tui-exit=0", "TERM=%s: q quits with status 0" % term)
        self.need(b.wait_prompt(), "the shell prompts again", self.screen_dump())
        # the first full paint: the chunk holding home + clear to the end,
        # and what follows it within 0.2 s (one frame)
        clear = b"\x1b[H\x1b[J"
        data = b"".join(c for _, c in chunks)
        at = data.find(clear)
        self.need(at >= 0, "TERM=%s: the first full paint is on the line" % term)
        pos = 0
        first = None
        for i, (t, c) in enumerate(chunks):
            pos += len(c)
            if pos > at:
                first = i
                break
        while first + 1 < len(chunks) and chunks[first + 1][0] - chunks[first][0] < 0.2:
            first += 1
        # the end: the run's last frame, before q (the recording stopped there)
        after = chunks[first + 1:]
        peak = win = 0
        j = 0
        for k in range(len(after)):
            while j < len(after) and after[j][0] < after[k][0] + 1.0:
                win += len(after[j][1])
                j += 1
            peak = max(peak, win)
            win -= len(after[k][1])
        total = sum(len(c) for _, c in after)
        dur = (after[-1][0] - chunks[first][0]) if after else 0
        first_paint = sum(len(c) for _, c in chunks[:first + 1])
        print("# line TERM=%s%s: first paint %d B; then %d B in %.1f s; "
              "busiest second %d B (limit %d)"
              % (term, " (colour)" if colour else "", first_paint, total, dur, peak, LINE_LIMIT),
              flush=True)
        self.peaks[term] = peak
        self.ok(total > 0, "TERM=%s: the live screen is drawn after its first paint" % term)
        self.ok(peak <= LINE_LIMIT, "TERM=%s: at most %d bytes in any second of the live run (%d)"
                % (term, LINE_LIMIT, peak))
        return peak

    def step_line(self):
        self.measure("vt100", False)
        self.measure("linux", True)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("boarddir")
    ap.add_argument("--variant", choices=sorted(BOARDS), default="am625")
    ap.add_argument("--steps", default=",".join(STEPS))
    ap.add_argument("--log", help="also write every byte read from the line here")
    a = ap.parse_args()
    steps = [s for s in a.steps.split(",") if s]
    for s in steps:
        if s not in STEPS:
            ap.error("no step named %r (steps: %s)" % (s, ", ".join(STEPS)))
    for f in ("Image", "initrd.cpio.gz", "board.dtb", "qemu-args", "cmdline"):
        if not os.path.isfile(os.path.join(a.boarddir, f)):
            ap.error("%s: no %s (made by tests/board/mkimage.sh)" % (a.boarddir, f))
    if shutil.which("qemu-system-aarch64") is None:
        sys.stderr.write("serial.py: qemu-system-aarch64 is missing (sh .ci/deps board)\n")
        return 1
    workdir = tempfile.mkdtemp(prefix="evmbench-board.")
    log = open(a.log, "wb") if a.log else None
    board = None
    checks = None
    t0 = time.monotonic()
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(1))
    try:
        bad = terminal_selftest()
        if bad is not None:
            print("not ok 1 - the terminal draws ncurses' line insert after a "
                  "cursor restore as a VT100 does: rows 13-18 are %r" % bad)
            print("0 passed, 1 failed")
            return 1
        board = Board(a.boarddir, workdir, log)
        checks = Checks(board, a.variant, workdir)
        board.boot()
        checks.ok(True, "%s board boots to a shell on ttyAMA0 in %.1f s"
                  % (a.variant, time.monotonic() - t0))
        for s in steps:
            print("# --- %s ---" % s, flush=True)
            try:
                getattr(checks, "step_" + s)()
            except (CheckFailed, pexpect.ExceptionPexpect) as exc:
                if not getattr(exc, "reported", False):
                    checks.ok(False, "step %s: %s" % (s, str(exc).split("\n")[0]))
                # the step stopped; put the shell back for the next one
                board.send(b"q")
                board.pump(0.5)
                board.send(b"\x03")
                board.pump(1)
                board.type_line("")
                board.pump(1)
    except (CheckFailed, pexpect.ExceptionPexpect) as exc:
        if checks is None:
            print("not ok 1 - %s" % str(exc).split("\n")[0])
            print("0 passed, 1 failed")
            return 1
        checks.ok(False, str(exc).split("\n")[0])
    finally:
        if board:
            board.close()
        if log:
            log.close()
        shutil.rmtree(workdir, ignore_errors=True)
    passed = checks.n - checks.failed
    if checks.peaks:
        print("# serial line peaks (bytes in the busiest second): %s"
              % ", ".join("%s %d" % kv for kv in checks.peaks.items()))
    print("# %s board: %.0f s" % (a.variant, time.monotonic() - t0))
    print("%d passed, %d failed" % (passed, checks.failed))
    return 0 if checks.failed == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
