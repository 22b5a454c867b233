"""domain layer of Podkeeper."""
