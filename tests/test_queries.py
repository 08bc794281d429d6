"""Continuous effects as on-demand queries (uu.engine.queries): rule ids cited per test."""

from __future__ import annotations

import pytest
import yaml

from uu.engine import Action
from uu.engine import queries as q
from uu.engine.pile import play_actions, response_actions
from uu.scenario import build_game, parse_scenario

ANA, BEN, CY = 0, 1, 2


def pos(stables=None, hands=None, players=("Ana", "Ben", "Cy"), turn=None, deck=None, options=None):
    data = {"name": "unit", "players": list(players), "turn": turn or {"player": players[0], "phase": "action"},
            "stables": stables or {}, "hands": hands or {}, "deck": deck or ["Neigh"] * 8, "rest": "box"}
    if options:
        data["options"] = options
    return build_game(parse_scenario(yaml.safe_dump(data, sort_keys=False)))


def cid(g, name, zone="stable", owner=None):
    """The instance id of a named card in a zone (the first one found)."""
    s = g.state
    for c in s.all_cids():
        if s.name(c) == name and s.zone_of[c] == zone and (owner is None or s.owner_of[c] == owner):
            return c
    raise LookupError(name)


# ---- text_works --------------------------------------------------------------------------------------

def test_text_works_only_in_a_stable():
    """effect.hand-inactive: a card's text works only while it is in a Stable."""
    g = pos(stables={"Ana": ["Ginormous Unicorn"]}, hands={"Ben": ["Rhinocorn"]})
    assert q.text_works(g.state, cid(g, "Ginormous Unicorn")) is True
    assert q.text_works(g.state, cid(g, "Rhinocorn", "hand")) is False


def test_blinding_light_blanks_owner_unicorns_only():
    """Blinding Light (card.unicorn-kinds): its owner's Unicorns have no effect text; the Downgrade itself,
    its owner's non-Unicorn cards, and other players' Unicorns keep working."""
    g = pos(stables={"Ana": ["Blinding Light", "Rhinocorn", "Yay"], "Ben": ["Stabby the Unicorn"]})
    s = g.state
    assert q.text_works(s, cid(g, "Rhinocorn")) is False
    assert q.text_works(s, cid(g, "Blinding Light")) is True
    assert q.text_works(s, cid(g, "Yay")) is True
    assert q.text_works(s, cid(g, "Stabby the Unicorn")) is True


def test_blinding_light_switches_off_static_unicorn_effects():
    """Blinding Light + win.counts-one: Ginormous counts 1 and no longer stops its owner's Neighs."""
    g = pos(stables={"Ana": ["Ginormous Unicorn", "Blinding Light"]})
    assert q.unicorns(g.state, ANA) == 1
    assert q.cannot_play(g.state, ANA, "neigh") is False


# ---- unicorns ----------------------------------------------------------------------------------------

def test_unicorns_count_ginormous_as_two():
    """win.counts-one: each Unicorn card counts 1, Ginormous 2; Upgrades/Downgrades count nothing."""
    g = pos(stables={"Ana": ["Baby Unicorn (Red)", "Ginormous Unicorn", "Basic Unicorn (Red)", "Yay",
                             "Slowdown"], "Ben": []})
    assert q.unicorns(g.state, ANA) == 4
    assert g.unicorns(ANA) == 4
    assert q.unicorns(g.state, BEN) == 0


def test_pandamonium_counts_zero():
    """Pandamonium (win.counts-one): its owner's Unicorns are Pandas and count 0; others are unaffected."""
    g = pos(stables={"Ana": ["Pandamonium", "Ginormous Unicorn", "Rhinocorn", "Baby Unicorn (Red)"],
                     "Ben": ["Basic Unicorn (Red)"]})
    assert q.unicorns(g.state, ANA) == 0
    assert q.are_pandas(g.state, ANA) is True
    assert q.is_unicorn(g.state, cid(g, "Rhinocorn")) is False
    assert q.unicorns(g.state, BEN) == 1


def test_letters_count_printed_title():
    """win.letters: letters of the printed titles of the Unicorn cards only (Babies print "Baby Unicorn")."""
    g = pos(stables={"Ana": ["Baby Unicorn (Red)", "Rhinocorn", "Yay"]})
    assert q.letters(g.state, ANA) == len("BabyUnicorn") + len("Rhinocorn")


# ---- can_enter (Queen Bee) ---------------------------------------------------------------------------

def test_queen_bee_basics_only_enter_her_owner_stable():
    """action.valid-stable + Queen Bee: Basic Unicorns cannot enter any Stable but the Queen Bee owner's;
    Magical Unicorns are not restricted."""
    g = pos(stables={"Ben": ["Queen Bee Unicorn"]}, hands={"Ana": ["Basic Unicorn (Red)", "Rhinocorn"]})
    s = g.state
    basic = cid(g, "Basic Unicorn (Red)", "hand")
    assert [q.can_enter(s, basic, p) for p in range(3)] == [False, True, False]
    assert all(q.can_enter(s, cid(g, "Rhinocorn", "hand"), p) for p in range(3))
    plays = {(a.card, a.into) for a in g.legal_actions if a.kind == "play"}
    assert plays == {("Basic Unicorn (Red)", BEN), ("Rhinocorn", ANA), ("Rhinocorn", BEN), ("Rhinocorn", CY)}


def test_two_queen_bees_block_every_stable():
    """Queen Bee: with Queen Bees in two Stables, a Basic Unicorn can enter neither (each blocks the other)."""
    g = pos(stables={"Ana": ["Queen Bee Unicorn"], "Ben": ["Yay"]}, hands={"Cy": ["Basic Unicorn (Red)"]})
    # only one Queen Bee in the deck: simulate a second source by asking with an explicit list of owners
    basic = cid(g, "Basic Unicorn (Red)", "hand")
    assert q.can_enter(g.state, basic, ANA, bees=[ANA, BEN]) is False
    assert q.can_enter(g.state, basic, BEN, bees=[ANA, BEN]) is False


# ---- can_be_destroyed --------------------------------------------------------------------------------

def test_rainbow_aura_guards_owner_unicorns_not_itself():
    """effect.immunity: Rainbow Aura makes its owner's Unicorns indestructible, but not the Aura itself
    nor its owner's other cards."""
    g = pos(stables={"Ben": ["Rainbow Aura", "Rhinocorn", "Slowdown"]}, hands={"Ana": ["Unicorn Poison"]})
    s = g.state
    poison = cid(g, "Unicorn Poison", "hand")
    assert q.can_be_destroyed(s, cid(g, "Rhinocorn"), poison) is False
    assert q.can_be_destroyed(s, cid(g, "Rainbow Aura"), poison) is True
    assert q.can_be_destroyed(s, cid(g, "Slowdown"), poison) is True
    # effect.impossible-play: no Unicorn can be destroyed, so Unicorn Poison is not playable
    assert not any(a.card == "Unicorn Poison" for a in g.legal_actions)


def test_kittencorn_immune_to_magic_only():
    """effect.immunity: Magical Kittencorn cannot be DESTROYED by Magic cards, but can by a Unicorn's
    effect (Stabby the Unicorn) or an Upgrade (Glitter Bomb)."""
    g = pos(stables={"Ben": ["Magical Kittencorn"], "Ana": ["Stabby the Unicorn", "Glitter Bomb"]},
            hands={"Ana": ["Unicorn Poison"]})
    s = g.state
    kit = cid(g, "Magical Kittencorn")
    assert q.can_be_destroyed(s, kit, cid(g, "Unicorn Poison", "hand")) is False
    assert q.can_be_destroyed(s, kit, cid(g, "Stabby the Unicorn")) is True
    assert q.can_be_destroyed(s, kit, cid(g, "Glitter Bomb")) is True
    assert q.can_be_destroyed(s, kit, None) is True


def test_kittencorn_loses_immunity_under_blinding_light():
    """effect.immunity + Blinding Light: Kittencorn's protection is its own text, switched off by Blinding
    Light in its Stable."""
    g = pos(stables={"Ben": ["Magical Kittencorn", "Blinding Light"]}, hands={"Ana": ["Unicorn Poison"]})
    assert q.can_be_destroyed(g.state, cid(g, "Magical Kittencorn"), cid(g, "Unicorn Poison", "hand")) is True


def test_only_stable_cards_can_be_destroyed():
    """verb.destroy: only a card in a Stable can be DESTROYED."""
    g = pos(hands={"Ben": ["Rhinocorn"]})
    assert q.can_be_destroyed(g.state, cid(g, "Rhinocorn", "hand"), None) is False


# ---- cannot_play / plays_unneighable -----------------------------------------------------------------

@pytest.mark.parametrize("card", ["Slowdown", "Ginormous Unicorn"])
def test_cannot_play_neigh(card):
    """Slowdown / Ginormous Unicorn: their owner cannot play Neigh cards (not offered a response)."""
    g = pos(stables={"Ben": [card]}, hands={"Ana": ["Rhinocorn"], "Ben": ["Neigh", "Super Neigh"],
                                            "Cy": ["Neigh"]})
    s = g.state
    assert q.cannot_play(s, BEN, "neigh") is True
    assert q.cannot_play(s, BEN, "upgrade") is False
    assert q.cannot_play(s, CY, "neigh") is False
    g.push(Action("play", card="Rhinocorn", into=ANA))
    assert response_actions(s, BEN) == ()
    # Ben is never asked: the first (and only) window is Cy's
    assert g.pending.kind == "respond" and g.pending.player == CY


def test_broken_stable_cannot_play_upgrade():
    """Broken Stable: its owner cannot play Upgrade cards (into any Stable); Downgrades are fine."""
    g = pos(stables={"Ana": ["Broken Stable"]}, hands={"Ana": ["Yay", "Slowdown", "Rhinocorn"]})
    assert q.cannot_play(g.state, ANA, "upgrade") is True
    cards = {a.card for a in play_actions(g.state, ANA) if a.kind == "play"}
    assert cards == {"Slowdown", "Rhinocorn"}


def test_yay_plays_unneighable():
    """Yay: cards its owner plays cannot be Neigh'd (no response offered to anybody)."""
    g = pos(stables={"Ana": ["Yay"]}, hands={"Ana": ["Rhinocorn"], "Ben": ["Neigh"], "Cy": ["Super Neigh"]})
    assert q.plays_unneighable(g.state, ANA) is True
    assert q.plays_unneighable(g.state, BEN) is False
    g.state.actions_left = 2  # stay in Ana's Action phase after the play
    g.push(Action("play", card="Rhinocorn", into=ANA))
    assert g.stable(ANA) == ["Yay", "Rhinocorn"]  # resolved with no window
    assert g.hand(BEN) == ["Neigh"] and g.hand(CY) == ["Super Neigh"]


def test_nanny_cam_hand_visible():
    """Nanny Cam: its owner's hand is visible to everybody (observe shows the cards, not a count)."""
    g = pos(stables={"Ben": ["Nanny Cam"]}, hands={"Ben": ["Neigh"], "Cy": ["Yay"]})
    assert q.hand_visible(g.state, BEN) is True
    seen = g.observe(ANA)
    assert [seen.name(c) for c in seen.seats[BEN].hand] == ["Neigh"] and seen.seats[CY].hand is None


# ---- matches (filter words) --------------------------------------------------------------------------

def test_matches_filters():
    """The card filters of effect ops (uu.cards.schema.FILTERS)."""
    g = pos(stables={"Ana": ["Baby Narwhal", "Narwhal", "Rhinocorn", "Yay", "Slowdown"]},
            hands={"Ben": ["Unicorn Poison", "Neigh", "Super Neigh", "Shabby the Narwhal"]})
    s = g.state
    c = {name: cid(g, name, zone) for name, zone in [
        ("Baby Narwhal", "stable"), ("Narwhal", "stable"), ("Rhinocorn", "stable"), ("Yay", "stable"),
        ("Slowdown", "stable"), ("Unicorn Poison", "hand"), ("Neigh", "hand"), ("Super Neigh", "hand"),
        ("Shabby the Narwhal", "hand")]}

    def hits(what, src=None):
        return {n for n, x in c.items() if q.matches(s, x, what, src)}

    assert hits("card") == set(c) and hits(None) == set(c)
    assert hits("unicorn") == {"Baby Narwhal", "Narwhal", "Rhinocorn", "Shabby the Narwhal"}
    assert hits("basic_unicorn") == {"Narwhal"}
    assert hits("baby_unicorn") == {"Baby Narwhal"}
    assert hits("magical_unicorn") == {"Rhinocorn", "Shabby the Narwhal"}
    assert hits("upgrade") == {"Yay"}
    assert hits("downgrade") == {"Slowdown"}
    assert hits("upgrade_or_downgrade") == {"Yay", "Slowdown"}
    assert hits("magic") == {"Unicorn Poison"}
    assert hits("neigh") == {"Neigh", "Super Neigh"}
    assert hits("narwhal") == {"Baby Narwhal", "Narwhal", "Shabby the Narwhal"}
    assert hits("this", src=c["Yay"]) == {"Yay"}
    with pytest.raises(ValueError):
        q.matches(s, c["Yay"], "unicron")


def test_pandas_do_not_match_unicorn_filters():
    """option.pandas (unicorn-effects): in a Pandamonium Stable, Unicorns do not match Unicorn filters, but
    still match "card"."""
    g = pos(stables={"Ben": ["Pandamonium", "Rhinocorn"]}, hands={"Ana": ["Unicorn Poison", "Two-For-One"]})
    rh = cid(g, "Rhinocorn")
    assert q.matches(g.state, rh, "unicorn") is False
    assert q.matches(g.state, rh, "card") is True
    assert not any(a.card == "Unicorn Poison" for a in g.legal_actions)


# ---- memoised summary --------------------------------------------------------------------------------

def test_summary_rebuilt_after_stable_changes():
    """Continuous effects are never stale: the memoised per-Stable summary is dropped whenever a card
    enters or leaves that Stable (GameState.place)."""
    g = pos(stables={"Ana": ["Rhinocorn"]}, hands={"Ana": ["Slowdown", "Ginormous Unicorn"]})
    s = g.state
    assert q.cannot_play(s, ANA, "neigh") is False
    assert s.static_cache[ANA] is not None  # memoised
    slow = cid(g, "Slowdown", "hand")
    s.place(slow, "stable", ANA)
    assert s.static_cache[ANA] is None
    assert q.cannot_play(s, ANA, "neigh") is True
    gin = cid(g, "Ginormous Unicorn", "hand")
    assert q.unicorns(s, ANA) == 1
    s.place(gin, "stable", ANA)
    assert q.unicorns(s, ANA) == 3
    s.place(slow, "discard")
    assert q.statics(s, ANA, "owner_cannot_play") == [["neigh"]]  # Ginormous still says no Neighs
    s.place(gin, "discard")
    assert q.cannot_play(s, ANA, "neigh") is False
    assert q.unicorns(s, ANA) == 1


def test_summary_rebuilt_after_play_through_engine():
    """The same through the engine: once Pandamonium is played into Ben's Stable, Ben counts 0 Unicorns."""
    g = pos(stables={"Ben": ["Rhinocorn", "Basic Unicorn (Red)"]}, hands={"Ana": ["Pandamonium"]})
    assert g.unicorns(BEN) == 2
    g.push(Action("play", card="Pandamonium", into=BEN))
    assert g.stable(BEN) == ["Rhinocorn", "Basic Unicorn (Red)", "Pandamonium"]
    assert g.unicorns(BEN) == 0


def test_hand_limit_default_option():
    """end.hand-limit: 7 by default, the `hand_limit` option otherwise."""
    assert q.hand_limit(pos().state, ANA) == 7
    assert q.hand_limit(pos(options={"hand_limit": 4}).state, ANA) == 4
