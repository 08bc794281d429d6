"""The card catalog: every distinct card of the 2nd-edition base deck, as data.

`catalog.yaml` is validated by the pydantic models in `uu.cards.schema` once, when first loaded; the engine
then works with the light `CardDef` objects, so validation never runs in the game loop.
"""

from uu import native as _native

_native.activate("cards", __path__)  # before carddef is imported: compiled with the engine when built

from uu.cards.schema import CardDef, CardType, Catalog, load_catalog

__all__ = ["CardDef", "CardType", "Catalog", "load_catalog", "catalog"]


def catalog() -> Catalog:
    """The shipped catalog (loaded once, cached)."""
    return load_catalog()
