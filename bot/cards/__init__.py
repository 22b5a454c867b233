"""cards layer of Podkeeper."""
