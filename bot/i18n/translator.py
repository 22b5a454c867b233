"""discord.py ``Translator`` that localises slash-command names, descriptions and choices.

discord.py asks the translator for every ``locale_str`` of every command for every Discord locale
when the tree is synced; we answer from the ``app.*`` keys of the catalogue and return ``None``
(no localisation) for locales we do not translate.
"""

from __future__ import annotations

from functools import cache

from discord import Locale, app_commands

from bot.i18n import DEFAULT_LANGUAGE, catalogue, language_for


@cache
def _translated_language(locale: Locale) -> str | None:
    """Our language for a Discord locale, None where we give no localisation (English, or untranslated).
    A sync asks for each of Discord's ~30 locales for every string (~15,000 times at start): asked once each."""
    language = language_for(locale)
    return None if language is None or language == DEFAULT_LANGUAGE else language


def app_key(text: str) -> str:
    return f"app.{text}"


class PodkeeperTranslator(app_commands.Translator):
    async def translate(
        self, string: app_commands.locale_str, locale: Locale, context: app_commands.TranslationContext
    ) -> str | None:
        language = _translated_language(locale)
        if language is None:
            return None
        for key in self._keys(string, context):
            entry = catalogue().get(key)
            if entry is not None:
                return entry.get(language)
        return None

    @staticmethod
    def _keys(string: app_commands.locale_str, context: app_commands.TranslationContext) -> list[str]:
        """Catalogue keys to try: an explicit ``key=`` extra, then (for choices) ``app.choice.<label>``,
        then ``app.<text>``. Choice labels are display text and may differ from a same-named option."""
        if "key" in string.extras:
            return [string.extras["key"]]
        keys = [app_key(string.message)]
        if context.location is app_commands.TranslationContextLocation.choice_name:
            keys.insert(0, app_key(f"choice.{string.message}"))
        return keys
