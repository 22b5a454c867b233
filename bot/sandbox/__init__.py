"""The local sandbox: the real bot against the Discord stand-in, driven from a terminal."""
