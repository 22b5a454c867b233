"""Plant one bug by hand, run the tests that should notice it, and put the code back.

    python benchmarks/plant_bug.py FILE OLD NEW [--pg] TEST_PATH...

OLD must occur exactly once in FILE; it is replaced by NEW, the tests run (``-x``, two workers; ``--pg``
keeps the PostgreSQL runs, as a storage bug needs), and FILE is restored whatever happens. Prints CAUGHT or
SURVIVED with the first failing tests. For the kinds of bug mutmut does not make (a dropped ``ORDER BY``, a
fresh lock per call, a value read after an await instead of before); see docs/contributors/tests.md.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path


def main(argv: list[str]) -> int:
    if len(argv) < 4:
        print(__doc__, file=sys.stderr)
        return 2
    path, old, new, *rest = argv
    marks = ["-m", "not slow"] if rest[:1] == ["--pg"] else []
    tests = rest[1:] if marks else rest
    target = Path(path)
    source = target.read_text(encoding="utf-8")
    if source.count(old) != 1:
        print(f"{old!r} occurs {source.count(old)} times in {path}, not once", file=sys.stderr)
        return 2
    target.write_text(source.replace(old, new, 1), encoding="utf-8")
    try:
        command = [sys.executable, "-m", "pytest", "-q", "-x", "-p", "no:randomly", "-n", "2", *marks, *tests]
        run = subprocess.run(command, capture_output=True, text=True, check=False)
    finally:
        target.write_text(source, encoding="utf-8")
    print("CAUGHT" if run.returncode else "SURVIVED", path, repr(old), "->", repr(new))
    for line in [line for line in run.stdout.splitlines() if line.startswith(("FAILED", "ERROR"))][:4]:
        print("   ", line)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
