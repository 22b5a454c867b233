"""Measuring and stopping a bot process the benchmarks started (``bench_startup``, ``bench_hydra_events``):
its memory and CPU time read from ``/proc``, and a stop that lets it shut down cleanly first.

Linux only (``/proc``), like the benchmarks that use it."""

from __future__ import annotations

import os
import signal
import subprocess
from pathlib import Path


def status_mb(pid: int, field: str) -> float:
    """A memory line of ``/proc/<pid>/status`` (``VmRSS``, ``VmHWM``, ``RssAnon``, ``RssFile``) in MiB."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith(field + ":"):
            return int(line.split()[1]) / 1024
    return float("nan")


def cpu_seconds(pid: int) -> float:
    """User + system CPU time of process ``pid`` so far."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def stop(process: subprocess.Popen, grace_seconds: float = 30) -> None:
    """SIGTERM (the bot closes its database and leases), then SIGKILL after ``grace_seconds``."""
    process.send_signal(signal.SIGTERM)
    try:
        process.wait(grace_seconds)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()
