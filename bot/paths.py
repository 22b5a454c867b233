"""Where Podkeeper's bundled files and its default database live.

The repository keeps the bundled files (card data, fonts) in a top-level ``assets/`` folder beside the
``bot`` package. A wheel cannot carry a top-level data folder without polluting ``site-packages``, so
the build maps ``assets/`` into the package as ``bot/assets`` (``setup.py``). Both are found through
``importlib.resources``: the installed package's own ``assets`` when it has one, else the checkout's
folder beside the package (an editable install or a plain clone). ``PODKEEPER_ASSETS`` overrides both
(the mutation tests run on a scratch copy of ``bot/`` with no ``assets/`` beside it).

The default database follows the same split: a checkout keeps ``data/podkeeper.sqlite3`` under the
folder it is run from, as its set-up commands always did; an installed bot has no such folder of its
own and keeps its data in the user's data folder (``platformdirs``: ``~/.local/share/podkeeper`` on
Linux), which it names when it starts (:func:`default_database_note`).
"""

from __future__ import annotations

import os
from importlib import resources
from pathlib import Path

import platformdirs

PACKAGE_DIR = Path(str(resources.files("bot")))
REPO_ROOT = PACKAGE_DIR.parent
# A checkout is a folder with the project file and the assets beside the package; an installed package
# sits in site-packages, where neither is.
IN_CHECKOUT = (REPO_ROOT / "pyproject.toml").is_file() and (REPO_ROOT / "assets").is_dir()
CHECKOUT_DATABASE = Path("data") / "podkeeper.sqlite3"


def _assets_dir() -> Path:
    """The bundled files: ``PODKEEPER_ASSETS``, else the package's own (a wheel), else the checkout's."""
    override = os.environ.get("PODKEEPER_ASSETS")
    if override:
        return Path(override)
    packaged = PACKAGE_DIR / "assets"
    if packaged.is_dir():
        return packaged
    return REPO_ROOT / "assets"


ASSETS_DIR = _assets_dir()
FONTS_DIR = ASSETS_DIR / "fonts"
BUNDLED_CARDS = ASSETS_DIR / "cards" / "cards.jsonl.gz"
FONT_REGULAR = FONTS_DIR / "NotoSansCJK-Regular.ttc"
FONT_BOLD = FONTS_DIR / "NotoSansCJK-Bold.ttc"


def user_data_dir() -> Path:
    """The user's data folder for Podkeeper (``$XDG_DATA_HOME/podkeeper``, else ``~/.local/share/podkeeper``
    on Linux; the platform's own place elsewhere)."""
    return platformdirs.user_data_path("podkeeper", appauthor=False)


def default_database_path(in_checkout: bool = IN_CHECKOUT) -> Path:
    """The SQLite file used when neither ``[database] path`` nor ``url`` is configured."""
    return CHECKOUT_DATABASE if in_checkout else user_data_dir() / "podkeeper.sqlite3"


def default_database_note(path: Path) -> str:
    """Says where an installed bot keeps its data when none was configured, and how to choose."""
    return (
        f"no database configured: keeping the data in {path.resolve()} "
        f"(set [database] path or url, or PODKEEPER_DATABASE_PATH, to choose)"
    )
