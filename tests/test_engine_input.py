"""Malformed actions and targets are refused with the engine's own error (MalformedAction, a GameError) in
both engine builds: never a TypeError or AttributeError, and the game is unchanged. test_native.py runs this
file on the Python engine too."""

from __future__ import annotations

from typing import Any

import pytest

from uu.engine import Action, GameError, MalformedAction, Target, new_game

BAD_ACTIONS: list[tuple[str, dict[str, Any]]] = [
    ("play", {"target": "abc"}),
    ("play", {"target": ["abc"]}),
    ("play", {"target": 5}),
    ("play", {"card": 5}),
    ("play", {"card": ["Neigh"]}),
    ("play", {"into": "0"}),
    ("play", {"into": 1.5}),
    ("play", {"into": True}),
    ("order", {"cards": "Neigh"}),
    ("order", {"cards": (1, 2)}),
    ("choose", {"option": 3}),
    ("fly", {}),
    ("", {}),
    ("play", {"decl": "x"}),
]


@pytest.mark.parametrize("kind,fields", BAD_ACTIONS, ids=[f"{k}-{sorted(f)}" for k, f in BAD_ACTIONS])
def test_a_malformed_action_is_refused_with_the_engines_error(kind: str, fields: dict[str, Any]) -> None:
    g = new_game(["Ana", "Ben"], seed=1)
    before = g.to_dict()
    with pytest.raises(MalformedAction) as e:
        g.push(Action(kind, **fields))
    assert isinstance(e.value, GameError) and str(e.value)
    assert g.to_dict() == before and g.moves == ()


def test_unknown_kind_of_another_type_and_bad_targets() -> None:
    for bad in (None, 3, b"play"):
        with pytest.raises(MalformedAction, match="unknown action kind"):
            Action(bad)  # type: ignore[arg-type]
    for fields in ({"card": 1}, {"owner": "Ana"}, {"player": 2.0}, {"zone": None}, {"cid": "7"}):
        with pytest.raises(MalformedAction):
            Target(**fields)


def test_well_formed_actions_still_compare_by_names() -> None:
    a = Action("play", card="Neigh", target=[Target(card="Yay", owner=0)], cards=["x"])
    assert a.target == (Target(card="Yay", owner=0),) and a.cards == ("x",)
    assert a == Action("play", card="Neigh", target=(Target(card="Yay", owner=0),), cards=("x",))
