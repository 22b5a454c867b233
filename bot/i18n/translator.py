"""discord.py ``Translator`` that localises slash-command names, descriptions and choices.

discord.py asks the translator for every ``locale_str`` of every command for every Discord locale
when the tree is synced; we answer from the ``app.*`` keys of the catalogue and return ``None``
(no localisation) for locales we do not translate.
"""

from __future__ import annotations

from discord import Locale, app_commands

from bot.i18n import DEFAULT_LANGUAGE, catalogue, language_for


def app_key(text: str) -> str:
    return f"app.{text}"


class PodkeeperTranslator(app_commands.Translator):
    async def translate(
        self, string: app_commands.locale_str, locale: Locale, context: app_commands.TranslationContext
    ) -> str | None:
        language = language_for(locale)
        if language is None or language == DEFAULT_LANGUAGE:
            return None
        key = string.extras.get("key") or app_key(string.message)
        entry = catalogue().get(key)
        if entry is None:
            return None
        return entry.get(language)
