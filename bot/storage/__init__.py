"""storage layer of Podkeeper."""
