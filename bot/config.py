"""Configuration: defaults < config.toml < environment.

Every setting is declared once in ``SETTINGS`` (section, key, type, default, help). The same table
drives validation, environment names (``PODKEEPER_<SECTION>_<KEY>``) and ``config.example.toml``, so
the three can never drift apart.
"""

from __future__ import annotations

import os
import re
import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from bot.paths import default_database_path
from bot.shards import ShardSpecError, parse_shard_ids, validate_shards

RULESETS = ("commander", "edh-2010", "duel-zh")
LOCALES = ("en", "ja", "zh-Hans", "zh-Hant")
LOG_LEVELS = ("DEBUG", "INFO", "WARNING", "ERROR")


class ConfigError(Exception):
    """A configuration problem, phrased for the person who has to fix it."""


@dataclass(frozen=True)
class Setting:
    section: str
    key: str
    type: type
    default: Any
    help: str
    choices: tuple[str, ...] = ()
    secret: bool = False
    minimum: int | None = None

    @property
    def env_name(self) -> str:
        return f"PODKEEPER_{self.section}_{self.key}".upper()


SETTINGS: tuple[Setting, ...] = (
    Setting(
        "discord",
        "token",
        str,
        "",
        "Bot token from the Discord developer portal. Prefer the DISCORD_TOKEN "
        "environment variable; never commit it.",
        secret=True,
    ),
    Setting(
        "discord",
        "dev_guild_id",
        int,
        0,
        "A server (guild) id for instant slash-command sync while developing; "
        "0 syncs globally (can take up to an hour to show).",
    ),
    Setting(
        "discord",
        "shard_count",
        int,
        0,
        "How many gateway shards the bot has in total (Discord needs one per "
        "~2,500 servers); 0 = no sharding, one plain connection. Same as `podkeeper run --shard-count`.",
        minimum=0,
    ),
    Setting(
        "discord",
        "shard_ids",
        str,
        "",
        "Which of those shards this process runs, as ids and ranges like "
        '"0-3,6"; empty = all of them. Same as `podkeeper run --shard-ids`. Several processes on one '
        "database need PostgreSQL ([database] url): with SQLite run every shard in one process.",
    ),
    Setting(
        "discord",
        "shutdown_wait_seconds",
        int,
        10,
        "On SIGTERM/SIGINT the bot stops taking interactions "
        '(each gets a short "restarting" answer) and waits at most this many seconds for the ones being '
        "handled to store their change and answer before it closes the database; 0 = do not wait.",
        minimum=0,
    ),
    Setting(
        "database",
        "path",
        str,
        str(default_database_path()),
        "The SQLite database file (created on first "
        "start). Default: data/podkeeper.sqlite3 under the folder the bot runs in, in a checkout; for an "
        "installed bot, podkeeper.sqlite3 in the user's data folder (~/.local/share/podkeeper on Linux).",
    ),
    Setting(
        "database",
        "url",
        str,
        "",
        "Where the database is, as a URL: empty = the SQLite file of `path` (the "
        'default, no server needed); "sqlite:///relative/file.sqlite3" or "sqlite:////absolute/file.sqlite3"; '
        'or "postgresql://user:password@host:5432/dbname" to share one PostgreSQL database between several bot '
        "processes. Move existing data with `podkeeper db copy`.",
    ),
    Setting(
        "database",
        "pool_size",
        int,
        10,
        "PostgreSQL: connections each bot process keeps at most (reads run "
        "side by side; a write holds one until it commits). Every process of a deployment opens up to this "
        "many: keep processes x pool_size below the server's max_connections (100 by default).",
    ),
    Setting(
        "database",
        "statement_timeout_seconds",
        int,
        30,
        "PostgreSQL: a statement running longer than this is "
        "cancelled (the change is refused, nothing is stored) instead of holding its game's write lock "
        "indefinitely; 0 = no limit.",
    ),
    Setting(
        "cards",
        "path",
        str,
        "",
        "Card data to import when the card tables are empty; empty = the bundled data set in assets/cards/.",
    ),
    Setting(
        "cards",
        "scryfall_bulk_url",
        str,
        "https://api.scryfall.com/bulk-data",
        "Where `podkeeper cards sync` asks for the newest Scryfall bulk file.",
    ),
    Setting(
        "cards",
        "mtgjson_url",
        str,
        "https://mtgjson.com/api/v5/AtomicCards.json.gz",
        "Where `podkeeper cards sync` downloads MTGJSON AtomicCards for printed names in other languages.",
    ),
    Setting(
        "cards",
        "auto_sync",
        bool,
        True,
        "Let the running bot sync card data by itself (like `podkeeper cards "
        "sync`, in the background, validated before the swap); false turns it off.",
    ),
    Setting(
        "cards",
        "sync_interval_days",
        int,
        7,
        "Days between automatic card syncs (at least 1: never more than "
        "once a day). A failed sync is retried sooner, backing off up to a day.",
        minimum=1,
    ),
    Setting(
        "decks",
        "archidekt_api_url",
        str,
        "https://archidekt.com/api/decks/",
        "Archidekt's public deck API, for `/deck check url:` links (the deck id is appended).",
    ),
    Setting(
        "decks",
        "moxfield_api_url",
        str,
        "https://api2.moxfield.com/v3/decks/all/",
        "Moxfield's public deck API, for `/deck check url:` links (the deck's public id is appended).",
    ),
    Setting(
        "defaults", "ruleset", str, "commander", "Ruleset for servers that have not chosen one.", RULESETS
    ),
    Setting(
        "defaults", "locale", str, "en", "Language when neither the user nor the server gives one.", LOCALES
    ),
    Setting("logging", "level", str, "INFO", "Log level.", LOG_LEVELS),
    Setting(
        "web",
        "enabled",
        bool,
        False,
        "Serve the live pages (standings, Hydra leaderboards, stream overlays) from the bot process.",
    ),
    Setting(
        "web",
        "host",
        str,
        "127.0.0.1",
        "Address the page server listens on; 127.0.0.1 keeps it local "
        "(put a reverse proxy with HTTPS in front to publish it).",
    ),
    Setting("web", "port", int, 8737, "Port the page server listens on."),
    Setting(
        "web",
        "public_url",
        str,
        "",
        "The address people open, as the links show it (e.g. "
        "https://pages.example.org); empty = http://<host>:<port>.",
    ),
    Setting(
        "web",
        "max_connections",
        int,
        2000,
        "Open connections the page server accepts in all (beyond them a "
        'small "try again" page); never more than the open-file limit minus a reserve for Discord and the '
        "database.",
        minimum=1,
    ),
    Setting(
        "web",
        "max_viewers_per_link",
        int,
        300,
        'Live viewers (event streams) one page link may have at once; more get a small "try again" page.',
        minimum=1,
    ),
    Setting(
        "web",
        "header_timeout_seconds",
        int,
        10,
        "Seconds a connection may take to send its request (and "
        "may stay idle between two requests) before it is closed.",
        minimum=1,
    ),
    Setting(
        "privacy",
        "retention_days",
        int,
        30,
        "Days a server's data (games, decks, events, tournaments, "
        "settings) is kept after the bot leaves it; then it is deleted. `podkeeper db purge-guild ID` "
        "deletes it at once.",
    ),
)


@dataclass(frozen=True)
class Config:
    values: dict[tuple[str, str], Any] = field(default_factory=dict)
    source: str = "defaults"

    def get(self, section: str, key: str) -> Any:
        return self.values[(section, key)]

    @property
    def token(self) -> str:
        return self.get("discord", "token")

    @property
    def dev_guild_id(self) -> int:
        return self.get("discord", "dev_guild_id")

    @property
    def shard_count(self) -> int:
        return self.get("discord", "shard_count")

    @property
    def shard_ids(self) -> tuple[int, ...]:
        """The shards this process runs; ``()`` = all of ``shard_count`` (or no sharding when that is 0)."""
        return parse_shard_ids(self.get("discord", "shard_ids"))

    @property
    def database_path(self) -> Path:
        return Path(self.get("database", "path"))

    @property
    def database_is_default(self) -> bool:
        """No database was configured: the default SQLite file of :func:`bot.paths.default_database_path`."""
        return not self.get("database", "url") and self.database_path == default_database_path()

    @property
    def database_url(self) -> str:
        """What ``Database.open`` takes: ``[database] url`` when set, else the SQLite file ``path``."""
        return self.get("database", "url") or str(self.database_path)

    @property
    def press_journal_path(self) -> Path:
        """The write-ahead record of board presses (bot/storage/press_journal.py): next to the database
        file, one per process (a process running some shards names them)."""
        shards = "".join(f"-{shard}" for shard in self.shard_ids)
        return self.database_path.with_name(f"presses{shards}.journal")

    @property
    def interaction_journal_path(self) -> Path:
        """The shared journal of presses acknowledged before their change is stored (cogs/_acknowledged.py),
        beside the board presses' one, also one per process."""
        shards = "".join(f"-{shard}" for shard in self.shard_ids)
        return self.database_path.with_name(f"interactions{shards}.journal")

    @property
    def pool_size(self) -> int:
        return self.get("database", "pool_size")

    @property
    def statement_timeout(self) -> int:
        return self.get("database", "statement_timeout_seconds")

    @property
    def cards_path(self) -> str:
        return self.get("cards", "path")

    @property
    def auto_sync(self) -> bool:
        return self.get("cards", "auto_sync")

    @property
    def sync_interval_days(self) -> int:
        return self.get("cards", "sync_interval_days")

    @property
    def default_ruleset(self) -> str:
        return self.get("defaults", "ruleset")

    @property
    def default_locale(self) -> str:
        return self.get("defaults", "locale")

    @property
    def retention_days(self) -> int:
        return self.get("privacy", "retention_days")

    @property
    def log_level(self) -> str:
        return self.get("logging", "level")

    @property
    def web_enabled(self) -> bool:
        return self.get("web", "enabled")

    @property
    def web_public_url(self) -> str:
        """Where the links point: ``[web] public_url``, else the address the server listens on."""
        url = self.get("web", "public_url").rstrip("/")
        return url or f"http://{self.get('web', 'host')}:{self.get('web', 'port')}"

    def with_values(self, **overrides: Any) -> Config:
        """A copy with ``section__key=value`` overrides (used by tests and the sandbox)."""
        values = dict(self.values)
        for name, value in overrides.items():
            section, key = name.split("__", 1)
            values[(section, key)] = value
        return Config(values, self.source)


_BY_NAME = {(s.section, s.key): s for s in SETTINGS}


MAX_INT_SETTING = 2**63 - 1  # a Discord id (snowflake) is the largest whole number a setting holds


def _coerce(setting: Setting, raw: Any, origin: str) -> Any:
    where = f"[{setting.section}] {setting.key} in {origin}"
    if setting.type is bool:
        value: Any = _boolean(raw)
        if value is None:
            raise ConfigError(f"{where}: expected true or false, got {raw!r}")
    elif setting.type is int:
        # A float is refused, not truncated: 1.9 would silently become 1, 1e30 a number nobody meant,
        # and inf has no whole value at all.
        if isinstance(raw, bool | float):
            raise ConfigError(f"{where}: expected a whole number, got {raw!r}")
        try:
            value = int(raw)
        except (TypeError, ValueError, OverflowError):
            raise ConfigError(f"{where}: expected a whole number, got {_shown(raw)}") from None
        if not 0 <= value <= MAX_INT_SETTING:
            raise ConfigError(f"{where}: {_shown(value)} is out of range (0 to {MAX_INT_SETTING})")
    elif setting.type is str:
        if not isinstance(raw, str):
            raise ConfigError(f"{where}: expected text, got {type(raw).__name__} {raw!r}")
        value = raw
    else:  # pragma: no cover - SETTINGS only uses bool, int and str
        value = raw
    if setting.minimum is not None and value < setting.minimum:
        raise ConfigError(f"{where}: {value} is below the minimum of {setting.minimum}")
    if setting.choices and value not in setting.choices:
        raise ConfigError(f"{where}: {value!r} is not one of {', '.join(setting.choices)}")
    return value


def _shown(value: Any) -> str:
    """A value for an error message, cut short (a setting of thousands of digits stays readable)."""
    text = repr(value)
    return text if len(text) <= 60 else f"{text[:40]}… ({len(text)} characters)"


def _boolean(raw: Any) -> bool | None:
    """A TOML boolean, or the words an environment variable uses for one."""
    if isinstance(raw, bool):
        return raw
    if isinstance(raw, str):
        return {
            "true": True,
            "1": True,
            "yes": True,
            "on": True,
            "false": False,
            "0": False,
            "no": False,
            "off": False,
        }.get(raw.strip().lower())
    return None


def _toml_error_line(text: str, error: tomllib.TOMLDecodeError) -> str:
    lineno = getattr(error, "lineno", None)  # Python 3.14+; older versions only say it in the message
    if lineno is None:
        match = re.search(r"at line (\d+)", str(error))
        if not match:
            return ""
        lineno = int(match.group(1))
    lines = text.splitlines()
    line = lines[lineno - 1] if 0 < lineno <= len(lines) else ""
    key = line.split("=", 1)[0].strip() if "=" in line else line.strip()
    return f" (line {lineno}, near {key!r})" if key else f" (line {lineno})"


def _read_file(path: Path) -> dict[tuple[str, str], Any]:
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise ConfigError(f"cannot read config file {path}: {exc.strerror}") from None
    except UnicodeDecodeError as exc:
        raise ConfigError(f"{path} is not UTF-8 text (byte {exc.start}); save it as UTF-8") from None
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(f"{path}: TOML syntax error: {exc}{_toml_error_line(text, exc)}") from None
    except RecursionError:
        raise ConfigError(f"{path}: nested too deeply to be a Podkeeper config") from None
    values: dict[tuple[str, str], Any] = {}
    for section, table in data.items():
        if not isinstance(table, dict):
            raise ConfigError(
                f"{path}: unknown top-level key {section!r}; settings live in sections "
                f"like [discord] or [database]"
            )
        for key, raw in table.items():
            setting = _BY_NAME.get((section, key))
            if setting is None:
                known = ", ".join(k for s, k in _BY_NAME if s == section) or "none"
                raise ConfigError(f"{path}: unknown key [{section}] {key} (known in [{section}]: {known})")
            values[(section, key)] = _coerce(setting, raw, str(path))
    return values


def load_config(path: str | Path | None = None, environ: dict[str, str] | None = None) -> Config:
    """Load settings: defaults, then ``path`` (or ./config.toml when present), then the environment.

    An explicitly given path must exist; the implicit ./config.toml is optional.
    """
    env = os.environ if environ is None else environ
    values = {(s.section, s.key): s.default for s in SETTINGS}
    sources = ["defaults"]
    explicit = path is not None or "PODKEEPER_CONFIG" in env
    config_path = Path(path or env.get("PODKEEPER_CONFIG", "config.toml"))
    if config_path.exists() or explicit:
        values.update(_read_file(config_path))
        sources.append(str(config_path))
    for setting in SETTINGS:
        raw = env.get(setting.env_name)
        if raw is None and (setting.section, setting.key) == ("discord", "token"):
            raw = env.get("DISCORD_TOKEN")
        if raw is not None:
            values[(setting.section, setting.key)] = _coerce(setting, raw, "the environment")
            sources.append("environment")
    config = Config(values, " < ".join(dict.fromkeys(sources)))
    check_shards(config)
    return config


def check_shards(config: Config) -> None:
    """The shard settings must agree with each other (ids within the count), whichever source gave them."""
    try:
        validate_shards(config.shard_count, config.shard_ids)
    except ShardSpecError as exc:
        raise ConfigError(f"[discord] shard_count / shard_ids ({config.source}): {exc}") from None


def example_toml() -> str:
    """The documented example config, generated from ``SETTINGS``."""
    out = [
        "# Podkeeper configuration. Copy to config.toml (untracked) and edit.",
        "# Every setting can also come from the environment as PODKEEPER_<SECTION>_<KEY>;",
        "# the token also as DISCORD_TOKEN. Load order: defaults < this file < environment.",
        "",
    ]
    section = None
    for s in SETTINGS:
        if s.section != section:
            section = s.section
            out += ["", f"[{section}]"] if out[-1] else [f"[{section}]"]
        out.append(f"# {s.help}")
        if s.choices:
            out.append(f"# One of: {', '.join(s.choices)}.")
        out.append(f"# Environment: {s.env_name}")
        value = (
            f'"{s.default}"'
            if s.type is str
            else str(s.default).lower()
            if s.type is bool
            else str(s.default)
        )
        out.append(f"{'# ' if s.secret else ''}{s.key} = {value}")
    return "\n".join(out) + "\n"
