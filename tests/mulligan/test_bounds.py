"""Every number the odds calculators take is bounded where it is read: ``podkeeper odds 100000000 0
100000000 1`` never ended, and ``/odds`` values beyond its registered range (Discord clients keep to
it; discord.py does not check it) ran for minutes in a worker. Now they are refused at once with a
clear message in the reader's language, as is an absurd ``--monte-carlo`` sample count."""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from bot.cli import main
from bot.domain.mulligan.odds import MAX_DECK_SIZE, MAX_SAMPLES, hypergeometric
from bot.domain.mulligan.procedure import MulliganError
from bot.i18n import t
from tests.conftest import write_cli_config

DATA = Path(__file__).parent.parent / "data"


@pytest.fixture
def config_file(tmp_path: Path) -> Path:
    return write_cli_config(tmp_path, DATA / "mulligan_cards.jsonl")


@pytest.mark.timeout(60)  # before the bound this never returned
@pytest.mark.parametrize("language", ["en", "ja", "zh-Hans", "zh-Hant"])
def test_the_calculator_refuses_a_huge_deck_at_once(config_file, capsys, language) -> None:
    started = time.process_time()
    status = main(
        ["--config", str(config_file), "odds", "100000000", "0", "100000000", "1", "--language", language]
    )
    assert status != 0 and time.process_time() - started < 5
    assert (
        capsys.readouterr()
        .err.strip()
        .endswith(t("mulligan.error.too_large", language, largest=MAX_DECK_SIZE))
    )


@pytest.mark.timeout(60)
@pytest.mark.parametrize(
    "numbers", [(20_000, 4, 20_000, 1), (MAX_DECK_SIZE + 1, 1, 7, 1), (99, 4, 7, 10**12)]
)
def test_values_beyond_the_commands_range_are_refused_by_the_domain(numbers) -> None:
    with pytest.raises(MulliganError) as refused:
        hypergeometric(*numbers)
    assert refused.value.key == "mulligan.error.too_large"
    assert hypergeometric(MAX_DECK_SIZE, 4, 7, 1).at_least > 0  # the largest allowed still works


@pytest.mark.timeout(60)
def test_an_absurd_simulation_count_is_refused(config_file, capsys, tmp_path) -> None:
    deck = tmp_path / "deck.txt"
    deck.write_text("Commander: Kaalia of the Vast\n38 Plains\n61 Sol Ring\n", encoding="utf-8")
    status = main(
        ["--config", str(config_file), "mulligan", "odds", str(deck), "--monte-carlo", "1000000000"]
    )
    assert status != 0
    assert t("mulligan.error.too_many_samples", "en", largest=MAX_SAMPLES) in capsys.readouterr().err
