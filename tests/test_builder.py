"""The position builder: any catalog card in any legal zone, every violation a message on its field, and
YAML / Scenario / Game output that loads back."""

from __future__ import annotations

import random

import pytest

from uu.cards import catalog
from uu.cards.schema import CardType
from uu.scenario import ScenarioFileError, parse_scenario
from uu.scenario.builder import MAX_NAME, BuilderError, PositionBuilder
from uu.scenario.export import export_position, position_signature


def small():
    b = PositionBuilder(["Ana", "Ben"])
    b.place("Baby Unicorn (Red)", "stable", "Ana")
    b.place("Rhinocorn", "stable", "Ana")
    b.place("Neigh", "hand", "Ben")
    b.place("Unicorn Poison", "deck")
    b.place("Super Neigh", "deck", index=0)
    return b


def error_of(fn) -> BuilderError:
    with pytest.raises(BuilderError) as e:
        fn()
    return e.value


def test_place_remove_move_and_the_built_game():
    b = small()
    assert b.zone("deck") == ["Super Neigh", "Unicorn Poison"]
    b.move("Neigh", "hand", "discard", from_player="Ben")
    b.move("Unicorn Poison", "deck", "deck", index=0)
    assert b.zone("deck") == ["Unicorn Poison", "Super Neigh"] and b.zone("discard") == ["Neigh"]
    b.set_turn(player="Ben", phase="action", number=3)
    b.set_option("targeting", "neigh-first")
    assert b.errors() == []
    g = b.build()
    assert g.stable(0) == ["Baby Unicorn (Red)", "Rhinocorn"] and g.discard == ["Neigh"]
    assert g.turn == (1, "action", 3) and g.state.options.targeting == "neigh-first"
    assert g.state.names(g.state.deck[:2]) == ["Unicorn Poison", "Super Neigh"]  # listed on top, rest under
    assert g.pending.kind == "action" and g.pending.player == 1


def test_babies_come_from_the_nursery_and_go_back():
    b = PositionBuilder(["Ana", "Ben"])
    babies = sum(d.copies for d in catalog() if d.type is CardType.BABY)
    assert len(b.zone("nursery")) == babies
    b.place("Baby Unicorn (Red)", "stable", "Ana")
    assert "Baby Unicorn (Red)" not in b.zone("nursery") and b.available("Baby Unicorn (Red)") == 0
    b.remove("Baby Unicorn (Red)", "stable", "Ana")
    assert "Baby Unicorn (Red)" in b.zone("nursery")
    b.remove("Baby Narwhal", "nursery")  # out of the game
    b.set_rest("box")
    b.place("Neigh", "deck")
    g = b.build()
    assert "Baby Narwhal" in g.state.names(g.state.box) and "Baby Narwhal" not in g.nursery


@pytest.mark.parametrize("action, field, words", [
    (lambda b: b.place("Baby Unicorn (Blue)", "hand", "Ben"), "hands.Ben", "only ever in a Stable or the Nursery"),
    (lambda b: b.place("Baby Unicorn (Blue)", "deck"), "deck", "Baby"),
    (lambda b: b.place("Neigh", "stable", "Ana"), "stables.Ana", "Instants never stay in a Stable"),
    (lambda b: b.place("Rhinocorn", "nursery"), "nursery", "only Babies live in the Nursery"),
    (lambda b: b.place("Rhinocorn", "hand", "Ben"), "hands.Ben", "the only copy of Rhinocorn is already placed"),
    (lambda b: b.place("Rhinocornn", "hand", "Ben"), "hands.Ben", "did you mean 'Rhinocorn'"),
    (lambda b: b.place("Neigh", "hand", "Zed"), "hands.Zed", "not a player"),
    (lambda b: b.place("Neigh", "hand"), "hands", "say whose hand"),
    (lambda b: b.place("Neigh", "pocket"), "zone", "zones are: stable, hand, deck, discard, nursery"),
    (lambda b: b.place("Neigh", "deck", index=7), "deck", "0 (the top) to 2 (the bottom)"),
    (lambda b: b.remove("Neigh", "discard"), "discard", "not there"),
    (lambda b: b.move("Rhinocorn", "stable", "hand", from_player="Ben", to_player="Ana"), "stables.Ben",
     "not there"),
    (lambda b: b.move("Neigh", "hand", "stable", from_player="Ben", to_player="Ana"), "stables.Ana", "Instant"),
    (lambda b: b.set_turn(player="Zed"), "turn.player", "choose one of"),
    (lambda b: b.set_turn(phase="lunch"), "turn.phase", "beginning, draw, action, end"),
    (lambda b: b.set_turn(number=0), "turn.number", "1 or more"),
    (lambda b: b.set_option("targeting", "whenever"), "options.targeting", "declare-first"),
    (lambda b: b.set_option("colour", 1), "options.colour", "options are:"),
    (lambda b: b.set_rest("void"), "rest", "'deck' or 'box'"),
    (lambda b: b.set_players(["Ana"]), "players", "2 to 8 players"),
])
def test_each_violation_names_its_field_and_changes_nothing(action, field, words):
    b = small()
    before = b.zones()
    e = error_of(lambda: action(b))
    assert e.field == field and words in e.message, (e.field, e.message)
    assert str(e) == f"{field}: {e.message}"
    assert b.zones() == before


def test_copies_are_limited_to_the_deck():
    b = PositionBuilder(["Ana", "Ben"])
    n = catalog()["Neigh"].copies
    for i in range(n):
        b.place("Neigh", "deck" if i % 2 else "discard")
    assert b.available("Neigh") == 0 and "Neigh" not in b.choices("hand", "Ana")
    e = error_of(lambda: b.place("Neigh", "hand", "Ana"))
    assert f"all {n} copies of Neigh are already placed" in e.message and "deck ×" in e.message
    b.move("Neigh", "deck", "hand", to_player="Ana")  # moving is fine
    assert b.placed("Neigh") == n


@pytest.mark.parametrize("players, words", [
    (["Ana"], "2 to 8 players"),
    ([f"P{i}" for i in range(9)], "2 to 8 players"),
    (["Ana", "ana"], "must be different (ignoring case)"),
    (["Ana", ""], "empty name"),
    (["Ana", " Ben"], "start or end with a space"),
    (["Ana", "B" * (MAX_NAME + 1)], f"at most {MAX_NAME} characters"),
    (["Ana", "Be\nn"], "line breaks"),
])
def test_player_names(players, words):
    e = error_of(lambda: PositionBuilder(players))
    assert e.field == "players" and words in e.message


def test_set_players_renames_by_seat():
    b = small()
    b.set_players(["Bea", "Ana", "Cy"])
    assert b.zone("stable", "Bea") == ["Baby Unicorn (Red)", "Rhinocorn"]
    assert b.zone("hand", "Ana") == ["Neigh"] and b.zone("hand", "Cy") == []
    assert b.turn["player"] == "Bea"
    assert error_of(lambda: b.set_players(["Bea"])).field == "players"
    b.place("Neigh", "hand", "Cy")
    e = error_of(lambda: b.set_players(["Bea", "Ana"]))
    assert "Cy still has cards" in e.message


def test_errors_lists_problems_of_a_position_changed_by_hand():
    b = small()
    b.deck.append("Baby Unicorn (Blue)")  # bypassing the checks (as a widget bug might)
    b.stables["Ana"].append("Rhinocorn")
    b.turn["player"] = "Zed"
    errs = dict(b.errors())
    assert "Baby" in errs["deck"] and "placed 2 times" in errs["stables.Ana"] and "Zed" in errs["turn.player"]
    e = error_of(b.to_scenario)
    assert "more problems" in e.message


def test_yaml_round_trip_and_scenario():
    b = small()
    b.set_option("deck_out", "reshuffle")
    b.set_name("My what-if")
    text = b.to_yaml()
    sc = parse_scenario(text)
    assert sc.name == "My what-if" and sc.options.deck_out == "reshuffle" and sc.rest == "deck"
    again = PositionBuilder.from_yaml(text)
    assert again.zones() == b.zones() and again.to_yaml() == text


def test_from_yaml_reports_lines():
    text = ("name: x\nplayers: [Ana, Ben]\nturn: {player: Ana, phase: action}\nhands:\n"
            "  Ben: [Neigh, Baby Unicorn (Blue)]\n")
    e = error_of(lambda: PositionBuilder.from_yaml(text))
    assert e.line == 5 and e.field == "hands.Ben" and str(e).startswith("<pasted>: line 5, hands.Ben:")
    with pytest.raises(ScenarioFileError, match="line 5.*Rhinocornn"):
        PositionBuilder.from_yaml(text.replace("Baby Unicorn (Blue)", "Rhinocornn"))
    with pytest.raises(ScenarioFileError, match="line 3"):
        PositionBuilder.from_yaml("name: x\nplayers: [Ana, Ben]\nturn: {player: Ana, phase: lunch}\n")
    with pytest.raises(ScenarioFileError, match="not valid YAML"):
        PositionBuilder.from_yaml("name: [x\n")


def test_from_yaml_with_an_auto_nursery():
    b = PositionBuilder.from_yaml("name: x\nplayers: [Ana, Ben]\nstables: {Ana: [Baby Unicorn (Red)]}\n")
    assert "Baby Unicorn (Red)" not in b.zone("nursery") and len(b.zone("nursery")) > 5
    assert b.turn == {"player": "Ana", "phase": "beginning", "number": 1}


def test_from_game_and_back_is_the_same_position():
    b = small()
    b.set_turn(phase="action")
    b.set_rest("box")
    g = b.build()
    b2 = PositionBuilder.from_game(g)
    assert position_signature(b2.build()) == position_signature(g)
    assert export_position(b2.build()) == export_position(g)


def test_random_builds_always_load():
    """Random legal edits (deterministic): whatever the builder accepts builds, and exports back."""
    cards = [d.name for d in catalog()]
    for seed in range(12):
        rng = random.Random(seed)
        players = [f"P{i}" for i in range(2 + seed % 7)]
        b = PositionBuilder(players)
        for _ in range(40):
            zone = rng.choice(["stable", "hand", "deck", "discard", "nursery"])
            player = rng.choice(players)
            try:
                b.place(rng.choice(cards), zone, player if zone in ("stable", "hand") else None)
            except BuilderError as e:
                assert e.field and e.message
        for p in players:
            if not b.zone("stable", p):
                b.place(next(c for c in b.choices("stable", p)), "stable", p)
        b.set_turn(player=rng.choice(players), phase="action")
        assert b.errors() == []
        g = b.build()
        for i, p in enumerate(players):
            assert g.stable(i) == b.zone("stable", p) and g.hand(i) == b.zone("hand", p)
        if g.pending is not None and g.pending.kind == "action" and not g.state.stack[1:]:
            assert parse_scenario(export_position(g))
