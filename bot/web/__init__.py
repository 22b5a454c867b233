"""Live web pages (standings, Hydra leaderboards, a stream overlay), served by the bot when ``[web] enabled``."""
