# SPDX-License-Identifier: MIT
"""soc/steps.py: a step's output goes to its log, the terminal gets one line naming it,
a failing step shows the log's tail and a non-zero status. No simulator: seconds."""
import os
import subprocess
import sys

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
STEPS = os.path.join(ROOT, "soc", "steps.py")
sys.path.insert(0, ROOT)

from soc import steps  # noqa: E402

# A child that writes on both descriptors, as make, gcc and Verilator do.
NOISY = [sys.executable, "-c", "import sys; print('OUT-noise'); print('ERR-noise', file=sys.stderr)"]
FAILING = [sys.executable, "-c", "import sys; [print(f'line {i}') for i in range(100)]; sys.exit(3)"]


def cli(*args, env=None):
    return subprocess.run([sys.executable, STEPS, *args], capture_output=True, text=True, cwd=ROOT,
                          env={**os.environ, "V": "", "VERBOSE": "", **(env or {})})


def test_cli_sends_the_output_to_the_log_and_prints_one_line(tmp_path):
    log = tmp_path / "logs" / "noisy.log"
    r = cli("noisy step", str(log), "--", *NOISY)
    assert r.returncode == 0
    assert "noise" not in r.stdout + r.stderr
    assert log.read_text().split() == ["OUT-noise", "ERR-noise"]
    lines = r.stderr.splitlines()
    assert len(lines) == 1 and r.stdout == ""
    assert "noisy step" in lines[0] and " ok " in lines[0] and lines[0].endswith(str(log))
    assert lines[0].startswith("[") and " s] " in lines[0]


def test_cli_failure_prints_the_tail_of_the_log_and_the_status(tmp_path):
    log = tmp_path / "fail.log"
    r = cli("failing step", str(log), "--", *FAILING)
    assert r.returncode == 3
    first = r.stderr.splitlines()[0]
    assert "failing step" in first and "FAILED" in first and str(log) in first
    assert "line 99" in r.stderr and "line 80" in r.stderr      # the tail...
    assert "line 10\n" not in r.stderr                           # ...only
    assert "line 10\n" in log.read_text()


def test_cli_verbose_shows_everything(tmp_path):
    log = tmp_path / "v.log"
    r = cli("verbose step", str(log), "--", *NOISY, env={"V": "1"})
    assert r.returncode == 0
    assert "OUT-noise" in r.stdout and "ERR-noise" in r.stderr
    assert "verbose step" in r.stderr.splitlines()[-1] and not log.exists()


def test_run_captures_subprocesses_and_python_output_inside_pytest(tmp_path, capfd, monkeypatch):
    # pytest has replaced fds 1 and 2 (and sys.stdout): the step redirects on top of that.
    monkeypatch.delenv("V", raising=False)
    monkeypatch.delenv("VERBOSE", raising=False)
    log = tmp_path / "py.log"

    def work():
        print("PY-noise")
        subprocess.run(NOISY, check=True)
        return 42

    assert steps.run("python step", str(log), work) == 42
    out, err = capfd.readouterr()
    assert "noise" not in out + err
    assert "python step" in err and str(log) in err and len(err.splitlines()) == 1
    assert {"PY-noise", "OUT-noise", "ERR-noise"} <= set(log.read_text().split())
    print("after the step")
    assert capfd.readouterr().out == "after the step\n"


def test_run_failure_raises_after_showing_the_tail(tmp_path, capfd, monkeypatch):
    monkeypatch.delenv("V", raising=False)
    monkeypatch.delenv("VERBOSE", raising=False)
    with pytest.raises(subprocess.CalledProcessError) as e:
        steps.run("failing command", str(tmp_path / "f.log"), FAILING)
    assert e.value.returncode == 3
    out, err = capfd.readouterr()
    assert "FAILED" in err.splitlines()[0] and "line 99" in err and out == ""

    def broken():
        print("before the error")
        raise ValueError("no such thing")

    with pytest.raises(ValueError):
        steps.run("failing callable", str(tmp_path / "g.log"), broken)
    err = capfd.readouterr().err
    assert "before the error" in err and "ValueError: no such thing" in err
    assert steps.cli(lambda: steps.run("again", str(tmp_path / "h.log"), broken)) == 1


def test_nested_steps_each_get_their_log_and_line(tmp_path, capfd, monkeypatch):
    monkeypatch.delenv("V", raising=False)
    monkeypatch.delenv("VERBOSE", raising=False)

    def outer():
        print("OUTER-1")
        steps.run("inner", str(tmp_path / "inner.log"), NOISY)
        print("OUTER-2")

    steps.run("outer", str(tmp_path / "outer.log"), outer)
    err = capfd.readouterr().err.splitlines()
    assert [e.split()[3] for e in err] == ["inner", "outer"]
    assert (tmp_path / "outer.log").read_text().split() == ["OUTER-1", "OUTER-2"]
    assert (tmp_path / "inner.log").read_text().split() == ["OUT-noise", "ERR-noise"]


def test_a_failing_inner_step_shows_its_tail_once(tmp_path, capfd, monkeypatch):
    # The BIOS fails inside the SoC build: its log's end is shown, then the outer FAILED line.
    monkeypatch.delenv("V", raising=False)
    monkeypatch.delenv("VERBOSE", raising=False)

    def outer():
        steps.run("inner", str(tmp_path / "inner.log"), FAILING)

    assert steps.cli(lambda: steps.run("outer", str(tmp_path / "outer.log"), outer)) == 3
    err = capfd.readouterr().err
    assert err.count("line 99") == 1 and err.count("the last lines") == 1
    assert "FAILED" in err.splitlines()[0] and " inner " in err.splitlines()[0]
    assert "FAILED" in err.splitlines()[-1] and " outer " in err.splitlines()[-1]
