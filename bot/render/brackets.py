"""How a bracket report reads: "Bracket: at least N (name)", one line per finding with its rule and its
cards, and which Game Changers list was used; for the deck check (Discord and CLI) and the pod board."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from bot.domain.rules.brackets import BracketReport, Finding
from bot.i18n import t
from bot.i18n.glossary import join_list

NameFor = Callable[[str], str]


def _same(name: str) -> str:
    return name


def bracket_name(level: int, language: str) -> str:
    return t(f"brackets.name.{level}", language)


def bracket_level(level: int, language: str) -> str:
    """ "Bracket 3 (Upgraded)" in ``language``."""
    return t("brackets.level", language, level=level, name=bracket_name(level, language))


def bracket_headline(report: BracketReport, language: str) -> str:
    return t("brackets.at_least", language, level=report.minimum, name=bracket_name(report.minimum, language))


def finding_message(finding: Finding, language: str, name_for: NameFor = _same) -> str:
    values: dict[str, Any] = dict(finding.values)
    names = [name_for(card) for card in finding.cards]
    values["cards"] = " + ".join(names) if finding.rule == "BR5" else join_list(names, language)
    values["minimum"] = finding.minimum
    if "result" in values:
        values["result"] = t(f"brackets.result.{values['result']}", language)
    return t(f"brackets.finding.{finding.key}", language, **values)


def source_message(report: BracketReport, language: str) -> str:
    source = report.game_changers_from
    if source.scryfall:
        if source.date is None:
            return t("brackets.source.scryfall_undated", language)
        return t("brackets.source.scryfall", language, date=source.date)
    return t("brackets.source.bundled", language, date=source.date)


def bracket_lines(report: BracketReport, language: str, name_for: NameFor = _same) -> list[str]:
    """Every finding as ``[rule] reason`` (or that nothing was found), then the list used."""
    lines = [
        f"[{finding.rule}] {finding_message(finding, language, name_for)}" for finding in report.findings
    ]
    return (lines or [t("brackets.nothing_found", language)]) + [source_message(report, language)]


def bracket_json(report: BracketReport, language: str) -> dict[str, Any]:
    """The ``bracket`` part of ``podkeeper deck check --json``."""
    source = report.game_changers_from
    return {
        "minimum": report.minimum,
        "findings": [
            {
                "rule": f.rule,
                "minimum": f.minimum,
                "cards": list(f.cards),
                "message": finding_message(f, language),
            }
            for f in report.findings
        ],
        "game_changers": {"source": "scryfall" if source.scryfall else "bundled", "date": source.date},
    }
