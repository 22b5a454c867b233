"""services layer of Podkeeper."""
