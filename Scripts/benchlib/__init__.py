"""Helpers for Scripts/bench: corpus generation, process measurement, peers, reporting."""
