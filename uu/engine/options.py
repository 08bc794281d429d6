"""Engine options: every place where the sources disagree or are silent is a named option with a default.

Validated with pydantic at the boundary (scenario files, `new_game`), then read as plain attributes.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator

from uu.i18n import _

# the largest seed: 64 bits, 20 digits. A seed of thousands of digits (a position link, a pasted file) was
# taken, and then the first time it was written out Python refused it ("Exceeds the limit (4300 digits)")
MAX_SEED = 2**64 - 1


class Options(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    targeting: Literal["declare-first", "neigh-first"] = Field(
        "declare-first",
        description="option.targeting: declare-first = Option 1 (targets are part of playing a Magic, "
        "Upgrade or Downgrade card); neigh-first = Option 2 (targets chosen when the card resolves).",
    )
    deck_out: Literal["end", "reshuffle"] = Field(
        "end",
        description="option.deck-out: end = the game ends at the first game-status check that finds the "
        "deck empty (most Unicorns, then letters); reshuffle = a DRAW from an empty deck first shuffles "
        "the discard pile into a new deck.",
    )
    baby_moves: Literal["allowed", "nursery-only"] = Field(
        "allowed",
        description="option.baby-moves: allowed = Babies may be stolen or moved between Stables (2nd "
        "edition); nursery-only = a Baby only enters a Stable from the Nursery (older wording).",
    )
    return_is_leaving: bool = Field(
        False,
        description="Whether returning a Unicorn to a hand counts as 'leaving your Stable' (the 2nd-edition "
        "rulebook lists sacrifice, destroy and steal only; the wiki adds return).",
    )
    pandas: Literal["unicorn-effects", "all-effects"] = Field(
        "unicorn-effects",
        description="option.pandas: unicorn-effects = Pandamonium's Pandas are safe only from effects that "
        "name Unicorn cards; all-effects = no effect, whoever controls it, may SACRIFICE, DESTROY, STEAL, move or "
        "return them (nor pick them for a replacement effect).",
    )
    open_hand_pull: Literal["choose", "random"] = Field(
        "choose",
        description="option.open-hand-pull: choose = pulling from a hand kept face up (Nanny Cam) lets the "
        "puller take the card they want (the wiki's terminology pages); random = every pull is random, even "
        "from a face-up hand (the Control & Chaos page: a pulled card is picked at random).",
    )
    neigh_ask: Literal["holders", "everyone"] = Field(
        "holders",
        description="option.neigh-ask: holders = at a Neigh moment only players who hold an Instant they may "
        "play are asked (the others pass without a word); everyone = every player who may answer the top card "
        "is asked, with only 'pass' when they hold no Instant, so that being asked tells nobody what is in a "
        "hand (a table of several people).",
    )
    seed: int = Field(0, ge=0, le=MAX_SEED,
                      description="Seed of the game's random number generator (kept in the state).")
    hand_limit: int = Field(7, ge=0, description="Hand limit at End of Turn (end.hand-limit).")
    win_threshold: int | None = Field(
        None, ge=1, description="Unicorns needed to win; default 7 with 2–5 players, 6 with 6–8 (win.threshold)."
    )

    @field_validator("seed", mode="before")
    @classmethod
    def _seed_in_range(cls, value: Any) -> Any:
        """Said before pydantic reads the number: a seed too large for its bounds is one sentence, whatever its
        form (a number, a text of digits), never Python's limit on converting long numbers."""
        too_long = isinstance(value, str) and len(value.strip().lstrip("+-")) > len(str(MAX_SEED))
        out_of_range = isinstance(value, int | float) and not isinstance(value, bool) and not 0 <= value <= MAX_SEED
        if too_long or out_of_range:
            raise ValueError(_("the seed is a whole number from 0 to {most} (20 digits at most)")
                             .format(most=f"{MAX_SEED:,}"))
        return value

    @classmethod
    def documented(cls) -> dict[str, dict[str, object]]:
        """Every option with its default and description (printed by `uu scenario schema`)."""
        return {
            name: {"default": f.default, "description": f.description}
            for name, f in cls.model_fields.items()
        }
