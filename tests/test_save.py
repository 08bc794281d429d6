"""The save format (docs/save-format.md): version 2 of its own, version-1 saves still load, and any bad save
raises SaveError naming the problem, never anything else (fuzzed with hypothesis)."""

from __future__ import annotations

import copy
import json
import typing
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from uu.bots import RandomBot
from uu.engine import Game, GameError, SaveError, new_game
from uu.engine import frame_types as ft
from uu.engine.save_format import (
    FRAME_KEYS,
    FRAME_KINDS,
    FrameSaved,
    LinkSaved,
    TriggeredSaved,
    TurnStartEffectSaved,
)

FIXTURE = Path(__file__).parent / "fixtures" / "saves-v1.json"
V1 = json.loads(FIXTURE.read_text())["saves"]


def _played(n: int, seed: int, moves: int) -> Game:
    g = new_game([f"P{i}" for i in range(n)], seed=seed)
    bot = RandomBot(seed)
    for _ in range(moves):
        if g.pending is None:
            break
        g.push(bot.choose(g))
    return g


def _follow(g: Game, moves: int = 40) -> tuple[list[str], list[str]]:
    bot, done, start = RandomBot(0), [], len(g.log)
    for _ in range(moves):
        if g.pending is None:
            break
        a = bot.choose(g)
        done.append(g.describe(a))
        g.push(a)
    return done, [e.text for e in g.log[start:]]


# ---- version 1 ---------------------------------------------------------------------------------------------
@pytest.mark.parametrize("case", V1, ids=[c["label"] for c in V1])
def test_real_version_1_saves_load_as_the_same_position(case: dict) -> None:
    """The fixture holds saves written by the engine before format 2, with the decision they were at and the
    next 40 moves a seeded random bot made from them: loaded now, they give the same decision and moves."""
    g = Game.from_dict(copy.deepcopy(case["save"]))
    pend = None if g.pending is None else {
        "player": g.pending.player, "kind": g.pending.kind, "actions": [g.describe(a) for a in g.pending.actions]}
    assert pend == case["pending"]
    assert g.to_dict()["format"] == 2
    assert _follow(g) == (case["then_moves"], case["then_log"])


def test_version_1_saves_with_the_old_short_keys_load() -> None:
    """Saves from when the beginning of turn was called "bot" (bot_snapshot, a "bot" frame, links of kind
    "bot") and frames had short keys ("t", "st", "k", ...) load as the same position."""
    case = next(c for c in V1 if c["save"]["chain"])
    data = copy.deepcopy(case["save"])
    short = {"kind": "t", "step": "st", "picks_made": "k", "picks_carried_out": "ok_n", "resolve_next": "ri",
             "next_op": "i", "pile_seen": "top", "all_carried_out": "ok", "child_running": "child"}
    old = {("bot_snapshot" if k == "turn_start_snapshot" else k): v for k, v in data.items()}
    old["stack"] = [{short.get(k, k): v for k, v in f.items()} for f in data["stack"]]
    old["chain"] = [{short.get(k, k): v for k, v in f.items()} for f in data["chain"]]
    assert any("t" in f for f in old["stack"])
    assert Game.from_dict(old).to_dict() == Game.from_dict(data).to_dict()


# ---- version 2 ---------------------------------------------------------------------------------------------
@pytest.mark.parametrize("n,seed,moves", [(2, 1, 30), (3, 2, 80), (4, 3, 150), (6, 4, 200), (8, 5, 300)])
def test_a_save_round_trips_through_json_and_plays_on_the_same(n: int, seed: int, moves: int) -> None:
    g = _played(n, seed, moves)
    data = json.loads(json.dumps(g.to_dict()))
    loaded = Game.from_dict(data)
    assert loaded.to_dict() == data and loaded.pending == g.pending
    assert _follow(loaded) == _follow(g)


def test_every_frame_key_of_the_engine_has_a_name_in_the_save_format() -> None:
    """The external names are the format's own: a key renamed or added in uu/engine/frame_types.py must be
    given its external name in uu/engine/save_format.py, which this test checks both ways."""
    internal = {"setup": ft.SetupFrame, "turn_start": ft.TurnStartFrame, "action": ft.ActionFrame,
                "endphase": ft.EndPhaseFrame, "pile": ft.PileFrame, "magic": ft.MagicFrame, "link": ft.LinkFrame,
                "prog": ft.ProgFrame, "op": ft.OpFrame, "each": ft.EachFrame, "would": ft.WouldFrame}
    assert set(internal) == set(FRAME_KINDS)
    models = typing.get_args(typing.get_args(FrameSaved)[0])  # Annotated[A | B | ..., discriminator]
    by_kind = {typing.get_args(m.model_fields["kind"].annotation)[0]: m for m in models}
    assert set(by_kind) == set(FRAME_KINDS.values())
    for kind, td in internal.items():
        assert set(td.__annotations__) == set(FRAME_KEYS[kind]), kind
        assert set(by_kind[FRAME_KINDS[kind]].model_fields) == set(FRAME_KEYS[kind].values()), kind
    effect_keys = set(ft.TriggeredEffect.__annotations__) | set(ft.TurnStartEffect.__annotations__)
    assert effect_keys == set(FRAME_KEYS["effect"])
    assert set(TriggeredSaved.model_fields) | set(TurnStartEffectSaved.model_fields) == set(
        FRAME_KEYS["effect"].values())
    assert set(ft.PileEntry.__annotations__) == set(FRAME_KEYS["pile_entry"])
    assert LinkSaved.model_fields["kind"]


# ---- refused saves -----------------------------------------------------------------------------------------
def _v2() -> dict[str, Any]:
    return json.loads(json.dumps(_played(3, 7, 120).to_dict()))


@pytest.mark.parametrize("change,words", [
    (lambda d: d["turn"].update(phase="garbage"), "turn.phase"),
    (lambda d: d.update(players=[f"P{i}" for i in range(1000)]), "players"),
    (lambda d: d.update(players=["Ana", "Ana", "Cy"]), "different"),
    (lambda d: d["zones"]["deck"].append(d["zones"]["deck"][0]), "two places"),
    (lambda d: d["zones"]["deck"].pop(), "in no zone"),
    (lambda d: d["zones"]["hands"][0].append(10_000), "no card 10000"),
    (lambda d: d["turn"].update(player=7), "no seat 7"),
    (lambda d: d.update(cards=["Not A Card"] + d["cards"][1:]), "Not A Card"),
    (lambda d: d.pop("rng"), "rng"),
    (lambda d: d.update(format=99), "format 99"),
    (lambda d: d["stack"].append({"kind": "op", "bogus": 1}), "stack[1]"),
    (lambda d: d["rng"]["state"].__setitem__(624, 10_000), "position"),
])
def test_a_bad_save_is_refused_with_what_is_wrong(change, words: str) -> None:
    data = _v2()
    change(data)
    with pytest.raises(SaveError) as e:
        Game.from_dict(data)
    assert words in str(e.value)
    assert isinstance(e.value, GameError)


@pytest.mark.parametrize("change,words", [
    (lambda d: d.update(phase="garbage"), "turn.phase"),
    (lambda d: d.update(players=[f"P{i}" for i in range(1000)]), "players"),
    (lambda d: d.pop("stack"), "'stack'"),
    (lambda d: d.update(stack=[{"kind": "op", "nonsense": 1}]), "nonsense"),
    (lambda d: d.update(rng="x"), "malformed"),
])
def test_a_bad_version_1_save_is_refused_too(change, words: str) -> None:
    data = copy.deepcopy(V1[3]["save"])
    change(data)
    with pytest.raises(SaveError, match=words):
        Game.from_dict(data)


@pytest.mark.parametrize("data", [None, [], "save", 3, {}, {"format": 2}, {"format": "2"}])
def test_what_is_not_a_save_at_all(data: Any) -> None:
    with pytest.raises(SaveError):
        Game.from_dict(data)


# ---- fuzzing -----------------------------------------------------------------------------------------------
SOURCES = [_v2(), json.loads(json.dumps(_played(2, 3, 60).to_dict())), V1[3]["save"], V1[-2]["save"]]
JUNK = st.one_of(st.none(), st.booleans(), st.integers(-2**70, 2**70), st.floats(allow_nan=True),
                 st.text(max_size=12), st.sampled_from(["Neigh", "garbage", "turn_start", "link", "op"]),
                 st.lists(st.integers(-3, 200), max_size=5), st.dictionaries(st.text(max_size=4), st.integers(),
                                                                                  max_size=3),
                 st.just(list(range(100_000))), st.just(["Neigh"] * 5_000))


def _paths(x: Any, prefix: tuple = ()) -> list[tuple]:
    out = [prefix]
    if isinstance(x, dict):
        for k, v in x.items():
            out += _paths(v, (*prefix, k))
    elif isinstance(x, list):
        for i, v in enumerate(x[:3] + x[-2:] if len(x) > 5 else x):
            out += _paths(v, (*prefix, i if i < 3 or len(x) <= 5 else len(x) - 5 + i))
    return out


@st.composite
def mutated(draw: st.DrawFn) -> Any:
    data = copy.deepcopy(draw(st.sampled_from(SOURCES)))
    for _ in range(draw(st.integers(1, 3))):
        path = draw(st.sampled_from(_paths(data)))
        if not path:
            continue
        parent = data
        for p in path[:-1]:
            parent = parent[p]
        key = path[-1]
        how = draw(st.sampled_from(["replace", "delete", "add"]))
        if how == "delete" and isinstance(parent, dict):
            del parent[key]
        elif how == "delete" and isinstance(parent, list):
            parent.pop(key)
        elif how == "add" and isinstance(parent, dict):
            parent[draw(st.text(min_size=1, max_size=6))] = copy.deepcopy(draw(JUNK))
        elif how == "add" and isinstance(parent, list):
            parent.insert(key, copy.deepcopy(draw(JUNK)))
        else:
            parent[key] = copy.deepcopy(draw(JUNK))
    return data


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(mutated())
def test_fuzzed_saves_raise_only_save_errors(data: Any) -> None:
    try:
        g = Game.from_dict(data)
    except SaveError as e:
        assert str(e)
        return
    json.dumps(g.to_dict())  # what loads is a game: it saves again
