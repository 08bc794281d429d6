"""The hint's position model: its shipped weights match its features, "one more Unicorn" never scores worse,
chances sum to 1, a finished game gives 1 to its winner, and the trainer writes a usable file."""

from __future__ import annotations

import json

from uu.bots.train_value import MONOTONE, main
from uu.bots.value import FEATURES, WEIGHTS_FILE, features, weights, win_chances
from uu.engine import new_game
from uu.scenario.load import parse_scenario
from uu.scenario.to_game import build_game


def test_shipped_weights_fit_the_features_and_are_monotone() -> None:
    data = json.loads(WEIGHTS_FILE.read_text(encoding="utf-8"))
    assert tuple(data["features"]) == FEATURES and len(weights()) == len(FEATURES)
    assert all(weights()[i] >= 0 for i in MONOTONE)
    assert data["held_out"]["mean_log_likelihood"] > data["uniform_held_out_log_likelihood"]  # better than a guess


def test_chances_sum_to_one_and_a_unicorn_more_is_never_worse() -> None:
    base = """
name: v
players: [Ana, Ben, Cy]
turn: {player: Ana, phase: action}
stables: {Ana: [Baby Unicorn (Red)], Ben: [Baby Unicorn (Blue)], Cy: [Baby Unicorn (Pink)]}
"""
    g = build_game(parse_scenario(base))
    c = win_chances(g.state)
    assert abs(sum(c) - 1) < 1e-9 and len(features(g.state, 0)) == len(FEATURES)
    for extra in range(1, 6):
        colours = ["Red", "Blue", "Purple", "Orange", "Green"]
        unicorns = ", ".join(f"Basic Unicorn ({c})" for c in colours[:extra])
        more = build_game(parse_scenario(base.replace("[Baby Unicorn (Red)]", f"[Baby Unicorn (Red), {unicorns}]")))
        assert win_chances(more.state)[0] >= c[0] - 1e-12
        c = win_chances(more.state)


def test_a_finished_game_gives_everything_to_its_winner() -> None:
    from uu.bots import RandomBot

    g = new_game(["A", "B"], seed=4)
    bot = RandomBot(4)
    while g.pending is not None:
        g.push(bot.choose(g))
    w = g.state.winner
    assert win_chances(g.state) == [1.0 if p == w else 0.0 for p in range(2)]


def test_the_trainer_writes_a_file_the_model_can_read(tmp_path) -> None:
    out = tmp_path / "w.json"
    assert main(["--games", "12", "--out", str(out)]) == 0
    data = json.loads(out.read_text(encoding="utf-8"))
    assert tuple(data["features"]) == FEATURES and all(data["weights"][i] >= 0 for i in MONOTONE)
