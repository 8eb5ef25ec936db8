#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Quiet builds: run a step with its output in a log file, print one line for it.

    python soc/steps.py LABEL LOG -- command [args...]

prints, on the terminal's stderr, one line when the step ends:

    [  48.2 s] sim: BIOS (picolibc, libbase, bios)         ok      build/logs/sim-bios.log

The step's whole output goes to LOG: file descriptors 1 and 2 are redirected (os.dup2), so
that what the step's subprocesses print (make, gcc, meson, Verilator...) lands there too.
On failure the line says FAILED, the last lines of the log follow, and the command's exit
status is returned (the CLI) or the exception is raised again (run()).

From Python, `run(label, log, target)` runs a callable or a command (a list) the same way;
steps nest (the outer step's time then leaves out the inner one's). V=1 (or VERBOSE=1) in
the environment turns all this off: the output is shown as it comes, and the line follows.

Standard library only: `make setup` runs it before the venv exists.
"""
import contextlib
import os
import subprocess
import sys
import threading
import time
import traceback

TOP = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
LOG_DIR = os.path.join(TOP, "build", "logs")
TAIL = 40
LABEL_WIDTH = 46

# The redirection is the process's: one step at a time (scripts/bench.py builds from two
# threads); a step may run steps inside it on the same thread.
_lock = threading.RLock()
_stack = []          # the active steps, outermost first
_terminal = None     # (fd 1, fd 2, sys.stdout, sys.stderr) before the outermost step


def verbose():
    """V=1 or VERBOSE=1: show the tools' output as it comes."""
    return os.environ.get("V", "") == "1" or os.environ.get("VERBOSE", "") == "1"


def log_path(name):
    """build/logs/NAME.log"""
    return os.path.join(LOG_DIR, name + ".log")


def shown(path):
    """A path as the line shows it: relative to the current directory when under it."""
    rel = os.path.relpath(path)
    return path if rel.startswith("..") else rel


def line(label, status, seconds=None, where=""):
    t = f"{seconds:6.1f} s" if seconds is not None else " " * 8
    return f"[{t}] {label:<{LABEL_WIDTH}} {status:<7} {where}".rstrip()


def _term_write(text):
    """Write to the terminal's stderr, also from inside a step."""
    fd = _terminal[1] if _stack else 2
    if not _stack:
        sys.stderr.flush()
    os.write(fd, text.encode(errors="replace"))


def report(label, status, seconds=None, where=""):
    """Print one step-style line on the terminal (for steps whose output is shown)."""
    with _lock:
        sys.stdout.flush()
        _term_write(line(label, status, seconds, where) + "\n")


def tail(path, n=TAIL):
    try:
        with open(path, errors="replace") as f:
            return "".join(f.readlines()[-n:])
    except OSError as e:
        return f"({e})\n"


def _mark(exc):
    """The step has reported this failure: cli() exits without a traceback."""
    with contextlib.suppress(AttributeError):
        exc.step_reported = True


class _Step:
    def __init__(self, label, log):
        self.label, self.log = label, log
        self.inner = 0.0     # seconds spent in steps inside this one
        self.file = None     # the log, while the output goes there
        self.hinted = False

    def __enter__(self):
        global _terminal
        _lock.acquire()
        try:
            self.t0 = time.monotonic()
            if verbose():
                return self
            os.makedirs(os.path.dirname(os.path.abspath(self.log)), exist_ok=True)
            self.file = open(self.log, "w", buffering=1, errors="replace")
            sys.stdout.flush()
            sys.stderr.flush()
            if not _stack:
                _terminal = (os.dup(1), os.dup(2), sys.stdout, sys.stderr)
                if os.isatty(2):     # a hint while the step runs, overwritten by its line
                    self.hinted = True
                    os.write(2, line(self.label, "...", None, shown(self.log)).encode())
            os.dup2(self.file.fileno(), 1)
            os.dup2(self.file.fileno(), 2)
            sys.stdout = sys.stderr = self.file
            _stack.append(self)
            return self
        except BaseException:
            _lock.release()
            raise

    def __exit__(self, kind, exc, tb):
        try:
            seconds = time.monotonic() - self.t0
            where = ""
            failed = exc is not None and not isinstance(exc, KeyboardInterrupt)
            fresh = failed and not getattr(exc, "step_reported", False)
            if self.file is not None:
                where = shown(self.log)
                if isinstance(exc, subprocess.CalledProcessError):
                    print(f"\n{exc}", file=self.file)
                elif fresh:
                    traceback.print_exception(kind, exc, tb, file=self.file)
                self._restore()
            if _stack:
                _stack[-1].inner += seconds
            status = "ok" if exc is None else "FAILED" if failed else "stopped"
            text = line(self.label, status, seconds - self.inner, where)
            if fresh and self.file is not None:
                text += f"\n---- the last lines of {where} ----\n{tail(self.log)}----"
            if fresh:
                _mark(exc)
            if self.hinted:
                text = "\r" + text + "\x1b[K"
            _term_write(text + "\n")
        finally:
            _lock.release()
        return False

    def _restore(self):
        global _terminal
        sys.stdout.flush()
        sys.stderr.flush()
        _stack.pop()
        if _stack:
            outer = _stack[-1].file
            os.dup2(outer.fileno(), 1)
            os.dup2(outer.fileno(), 2)
            sys.stdout = sys.stderr = outer
        else:
            fd1, fd2, sys.stdout, sys.stderr = _terminal
            _terminal = None
            os.dup2(fd1, 1)
            os.dup2(fd2, 2)
            os.close(fd1)
            os.close(fd2)
        self.file.close()


def step(label, log):
    """`with step(label, log):` runs the block as a step."""
    return _Step(label, log)


def run(label, log, target, cwd=None, env=None):
    """Run `target`, a callable (its result is returned) or a command (a list: a non-zero
    exit raises subprocess.CalledProcessError; `cwd`, `env` as for subprocess), as the
    step `label` logging to `log`."""
    with step(label, log):
        if callable(target):
            return target()
        rc = subprocess.call(target, cwd=cwd, env=env, close_fds=False)    # make's jobserver
        if rc != 0:
            raise subprocess.CalledProcessError(rc, target)
        return rc


def cli(main):
    """Run main() for a command-line entry point: a failure a step has already shown ends
    the program with a non-zero status and no traceback."""
    try:
        return main()
    except subprocess.CalledProcessError as e:
        if not getattr(e, "step_reported", False):
            raise
        return e.returncode or 1
    except Exception as e:
        if not getattr(e, "step_reported", False):
            raise
        return 1


def main(argv=None):
    argv = sys.argv[1:] if argv is None else argv
    if len(argv) < 4 or argv[2] != "--":
        print("usage:" + __doc__.split("\n\n")[1].strip("\n")[3:], file=sys.stderr)
        return 2
    label, log, cmd = argv[0], argv[1], argv[3:]
    return cli(lambda: run(label, log, cmd))


if __name__ == "__main__":
    sys.exit(main())
