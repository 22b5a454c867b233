"""The Hero's Path challenge decks on one engine: Face the Hydra (``bot.domain.hydra``), Battle the
Horde (:mod:`.horde`) and Defeat a God (:mod:`.god`).

What the three decks really share lives in :mod:`.core` (questions to the players, the log, the
seed + action replay, the flow of the deck's turn as a generator); the Horde and the God also share
:mod:`.creatures` (numbered permanents that fight). Each deck's own rules are in its one module.
"""
