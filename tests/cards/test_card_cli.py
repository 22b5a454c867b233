"""``podkeeper cards import|lookup|sync`` through the real CLI entry point."""

from __future__ import annotations

import io
import json
import socket
from pathlib import Path

import pytest

from bot.cli import main
from bot.cli.cards import ProgressBar
from tests.cards.conftest import SCRYFALL_FILE, SUBSET
from tests.conftest import write_cli_config


@pytest.fixture
def config(tmp_path: Path) -> Path:
    """A config whose 'bundled' data is the committed subset, so commands import it quickly."""
    return write_cli_config(tmp_path, SUBSET, log_level="WARNING")


def run(config: Path, *args: str) -> int:
    return main(["--config", str(config), "cards", *args])


def test_lookup_json_for_a_card(config: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert run(config, "lookup", "稲妻", "--json") == 0
    assert json.loads(capsys.readouterr().out) == {
        "name": "Lightning Bolt",
        "mana_cost": "{R}",
        "type_line": "Instant",
        "color_identity": "R",
        "printed_names": {"ja": "稲妻", "zh-Hans": "闪电击", "zh-Hant": "閃電擊"},
    }


def test_lookup_json_colour_identity_is_wubrg_ordered(
    config: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert run(config, "lookup", "fire/ice", "--json") == 0
    out = json.loads(capsys.readouterr().out)
    assert (out["name"], out["color_identity"], out["printed_names"]) == ("Fire // Ice", "UR", {})


def test_lookup_json_with_suggestions_exits_1(config: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert run(config, "lookup", "Lightnig", "Bolt", "--json") == 1
    out = json.loads(capsys.readouterr().out)
    assert out["name"] is None and out["suggestions"][0] == "Lightning Bolt"
    assert set(out) == {"name", "suggestions"}


def test_lookup_text(config: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert run(config, "lookup", "lim", "dul's", "vault") == 0
    out = capsys.readouterr().out
    assert out.startswith("Lim-Dûl's Vault  {U}{B}\nInstant\n")
    assert "Colour identity: UB · Commander: legal" in out and "ja: リム＝ドゥールの櫃" in out
    assert run(config, "lookup", "Kenzo the Hardhearted") == 0
    out = capsys.readouterr().out
    assert "Bushi Tenderfoot  {W}" in out and "Kenzo the Hardhearted  {W}" in out
    assert "\n1/1\n" in out and "\n3/4\n" in out
    assert run(config, "lookup", "重生") == 1
    assert "several cards: Regenerate, Regeneration" in capsys.readouterr().out
    assert run(config, "lookup", "qqqqxzzzvv") == 1
    out = capsys.readouterr().out  # close to no card: maybe newer than the data, and how to update
    assert out.startswith("no card named 'qqqqxzzzvv'. No card in the card data comes close to it")
    assert "podkeeper cards sync" in out


def test_import_is_idempotent_and_reports(
    config: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert run(config, "import", str(SCRYFALL_FILE)) == 0
    first = capsys.readouterr()
    assert "imported 11 cards (scryfall)" in first.out
    assert "\r" not in first.err  # no progress bar when stderr is not a terminal
    assert run(config, "import", str(SCRYFALL_FILE)) == 0
    assert "imported 11 cards (scryfall)" in capsys.readouterr().out
    assert run(config, "lookup", "Counterspell", "--json") == 1


def test_import_of_a_bad_file_changes_nothing(
    config: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert run(config, "import", str(SUBSET)) == 0
    capsys.readouterr()
    bad = tmp_path / "cards.json"
    bad.write_text('[{"name": "Sol Ring"}, {"nam', encoding="utf-8")
    assert run(config, "import", str(bad)) == 1
    err = capsys.readouterr().err
    assert "corrupt, truncated" in err and "current card data is unchanged" in err
    assert run(config, "import", str(tmp_path / "missing.jsonl.gz")) == 1
    assert "no such file" in capsys.readouterr().err
    assert run(config, "lookup", "Counterspell", "--json") == 0


def test_import_with_a_forced_format(config: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert run(config, "import", "--format", "mtgjson", str(SCRYFALL_FILE)) == 1
    assert "expected '{'" in capsys.readouterr().err


def test_sync_offline_fails_fast_and_keeps_the_data(config: Path, capsys: pytest.CaptureFixture[str]) -> None:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    text = config.read_text(encoding="utf-8").replace(
        "[cards]\n", f'[cards]\nscryfall_bulk_url = "http://127.0.0.1:{port}/bulk-data"\n'
    )
    config.write_text(text, encoding="utf-8")
    assert run(config, "lookup", "Sol Ring") == 0
    assert run(config, "sync") == 1
    assert "offline" in capsys.readouterr().err
    assert run(config, "lookup", "Sol Ring") == 0


def test_progress_bar_draws_only_on_a_terminal() -> None:
    class Terminal(io.StringIO):
        def isatty(self) -> bool:
            return True

    terminal = Terminal()
    bar = ProgressBar("importing x", terminal)
    bar(512_000, 1_024_000)
    bar(1_024_000, 1_024_000)
    bar.finish()
    drawn = terminal.getvalue()
    assert "100%" in drawn and "1.0/1.0 MB" in drawn and drawn.endswith("\n")
    silent = io.StringIO()
    ProgressBar("x", silent)(5, 10)
    assert silent.getvalue() == ""


@pytest.mark.parametrize("action", ["import", "lookup", "sync"])
def test_every_action_has_help(action: str, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as stop:
        main(["cards", action, "--help"])
    assert stop.value.code == 0
    assert capsys.readouterr().out.startswith("usage: podkeeper cards " + action)


def test_lookup_with_unreadable_card_data_says_what_to_do(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    config = tmp_path / "config.toml"
    config.write_text(
        f'[database]\npath = "{tmp_path / "p.sqlite3"}"\n[cards]\npath = "{tmp_path / "nope.gz"}"\n',
        encoding="utf-8",
    )
    assert main(["--config", str(config), "cards", "lookup", "Sol Ring"]) == 2
    err = capsys.readouterr().err
    assert "no such file" in err and "[cards] path" in err and "Traceback" not in err
