"""Podkeeper: a Discord bot for Magic: The Gathering Commander playgroups.

The package is layered (see README "Code layout"): ``bot.domain`` holds the rules as plain Python,
``bot.storage`` is the only place with SQL, ``bot.services`` glues them for the cogs, and
``cogs`` (a sibling package) turns Discord interactions into service calls.
"""

__version__ = "0.1.0"
