"""Game-agnostic pieces every rules engine builds on (pure: no I/O, no asyncio)."""
