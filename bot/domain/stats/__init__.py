"""Statistics of recorded pod games: what one finished game leaves for the statistics (``summary``) and
the figures read from many of them (``figures``). Plain Python: no Discord, no SQL."""
