"""Previews: computed on a copy (the real game never changes), agreeing with what `push` does, stopping at
a response window, spotting the end of the game; plain text and escaped HTML."""

from __future__ import annotations

import random

import pytest

from uu.engine import Action, IllegalAction, Target, new_game
from uu.scenario.builder import PositionBuilder
from uu.tutor.preview import preview, preview_all


def position(ana="Ana", deck=("Neigh", "Rhinocorn", "Unicorn Swap"), ben_hand=("Neigh",)):
    b = PositionBuilder([ana, "Ben"])
    b.place("Baby Unicorn (Red)", "stable", ana)
    b.place("Baby Unicorn (Blue)", "stable", "Ben")
    for card in ("Unicorn Poison", "Basic Unicorn (Red)"):
        b.place(card, "hand", ana)
    for card in ben_hand:
        b.place(card, "hand", "Ben")
    for card in deck:
        b.place(card, "deck")
    b.set_rest("box")
    return b


POISON = Action("play", "Unicorn Poison", target=(Target("Baby Unicorn (Blue)", owner=1),))


def test_preview_never_changes_the_game():
    g = position().build()
    before = g.to_dict()
    for p in preview_all(g):
        assert p.action
    assert g.to_dict() == before and g.pending.kind == "action"


def test_response_window_is_reported_and_the_preview_stops_there():
    g = position().build()
    p = preview(g, POISON)
    assert p.actor == "Ana" and p.response_window
    assert p.next["player"] == "Ben" and p.next["kind"] == "respond"
    assert p.pile == ["Unicorn Poison"]
    assert [m.text() for m in p.moves] == ["Unicorn Poison: Ana's hand → the Neigh pile"]
    assert p.unicorn_changes == {}  # nothing resolved yet
    assert "Response window" in p.text() and not p.game_over


def test_preview_agrees_with_apply():
    g = position(ben_hand=()).build()  # nobody can respond: the card resolves at once
    p = preview(g, Action("play", "Basic Unicorn (Red)", into=0))
    g.push(Action("play", "Basic Unicorn (Red)", into=0))
    assert p.next == {"player": g.players[g.pending.player], "kind": g.pending.kind, "prompt": g.pending.prompt}
    assert p.unicorns_before == {"Ana": 1, "Ben": 1} and p.unicorns_after == {"Ana": 2, "Ben": 1}
    assert p.unicorn_changes == {"Ana": (1, 2)}


def test_random_games_previews_match_apply():
    for seed in range(6):
        rng = random.Random(seed)
        g = new_game([f"P{i}" for i in range(2 + seed)], seed=seed)
        for _ in range(60):
            if g.pending is None:
                break
            action = rng.choice(g.legal_actions)
            p = preview(g, action)
            zones = list(zip(g.state.zone_of, g.state.owner_of))
            g.push(action)
            moved = sum(1 for c, z in enumerate(zones) if z != (g.state.zone_of[c], g.state.owner_of[c]))
            assert len(p.moves) == moved
            assert p.unicorns_after == {g.players[i]: g.unicorns(i) for i in range(len(g.players))}
            assert p.game_over == g.is_over
            assert (p.next is None) == (g.pending is None)
            if g.pending:
                assert (p.next["player"], p.next["kind"]) == (g.players[g.pending.player], g.pending.kind)


def test_the_winning_move_is_spotted():
    b = PositionBuilder(["Ana", "Ben"])
    b.place("Baby Unicorn (Red)", "stable", "Ana")
    for colour in ("Red", "Orange", "Yellow", "Green", "Blue"):
        b.place(f"Basic Unicorn ({colour})", "stable", "Ana")
    b.place("Basic Unicorn (Indigo)", "hand", "Ana")
    b.place("Baby Unicorn (Blue)", "stable", "Ben")
    g = b.build()
    p = preview(g, Action("play", "Basic Unicorn (Indigo)", into=0))
    assert p.game_over and p.winner == "Ana" and p.next is None
    assert "Ana wins" in p.text()
    draw = preview(g, Action("draw"))
    assert not draw.game_over


def test_preview_all_covers_every_legal_action():
    g = position().build()
    previews = preview_all(g)
    assert [p.action for p in previews] == [g.describe(a) for a in g.legal_actions]
    assert preview_all(new_game(["A", "B"], seed=1))  # setup decisions preview too


def test_illegal_action_raises_like_apply():
    g = position().build()
    with pytest.raises(IllegalAction):
        preview(g, Action("play", "Rhinocorn", into=0))


def test_viewer_does_not_see_the_deck():
    g = position(deck=("Rhinocorn", "Neigh", "Unicorn Swap")).build()
    open_ = preview(g, Action("draw"))  # Ana draws; her turn ends; Ben draws in his Draw phase
    assert [m.text() for m in open_.moves] == ["Rhinocorn: the deck → Ana's hand", "Neigh: the deck → Ben's hand"]
    assert open_.log and "Ana's turn ends; turn 2 is Ben's (action phase)." in open_.text()
    hidden = preview(g, Action("draw"), viewer=0)
    assert [m.card for m in hidden.moves] == ["a card", "a card"] and hidden.log == []
    assert "Rhinocorn" not in hidden.text() + hidden.html()


def test_text_and_escaped_html():
    g = position(ana="<b>Ana&Co</b>").build()
    p = preview(g, POISON)
    assert p.text().startswith("<b>Ana&Co</b>: play Unicorn Poison")
    h = p.html()
    assert "<b>Ana" not in h.replace("<b>&lt;b&gt;", "") and "&lt;b&gt;Ana&amp;Co&lt;/b&gt;" in h
    assert h.startswith('<div class="uu-preview uu-preview-window">')
    assert p.to_dict()["response_window"] is True


def test_the_next_decision_names_its_player_once():
    # a DRAW with nobody able to respond passes straight to Ana's End of Turn (or Ben's turn): the summary
    # says "Next: <player> decides (...)" and the prompt after it must not repeat the name
    g = position(ben_hand=()).build()
    p = preview(g, Action("draw"))
    nxt = [line for line in p.summary() if line.startswith("Next:")]
    assert nxt, p.summary()
    player = p.next["player"]
    assert nxt[0].count(f"{player}:") == 0 and nxt[0].startswith(f"Next: {player} decides"), nxt[0]
