"""render layer of Podkeeper."""
