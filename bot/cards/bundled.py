"""The card data shipped with Podkeeper: where it is, and how current it is.

Every use of the bundled file goes through ``bundled_card_file`` so that how assets are found (a
checkout's ``assets/`` folder today, package resources in an installed wheel) is decided in one place.

The bundled file gives no release dates (its 2019–2022 cards come from a data set without them), so its
date is written here: the newest cards it holds are from Streets of New Capenna (released 2022-04-29);
Commander Legends: Battle for Baldur's Gate (June 2022) and everything after are missing. Replace the
date when the bundled file is replaced.
"""

from __future__ import annotations

from pathlib import Path

from bot import paths

BUNDLED_DATA_DATE = "2022-04-29"


def bundled_card_file() -> Path:
    """The bundled card data file (JSON Lines, gzip)."""
    return paths.BUNDLED_CARDS


def is_bundled(source: str | Path) -> bool:
    """Whether ``source`` (an import's recorded source) is the bundled file, wherever it was installed."""
    try:
        return Path(source).resolve() == bundled_card_file().resolve()
    except (OSError, ValueError):
        return False


def data_date_for(source: str, stated: str | None) -> str | None:
    """How current an import's data is: the date the data itself states, else the bundled file's date
    when the import was the bundled file (also for imports recorded before dates were kept)."""
    if stated:
        return stated
    return BUNDLED_DATA_DATE if is_bundled(source) or Path(source).name == bundled_card_file().name else None
