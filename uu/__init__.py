"""uu: an interactive tutor for the card game Unstable Unicorns, on a complete rules engine."""
