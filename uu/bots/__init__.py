"""Players that are not people: bots choose among the legal actions of the pending decision."""

from uu.bots.random_bot import RandomBot

__all__ = ["RandomBot"]
