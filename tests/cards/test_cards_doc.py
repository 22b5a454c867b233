"""The examples of docs/operators/cards.md, run: each ``podkeeper cards lookup`` it shows answers what the
page says, over the bundled card data, and the dates and thresholds it states are the code's."""

from __future__ import annotations

import re
import shlex
from pathlib import Path

import pytest

from bot.cards.bundled import BUNDLED_DATA_DATE
from bot.cards.index import CLOSE_RATIO
from bot.cli import main
from cogs.card_sync import STARTUP_DELAY

DOC = Path(__file__).resolve().parent.parent.parent / "docs" / "operators" / "cards.md"
TEXT = DOC.read_text(encoding="utf-8")


def test_the_page_states_the_codes_date_threshold_and_delay() -> None:
    assert f"**cards up to {BUNDLED_DATA_DATE}**" in TEXT
    assert f"similarity of at least {CLOSE_RATIO:g}" in TEXT
    assert f"in the background in {STARTUP_DELAY:.0f} s" in TEXT


@pytest.mark.slow  # imports the whole bundled card data set
def test_the_lookup_example_prints_what_the_page_shows(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    config = tmp_path / "config.toml"
    config.write_text(
        f'[database]\npath = "{tmp_path / "p.sqlite3"}"\n[logging]\nlevel = "WARNING"\n', encoding="utf-8"
    )
    [command] = re.findall(r"^podkeeper cards lookup .+$", TEXT, flags=re.MULTILINE)
    shown = TEXT.split(command, 1)[1].split("```text\n", 1)[1].split("\n```", 1)[0]
    assert main(["--config", str(config), *shlex.split(command)[1:]]) == 1
    printed = capsys.readouterr().out.strip()
    assert printed.startswith(shown.split("…")[0])
    typo = re.search(r"`(podkeeper cards lookup \"Lightnig Bolt\")` suggests Lightning\s+Bolt", TEXT)
    assert typo is not None
    assert main(["--config", str(config), *shlex.split(typo.group(1))[1:]]) == 1
    assert "Did you mean: Lightning Bolt" in capsys.readouterr().out
