"""testing layer of Podkeeper."""
