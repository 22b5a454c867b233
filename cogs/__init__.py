"""discord.py cogs: thin adapters from interactions to ``bot.services``.

Every module here that defines an async ``setup(bot)`` is loaded at start-up by ``bot.client``.
"""
