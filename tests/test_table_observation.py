"""uu.table.seat_view: what a viewer sees (nothing hidden leaks), and the gestures of the legal actions
(each unique, none a prefix of another, each resolving to its own action, each made of elements drawn)."""

from __future__ import annotations

import json
import subprocess
import sys
from collections import Counter
from collections.abc import Iterator
from typing import Any

import pytest

from uu.bots import RandomBot
from uu.engine import new_game
from uu.engine.game import Game
from uu.scenario.load import parse_scenario
from uu.scenario.to_game import build_game
from uu.table.seat_view import legal_actions, next_step, observe

GAMES = [(seed, 2 + seed % 4) for seed in range(24)]


def positions(seed: int, n: int, limit: int = 250) -> Iterator[Game]:
    """Every position of a random game (the same Game object, moved on after each yield)."""
    g = new_game([f"P{i}" for i in range(n)], seed=seed)
    bot = RandomBot(seed)
    for _ in range(limit):
        if g.pending is None:
            return
        yield g
        g.push(bot.choose(g))


def drawn(obs: dict[str, Any]) -> list[dict[str, Any]]:
    """Every card the observation draws."""
    cards = [c for p in obs["players"] for c in p["hand"] + p["stable"]]
    return cards + obs["discard"] + obs["nursery"] + [e["card"] for e in obs["pile"]]


def clickable_keys(obs: dict[str, Any], actions: list[dict[str, Any]]) -> set[str]:
    """The keys of every element the table draws: cards, seats, deck, pile, decline, options."""
    keys = {c["key"] for c in drawn(obs)} | {f"seat:{p['seat']}" for p in obs["players"]}
    keys |= {"deck", "pile"}
    keys |= {f"option:{a['id']}" for a in actions if a["option"]}
    if any(a["kind"] == "decline" for a in actions):
        keys.add("decline")
    return keys


def test_observation_never_imports_ipywidgets():
    code = "import sys, uu.table; assert 'ipywidgets' not in sys.modules, 'ipywidgets imported'; print('ok')"
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert r.returncode == 0 and "ok" in r.stdout, r.stderr


@pytest.mark.parametrize("seed,n", GAMES)
def test_gestures_are_unique_and_resolve_to_their_action(seed, n):
    kinds: Counter[str] = Counter()
    for g in positions(seed, n):
        viewer = g.pending.player
        obs = observe(g, viewer)
        actions = legal_actions(g, viewer)
        assert [a["id"] for a in actions] == list(range(len(g.legal_actions)))
        kinds[g.pending.kind] += 1
        gestures = [tuple(a["gesture"]) for a in actions]
        assert len(set(gestures)) == len(gestures), [a["description"] for a in actions]
        for a in gestures:
            for b in gestures:
                assert a == b or b[:len(a)] != a, f"{a} is a prefix of {b}"
        keys = clickable_keys(obs, actions)
        for a in actions:
            assert set(a["gesture"]) <= keys, (a["description"], set(a["gesture"]) - keys)
            clicks: list[str] = []
            for step in a["gesture"]:
                chosen, nxt = next_step(actions, clicks)
                assert chosen is None and step in nxt
                clicks.append(step)
            assert next_step(actions, clicks) == (a["id"], set())
        assert next_step(actions, ["no such element"]) == (None, set())
        json.dumps(obs)
        json.dumps(actions)
    assert kinds["action"] and kinds["baby"], kinds


def test_every_decision_kind_and_gesture_shape_is_covered():
    """The games above meet every kind of decision and every kind of element a gesture clicks."""
    from uu.engine.actions import DECISION_KINDS

    kinds: set[str] = set()
    steps: set[str] = set()
    for seed, n in GAMES:
        for g in positions(seed, n):
            kinds.add(g.pending.kind)
            for a in legal_actions(g, g.pending.player):
                steps |= {":".join(k.split(":")[:2]) if k.startswith("card:") else k.split(":")[0]
                          for k in a["gesture"]}
    assert kinds == set(DECISION_KINDS), set(DECISION_KINDS) - kinds
    assert steps >= {"card:hand", "card:stable", "card:discard", "card:nursery", "seat", "deck", "pile",
                     "option", "decline"}, steps


@pytest.mark.parametrize("seed,n", GAMES[:12])
def test_hidden_cards_never_leak(seed, n):
    for g in positions(seed, n, limit=150):
        s = g.state
        for viewer in range(n):
            obs = observe(g, viewer)
            text = json.dumps(obs)
            ids = {c["id"] for c in drawn(obs)}
            deciding = g.pending.player == viewer
            if not deciding:
                assert legal_actions(g, viewer) == []
                assert obs["decision"]["prompt"] == f"Waiting for {g.players[g.pending.player]}."
            for p in range(n):
                hand = obs["players"][p]["hand"]
                assert len(hand) == len(s.hands[p])
                looked = deciding and any(t.zone == "hand" and t.owner == p
                                          for a in g.legal_actions for t in a.target)
                from uu.engine import queries

                if p == viewer or queries.hand_visible(s, p) or looked:
                    assert [c["name"] for c in hand] == g.hand(p)
                    continue
                assert all(c["name"] is None and c["type"] is None and c["text"] == "" for c in hand)
                for cid in s.hands[p]:
                    assert f"c{cid}" not in ids     # an instance id would follow the card into the hand
            for cid in s.deck:
                assert f"c{cid}" not in ids
            assert '"deck": [' not in text       # the deck is a size only


NANNY = """\
name: Nanny Cam on Ben
players: [Ana, Ben, Cy]
turn: {player: Ana, phase: action, number: 3}
stables:
  Ana: [Baby Unicorn (Red)]
  Ben: [Baby Unicorn (Blue), Nanny Cam]
  Cy: [Baby Unicorn (Green)]
hands:
  Ana: [Basic Unicorn (Red)]
  Ben: [Unicorn Poison, Neigh]
  Cy: [Basic Unicorn (Yellow)]
deck: [Basic Unicorn (Purple), Basic Unicorn (Indigo)]
rest: box
"""


def test_nanny_cam_shows_that_hand_to_everyone_and_no_other():
    g = build_game(parse_scenario(NANNY))
    for viewer in range(3):
        obs = observe(g, viewer)
        ben = obs["players"][1]
        assert [c["name"] for c in ben["hand"]] == ["Unicorn Poison", "Neigh"]
        assert ben["hand_open"] == (viewer != 1)
        cy = obs["players"][2]["hand"]
        assert [c["name"] for c in cy] == (["Basic Unicorn (Yellow)"] if viewer == 2 else [None])
    assert "Basic Unicorn (Yellow)" not in json.dumps(observe(g, 0))


def test_players_turn_log_and_cards():
    g = build_game(parse_scenario(NANNY))
    obs = observe(g, 0)
    ana = obs["players"][0]
    assert (ana["name"], ana["is_viewer"], ana["unicorns"], ana["hand_size"]) == ("Ana", True, 1, 1)
    assert obs["turn"] == {"player": 0, "name": "Ana", "phase": "action", "phase_label": "Action", "number": 3}
    assert obs["decision"]["yours"] and obs["deck_size"] == 2
    card = ana["stable"][0]
    assert (card["name"], card["type"], card["icon"], card["zone"], card["owner"]) == \
        ("Baby Unicorn (Red)", "baby", "baby", "stable", 0)
    assert "Nursery" in card["text"]
    before = len(obs["log"])
    [play] = [a for a in legal_actions(g, 0) if a["gesture"] == ["card:hand:0:Basic Unicorn (Red)", "seat:0"]]
    g.push(g.legal_actions[play["id"]])
    after = observe(g, 0)
    assert len(after["log"]) >= before and after["log"][0]["index"] == len(g.log) - 1
    assert any(line["why"] for line in after["log"])
    # the card waits on the Neigh pile (others may answer it), shown with who played it
    assert [(e["card"]["name"], e["player"]) for e in after["pile"]] == [("Basic Unicorn (Red)", "Ana")]
    assert after["pile"][0]["card"]["zone"] == "pile"


def test_an_analyst_sees_every_hand_and_makes_no_move():
    g = build_game(parse_scenario(NANNY))
    obs = observe(g, None)
    assert [[c["name"] for c in p["hand"]] for p in obs["players"]] == [g.hand(p) for p in range(3)]
    assert not any(p["is_viewer"] for p in obs["players"])
    assert obs["decision"]["prompt"] == g.pending.prompt and not obs["decision"]["yours"]
    assert legal_actions(g, None) == []
    json.dumps(obs)


@pytest.mark.parametrize("lang", ["en", "fr", "de"])
def test_the_line_that_starts_a_turn_says_its_number_in_every_language(lang):
    """The table heads each turn's log lines with the turn's number, which it no longer reads from the text (a
    translated line reads "Tour 1 : ..."): the line that starts a turn carries it."""
    from uu.i18n import language
    from uu.table.seat_view import log_lines

    g = new_game(["Ana", "Ben"], seed=3)
    bot = RandomBot(3)
    while g.state.turn_number < 3 and g.pending is not None:
        g.push(bot.choose(g))
    with language(lang):
        lines = log_lines(g, 0)
    starts = [line for line in lines if "turn" in line]
    assert [line["turn"] for line in starts] == [1, 2, 3]
    assert all(str(line["turn"]) in line["text"] for line in starts)
    assert all(not line["text"].startswith("Turn") for line in starts) or lang == "en"
