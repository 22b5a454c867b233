"""Where Podkeeper's bundled files live.

The project is installed editable (``pip install -e .``), so the repository's top-level ``assets/``
folder sits beside the ``bot`` package; ``PODKEEPER_ASSETS`` overrides it for unusual installs.
"""

from __future__ import annotations

import os
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parent.parent
ASSETS_DIR = Path(os.environ.get("PODKEEPER_ASSETS", REPO_ROOT / "assets"))
FONTS_DIR = ASSETS_DIR / "fonts"
BUNDLED_CARDS = ASSETS_DIR / "cards" / "cards.jsonl.gz"
FONT_REGULAR = FONTS_DIR / "NotoSansCJK-Regular.ttc"
FONT_BOLD = FONTS_DIR / "NotoSansCJK-Bold.ttc"
