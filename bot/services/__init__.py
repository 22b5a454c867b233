"""Application services: what cogs (and the CLI) call.

A service loads state through a storage repository, applies a domain step, stores the result and
returns it; it never touches Discord objects. Cross-feature notifications use discord.py's own
event dispatch (``bot.dispatch("pod_game_finished", record)`` → ``on_pod_game_finished`` listeners),
so features stay decoupled.
"""
