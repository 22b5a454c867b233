"""The container image, the compose file and the systemd unit, checked as far as a machine without a container
engine or systemd allows: every file is read as its tool reads it (YAML, the unit's INI form, the Dockerfile's
instructions) and what the bot needs of each is asserted, so a renamed file, a dropped health check, a secret
written into a file or a stop timeout shorter than the bot's own shutdown wait fails here."""

from __future__ import annotations

import configparser
import fnmatch
import re
import shlex
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest
import yaml

from bot.config import SETTINGS, load_config
from bot.storage.db import parse_database_url
from tests.packaging.wheels import install_wheel, installed_environment

ROOT = Path(__file__).resolve().parents[2]
SHUTDOWN_WAIT = next(s.default for s in SETTINGS if s.key == "shutdown_wait_seconds")


def dockerfile() -> list[tuple[str, str]]:
    """The Dockerfile's instructions as (INSTRUCTION, arguments), continuation lines joined, comments dropped."""
    text = re.sub(r"\\\n\s*", " ", (ROOT / "Dockerfile").read_text(encoding="utf-8"))
    lines = [line.strip() for line in text.splitlines() if line.strip() and not line.lstrip().startswith("#")]
    return [(line.split(None, 1)[0].upper(), line.split(None, 1)[1]) for line in lines]


def stages() -> list[list[tuple[str, str]]]:
    found: list[list[tuple[str, str]]] = []
    for instruction, arguments in dockerfile():
        if instruction == "FROM":
            found.append([])
        found[-1].append((instruction, arguments))
    return found


def ignored(path: str) -> bool:
    patterns = [
        p.strip() for p in (ROOT / ".dockerignore").read_text().splitlines() if p.strip() and p[0] != "#"
    ]
    return any(fnmatch.fnmatch(path, pattern) or path.split("/")[0] == pattern for pattern in patterns)


def test_the_image_builds_the_wheel_and_installs_only_the_wheel() -> None:
    build, runtime = stages()
    assert build[0] == ("FROM", "python:3.11-slim AS wheel") and runtime[0][1].startswith("python:3.11")
    copied = [
        word
        for instruction, arguments in build
        if instruction == "COPY"
        for word in shlex.split(arguments)[:-1]
    ]
    assert {"pyproject.toml", "setup.py", "bot", "cogs", "assets", "README.md", "LICENSE"} <= set(copied)
    assert [path for path in copied if not (ROOT / path).exists() or ignored(path)] == []
    assert any(
        "pip wheel" in arguments and "--no-deps" in arguments
        for instruction, arguments in build
        if instruction == "RUN"
    )
    runs = [arguments for instruction, arguments in runtime if instruction == "RUN"]
    assert any("pip install" in run and "/dist/podkeeper-*.whl" in run for run in runs)
    assert not any("-e ." in run or "pip install ." in run for run in runs)  # the wheel, never the source
    assert ("COPY", "--from=wheel /dist /dist") in runtime


def test_the_image_runs_the_bot_as_its_own_user_and_stops_it_with_sigterm() -> None:
    runtime = dict(stages()[1])
    assert runtime["USER"] == "podkeeper" and runtime["STOPSIGNAL"] == "SIGTERM"
    assert shlex.split(runtime["CMD"].strip("[]").replace(",", " ")) == ["podkeeper", "run", "--no-sandbox"]
    assert (
        "PODKEEPER_DATABASE_PATH=/data/podkeeper.sqlite3" in runtime["ENV"] and "/data" in runtime["VOLUME"]
    )
    assert "8737" in runtime["EXPOSE"]  # [web] port
    assert ignored(".venv") and ignored("tests") and ignored(".env") and not ignored("assets")
    # The caches (message catalogue, card index) go to a folder of the user's own home, which it may write.
    assert image_environment()["PODKEEPER_CACHE_DIR"].startswith("/home/podkeeper/")
    assert any(
        "useradd --create-home" in arguments and "podkeeper" in arguments
        for instruction, arguments in stages()[1]
        if instruction == "RUN"
    )


def test_the_image_runs_the_python_its_wheel_was_built_with() -> None:
    """The card index the wheel build ships is for the Python that built it (its name says which): the
    image's two stages must be the same Python version, or the container's first start reads the card data."""
    build, runtime = stages()
    version = re.compile(r"python:(\d+\.\d+)")
    built_with, runs_on = version.match(build[0][1]), version.match(runtime[0][1])
    assert built_with is not None and runs_on is not None and built_with[1] == runs_on[1]


def compose() -> dict:
    return yaml.safe_load((ROOT / "compose.yaml").read_text(encoding="utf-8"))


def test_compose_runs_the_bot_on_postgresql_once_the_database_is_healthy() -> None:
    services = compose()["services"]
    assert set(services) == {"db", "bot"}
    db, bot = services["db"], services["bot"]
    assert db["image"] == "postgres:15" and "pg_isready" in " ".join(db["healthcheck"]["test"])
    assert bot["depends_on"] == {"db": {"condition": "service_healthy"}} and bot["build"] == "."
    assert (ROOT / "Dockerfile").is_file()
    url = bot["environment"]["PODKEEPER_DATABASE_URL"]
    env = db["environment"]
    assert url == f"postgresql://{env['POSTGRES_USER']}:${{POSTGRES_PASSWORD}}@db:5432/{env['POSTGRES_DB']}"
    assert parse_database_url(url.replace("${POSTGRES_PASSWORD}", "secret"))[0] == "postgresql"
    assert any(volume.endswith(":/var/lib/postgresql/data") for volume in db["volumes"])
    assert {service["restart"] for service in services.values()} == {"unless-stopped"}


def test_compose_writes_no_secret_and_outlasts_the_bots_shutdown_wait() -> None:
    services = compose()["services"]
    assert services["bot"]["environment"]["DISCORD_TOKEN"].startswith("${DISCORD_TOKEN:?")
    assert services["db"]["environment"]["POSTGRES_PASSWORD"].startswith("${POSTGRES_PASSWORD:?")
    assert int(services["bot"]["stop_grace_period"].rstrip("s")) > SHUTDOWN_WAIT


def test_the_systemd_unit_runs_the_installed_bot_and_stops_it_gracefully() -> None:
    unit = configparser.ConfigParser(strict=False, interpolation=None)
    unit.optionxform = str  # type: ignore[assignment,method-assign]  # systemd keys are case-sensitive
    unit.read(ROOT / "deploy" / "podkeeper.service", encoding="utf-8")
    service = unit["Service"]
    assert service["ExecStart"] == "/opt/podkeeper/venv/bin/podkeeper run --no-sandbox"
    assert service["User"] == "podkeeper" and service["Restart"] == "on-failure"
    assert service["KillSignal"] == "SIGTERM" and int(service["TimeoutStopSec"]) > SHUTDOWN_WAIT
    assert service["EnvironmentFile"] == "/etc/podkeeper/env" and "TOKEN" not in "".join(service.values())
    assert unit["Install"]["WantedBy"] == "multi-user.target"


# What the bot reads from its environment besides its settings (PODKEEPER_<SECTION>_<KEY>), and what the
# interpreter and the PostgreSQL image read.
READ_OUTSIDE_THE_SETTINGS = {"DISCORD_TOKEN", "PODKEEPER_CONFIG", "PODKEEPER_CACHE_DIR", "PODKEEPER_ASSETS"}
NOT_THE_BOTS = {"PYTHONUNBUFFERED"}


def unit_environment() -> dict[str, str]:
    """The ``Environment=`` lines of the systemd unit (the rest comes from its EnvironmentFile)."""
    text = (ROOT / "deploy" / "podkeeper.service").read_text(encoding="utf-8")
    pairs = (line.split("=", 1)[1] for line in text.splitlines() if line.startswith("Environment="))
    return dict(pair.split("=", 1) for pair in pairs)


def image_environment() -> dict[str, str]:
    return dict(pair.split("=", 1) for pair in shlex.split(dict(stages()[1])["ENV"]))


@pytest.mark.parametrize("where", ["compose.yaml", "Dockerfile", "podkeeper.service"])
def test_every_variable_the_deploy_files_set_is_one_the_bot_reads(where: str) -> None:
    """A misspelt name (PODKEEPER_DATABASE_URI) would be ignored without a word, and the bot would start
    on a fresh SQLite file inside the container instead of the PostgreSQL database."""
    environment = {
        "compose.yaml": lambda: compose()["services"]["bot"]["environment"],
        "Dockerfile": image_environment,
        "podkeeper.service": unit_environment,
    }[where]()
    known = {setting.env_name for setting in SETTINGS} | READ_OUTSIDE_THE_SETTINGS | NOT_THE_BOTS
    assert environment and sorted(set(environment) - known) == []


def test_the_compose_bots_environment_configures_postgresql_and_the_token() -> None:
    """The bot service's environment as Compose hands it over (``${...}`` filled in from the operator's
    shell or .env), read by the bot's own configuration loader, together with what the image sets."""
    filled = {"POSTGRES_PASSWORD": "long-random", "DISCORD_TOKEN": "the-token"}

    def substituted(value: str) -> str:
        return re.sub(r"\$\{(\w+)(?::\?[^}]*)?\}", lambda match: filled[match.group(1)], value)

    environment = {
        name: substituted(value) for name, value in compose()["services"]["bot"]["environment"].items()
    }
    config = load_config(environ={**image_environment(), **environment})
    assert config.token == "the-token" and not config.database_is_default
    assert parse_database_url(config.get("database", "url"))[0] == "postgresql"
    assert config.get("database", "url") == "postgresql://podkeeper:long-random@db:5432/podkeeper"


def test_the_systemd_unit_passes_systemd_analyze_verify(tmp_path: Path) -> None:
    """systemd's own check of the unit (every directive and value understood, the command executable), with
    ExecStart pointed at this virtualenv's ``podkeeper`` entry point: the one the wheel's
    ``[project.scripts]`` installs into /opt/podkeeper/venv/bin on a server."""
    analyze = shutil.which("systemd-analyze")
    if analyze is None:
        pytest.skip("systemd-analyze is not installed here; the unit is checked by parsing only")
    scripts = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]["scripts"]
    unit = (ROOT / "deploy" / "podkeeper.service").read_text(encoding="utf-8")
    installed = "/opt/podkeeper/venv/bin/podkeeper"
    assert f"ExecStart={installed} " in unit and scripts == {"podkeeper": "bot.cli:main"}
    entry_point = Path(sys.executable).parent / "podkeeper"
    assert entry_point.is_file()
    here = tmp_path / "podkeeper.service"
    here.write_text(unit.replace(f"ExecStart={installed} ", f"ExecStart={entry_point} "), encoding="utf-8")
    verified = subprocess.run([analyze, "verify", str(here)], capture_output=True, text=True, check=False)
    assert (verified.returncode, verified.stdout + verified.stderr) == (0, "")


@pytest.mark.slow
def test_the_images_build_steps_run_here(tmp_path: Path) -> None:
    """The image's steps, run as far as this machine allows without a container engine: its build context
    holds only what the first stage copies (so a file the build needs but the Dockerfile forgets fails here),
    the first stage's wheel command builds the wheel there, the second stage's install step installs it (into
    a folder of its own), and the installed bot runs from another folder as the image's command would."""
    build, runtime = stages()
    context = tmp_path / "context"
    context.mkdir()
    for instruction, arguments in build:
        if instruction == "COPY":
            *sources, _target = shlex.split(arguments)
            for source in sources:
                copy = shutil.copytree if (ROOT / source).is_dir() else shutil.copy
                copy(
                    ROOT / source,
                    context / source,
                    **({"ignore": IGNORE_IN_CONTEXT} if copy is shutil.copytree else {}),
                )
    (wheel_step,) = [arguments for instruction, arguments in build if instruction == "RUN"]
    wheel_command = shlex.split(wheel_step.replace("/dist", str(tmp_path / "dist")))
    assert wheel_command[:3] == ["python", "-m", "pip"]
    # --no-build-isolation: the test extra has setuptools; the image's own build fetches it from the index.
    subprocess.run(
        [sys.executable, *wheel_command[1:], "--no-build-isolation", "--quiet"],
        cwd=context,
        check=True,
        capture_output=True,
    )
    (install_step,) = [
        arguments for instruction, arguments in runtime if instruction == "RUN" and "install" in arguments
    ]
    (wheel,) = (tmp_path / "dist").glob("podkeeper-*.whl")
    assert "/dist/podkeeper-*.whl" in install_step
    site = install_wheel(wheel, tmp_path / "site")
    image = dict(runtime)["ENV"]
    assert "PODKEEPER_DATABASE_PATH=/data/podkeeper.sqlite3" in image and "PODKEEPER_CACHE_DIR=" in image
    env = installed_environment(
        site,
        PODKEEPER_DATABASE_PATH=str(tmp_path / "data" / "podkeeper.sqlite3"),
        PODKEEPER_CACHE_DIR=str(tmp_path / "cache"),
    )
    (tmp_path / "data").mkdir()
    done = subprocess.run(
        [sys.executable, "-m", "bot", "--version"],
        cwd=tmp_path / "data",
        env=env,
        check=True,
        capture_output=True,
        text=True,
    )
    assert done.stdout.startswith("podkeeper ")
    fonts = subprocess.run(
        [sys.executable, "-c", "import bot.paths as p; print(p.FONT_REGULAR)"],
        cwd=tmp_path,
        env=env,
        check=True,
        capture_output=True,
        text=True,
    ).stdout.strip()
    assert fonts.startswith(str(site / "bot" / "assets")) and Path(fonts).is_file()
    # The container's first start on its empty /data: the card index the image's wheel build made is read,
    # not the card data.
    looked_up = subprocess.run(
        [sys.executable, "-m", "bot", "cards", "lookup", "Lightning Bolt"],
        cwd=tmp_path / "data",
        env=env,
        check=True,
        capture_output=True,
        text=True,
    )
    assert "ja: 稲妻" in looked_up.stdout
    assert (
        f"using the card index shipped with the package from the same file ({site}/bot/assets/cards/prebuilt/"
        in looked_up.stderr
    )
    assert "reading cards.jsonl.gz" not in looked_up.stderr


IGNORE_IN_CONTEXT = shutil.ignore_patterns("__pycache__", "*.pyc")
