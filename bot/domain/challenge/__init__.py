"""The Hero's Path challenge decks on one engine: Face the Hydra (:mod:`.hydra`, re-exported by
``bot.domain.hydra``), Battle the Horde (:mod:`.horde`) and Defeat a God (:mod:`.god`).

What the three decks really share lives in :mod:`.core` (questions to the players, the log, the
seed + action replay, the flow of the deck's turn as a generator), :mod:`.actions` (the one action
language), :mod:`.players` (the players' side: a life total each, or one shared), :mod:`.permanents`
(the one permanent type) and :mod:`.verbs` (the players' verbs, written once); the Horde and the God
also share :mod:`.creatures` (combat, a deck that reveals and casts). Each deck's own rules are in its
one module.
"""
