"""The engine's and the sandbox's messages in French and German: a refused move, a move's label, a decision's
prompt, a pasted position's errors and a link's errors come out in the language in use with their
placeholders filled, and in English exactly as before. Every message of these files is translated."""

from __future__ import annotations

import random
import re

import pytest

from uu.cards.localized import card_name
from uu.engine import Action, IllegalAction, new_game
from uu.engine.errors import GameError, NothingToUndo
from uu.engine.movetext import LOG_LINES, PROMPTS, describe_action, fits_a_template, log_text, prompt_text
from uu.i18n import language
from uu.i18n.catalogs import _read, po_path
from uu.scenario.builder import BuilderError, PositionBuilder
from uu.scenario.link import LinkError, position_text

PLACEHOLDER = re.compile(r"\{\w+\}")
BABY_IN_HAND = ("name: x\nplayers: [Ana, Ben]\nturn: {player: Ana, phase: action}\nhands:\n"
                "  Ben: [Neigh, Baby Unicorn (Blue)]\n")


def refused(game, action: Action) -> IllegalAction:
    with pytest.raises(IllegalAction) as e:
        game.find(action)
    return e.value


def test_a_refused_move_is_english_as_before_and_translated_when_shown() -> None:
    g = new_game(["Ana", "Ben"], seed=3)
    d = g.pending
    bad = Action("play", card="Neigh")
    e = refused(g, bad)
    legal = "; ".join(a.describe(g.players) for a in d.actions)
    english = f"{bad.describe(g.players)!r} is not legal now. Ana must decide: {d.prompt} Legal: {legal}"
    assert str(e) == english and e.args[0] == english
    with language("fr"):
        fr = str(e)
    with language("de"):
        de = str(e)
    assert "n'est pas permis" in fr and "Ana" in fr and "Légal" not in english
    assert "ist jetzt nicht erlaubt" in de and "Ana" in de
    for text in (fr, de):
        assert not PLACEHOLDER.search(text) and text != english
    # the same error object speaks the language in use each time it is shown
    assert str(e) == english
    # and it still pickles and copies (its lazy labels travel as the texts they read now)
    import copy
    import pickle

    for again in (pickle.loads(pickle.dumps(e)), copy.copy(e)):
        assert type(again) is IllegalAction and str(again) == english and again.args == e.args
        with language("fr"):
            assert "n'est pas permis" in str(again)


def test_an_error_without_fields_and_an_unmarked_one() -> None:
    g = new_game(["Ana", "Ben"], seed=1)
    with pytest.raises(NothingToUndo) as e:
        g.pop()
    assert str(e.value) == "there is no move to take back: the move stack is empty"
    with language("de"):
        assert "Spielzug" in str(e.value)  # a move; "Zug" alone is the turn
    plain = GameError("a {brace} in a plain message stays as it is")
    with language("fr"):
        assert str(plain) == "a {brace} in a plain message stays as it is"


def test_move_labels() -> None:
    g = new_game(["You", "Ben"], seed=3)
    baby = g.pending.actions[0]
    assert describe_action(baby, g.players) == baby.describe(g.players) == g.describe(baby)
    with language("fr"):
        fr = g.describe(baby)
    with language("de"):
        de = g.describe(baby)
    assert fr == f"prendre {card_name(str(baby.card), 'fr')}"
    assert de == f"nehmen: {card_name(str(baby.card), 'de')}"
    play = Action("play", card="Basic Unicorn (Red)", into=0)
    steal = Action("target", target=(Target_of("Narwhal", 1),))
    with language("fr"):
        assert g.describe(play) == f"jouer {card_name('Basic Unicorn (Red)')} dans ton Écurie"
        assert g.describe(steal) == f"cibler → {card_name('Narwhal')} dans l'Écurie de Ben"
    with language("de"):
        assert g.describe(play) == f"ausspielen: {card_name('Basic Unicorn (Red)')} in deinen Stall"
        assert g.describe(steal) == f"wählen: → {card_name('Narwhal')} im Stall von Ben"


def Target_of(card: str, owner: int):  # noqa: N802 (reads as a constructor)
    from uu.engine import Target

    return Target(card=card, owner=owner)


def played(games: int) -> tuple[set[str], set[str]]:
    """The prompts and the log lines met in `games` random games (2 and 3 players)."""
    prompts: set[str] = set()
    lines: set[str] = set()
    for seed in range(games):
        g = new_game(["Ana", "Ben", "Cy"][: 2 + seed % 2], seed=seed)
        rng = random.Random(seed)
        for _step in range(400):
            d = g.pending
            if d is None:
                break
            prompts.add(d.prompt)
            g.push_legal(rng.choice(d.actions))
        lines.update(e.text for e in g.log)
    return prompts, lines


def test_every_log_line_of_many_games_fits_a_template_and_is_translated() -> None:
    _prompts, lines = played(12)
    misfits = sorted(x for x in lines if not fits_a_template(x, LOG_LINES))
    assert not misfits, misfits
    for line in lines:
        for lang in ("fr", "de"):
            with language(lang):
                text = log_text(line)
            assert not PLACEHOLDER.search(text) and text != line, (lang, line, text)
    with language("fr"):
        assert log_text("Ana DRAWs 2 cards.") == "Ana PIOCHE 2 cartes."
    with language("de"):
        assert log_text("Ana DRAWs 2 cards.") == "Ana ZIEHT 2 Karten."
    assert log_text("Ana DRAWs 2 cards.") == "Ana DRAWs 2 cards."


SAMPLE = {"player": "Ana", "other": "Ben", "card": "Basic Unicorn (Red)", "other_card": "Neigh", "count": "2",
          "number": "3", "option": "x", "kind": "card", "phase": "draw", "limit": "7", "letters": "5"}


def test_a_line_about_the_lessons_seat_you_is_said_to_the_learner() -> None:
    """The lessons name the learner's seat "You": a line about them reads "Tu PIOCHES 1 carte.", never
    "Toi PIOCHE 1 carte." (the seat's name put in a line said of someone else), whether they are the one who
    acts, the other player, or both."""
    with language("fr"):
        assert log_text("You DRAWs 1 card.") == "Tu PIOCHES 1 carte."
        assert log_text("Turn 1: You's turn begins.") == "Tour 1\u202f: ton tour commence."
        assert log_text("Bramble STEALs Basic Unicorn (Red) from You.") == "Bramble te VOLE Licorne Standard (rouge)."
        assert log_text("You plays Narwhal into You's Stable.") == f"Tu joues {card_name('Narwhal')} dans ton Écurie."
    with language("de"):
        assert log_text("You DRAWs 1 card.") == "Du ZIEHST 1 Karte."
        assert log_text("Turn 1: You's turn begins.") == "Zug 1: du bist am Zug."
        assert log_text("Basic Unicorn (Red) enters You's Stable.") == "Standard-Einhorn (Rot) kommt in deinen Stall."
    # every line that names a player: with "You" there, neither word for the seat is left in the third person
    for template in LOG_LINES:
        for you in ("player", "other"):
            if "{" + you + "}" not in template:
                continue
            line = template.format(**{**SAMPLE, you: "You"})
            with language("fr"):
                fr = log_text(line)
            with language("de"):
                de = log_text(line)
            assert "Toi" not in fr and not PLACEHOLDER.search(fr), (line, fr)
            assert not re.search(r"(?<!^)\bDu\b", de) and not PLACEHOLDER.search(de), (line, de)
            assert fr != line and de != line, line


def test_every_prompt_of_many_games_fits_a_template_and_is_translated() -> None:
    met, _lines = played(12)
    misfits = sorted(p for p in met if not fits_a_template(p))
    assert not misfits, misfits
    for prompt in met:
        for lang in ("fr", "de"):
            with language(lang):
                text = prompt_text(prompt)
            assert not PLACEHOLDER.search(text), text
            if prompt not in ("",):
                assert text != prompt, (lang, prompt)
    assert prompt_text("Ana: play a card from your hand, or DRAW a card.") == \
        "Ana: play a card from your hand, or DRAW a card."
    with language("fr"):
        assert prompt_text("Ana: play a card from your hand, or DRAW a card.") == \
            "Ana\u202f: joue une carte de ta main, ou PIOCHE une carte."
        assert prompt_text("an unknown prompt stays English") == "an unknown prompt stays English"


def test_a_pasted_position_error_in_three_languages() -> None:
    def message(lang: str) -> str:
        with language(lang), pytest.raises(BuilderError) as e:
            PositionBuilder.from_yaml(BABY_IN_HAND)
        return str(e.value)

    assert message("en") == ("<pasted>: line 5, hands.Ben: Baby Unicorn (Blue) is a Baby Unicorn; Babies are "
                             "only ever in a Stable or the Nursery (setup.babies-never-in-hand)")
    fr, de = message("fr"), message("de")
    assert fr.startswith("<pasted>: ligne 5, hands.Ben: ") and "Nurserie" in fr
    assert de.startswith("<pasted>: Zeile 5, hands.Ben: ") and "Kindergarten" in de
    for text in (fr, de):  # a learner never reads a rule id
        assert "setup." not in text and not PLACEHOLDER.search(text)
        assert card_name("Baby Unicorn (Blue)", "fr" if text is fr else "de") in text


def test_builder_and_link_errors() -> None:
    b = PositionBuilder(["Ana", "Ben"])
    for lang, word in (("en", "the only copy"), ("fr", "le seul exemplaire"), ("de", "das einzige Exemplar")):
        with language(lang):
            b2 = PositionBuilder(["Ana", "Ben"])
            b2.place("Rhinocorn", "stable", "Ana")
            with pytest.raises(BuilderError) as e:
                b2.place("Rhinocorn", "hand", "Ben")
            assert word in str(e.value) and not PLACEHOLDER.search(str(e.value))
    assert b.players == ["Ana", "Ben"]
    for lang, word in (("en", "cut short"), ("fr", "coupée"), ("de", "abgeschnitten")):
        with language(lang), pytest.raises(LinkError) as e:
            from uu.scenario.link import position_code

            position_text(position_code("name: x\nplayers: [Ana, Ben]\n")[:-6])
        assert word in str(e.value) or "damaged" in str(e.value) or lang != "en"


@pytest.mark.parametrize("lang", ["fr", "de"])
def test_every_message_of_the_engine_and_scenario_is_translated(lang: str) -> None:
    mine = ("uu/engine/", "uu/scenario/", "uu/tutor/class_store.py")
    missing = []
    for m in _read(po_path(lang)):
        if not m.id or not any(loc.startswith(mine) for loc, _line in m.locations):
            continue
        strings = m.string if isinstance(m.string, tuple) else (m.string,)
        if m.fuzzy or not all(strings):
            missing.append(m.id)
        ids = m.id if isinstance(m.id, tuple) else (m.id,)
        want = set(PLACEHOLDER.findall(ids[-1]))
        for s in strings:  # the translation fills the same named fields (a plural may leave the count out)
            assert set(PLACEHOLDER.findall(s)) <= want | set(PLACEHOLDER.findall(ids[0])), (m.id, s)
    assert not missing, missing
    assert len(PROMPTS) == len(set(PROMPTS)) and len(LOG_LINES) == len(set(LOG_LINES))


def test_labels_of_every_legal_move_of_many_games() -> None:
    """English labels are the engine's own, byte for byte; French and German ones are filled and differ."""
    kinds: set[str] = set()
    for seed in range(6):
        g = new_game(["You", "Ben", "Cy"][: 2 + seed % 2], seed=seed)
        rng = random.Random(seed)
        for _step in range(300):
            d = g.pending
            if d is None:
                break
            for a in d.actions:
                assert g.describe(a) == a.describe(g.players)
                kinds.add(a.kind)
                for lang in ("fr", "de"):
                    with language(lang):
                        text = g.describe(a)
                    assert not PLACEHOLDER.search(text) and text != a.describe(g.players), (lang, text)
            g.push_legal(rng.choice(d.actions))
    assert {"play", "draw", "baby", "discard"} <= kinds


def test_a_pasted_file_with_an_unknown_card_or_duplicate_players() -> None:
    from uu.scenario.load import ScenarioFileError

    unknown = BABY_IN_HAND.replace("Baby Unicorn (Blue)", "Rhinocornn")
    twice = "name: x\nplayers: [Ana, Ana]\n"
    for lang, words, same in (("en", "line 5, hands.Ben.1: no card named 'Rhinocornn' in the catalog; did you mean",
                               "player names must be different"),
                              ("fr", "ligne 5, hands.Ben.1: aucune carte nommée 'Rhinocornn' dans le catalogue\u202f; "
                                     "voulais-tu dire", "les noms des joueurs doivent être différents"),
                              ("de", "Zeile 5, hands.Ben.1: keine Karte namens 'Rhinocornn' im Katalog; meintest du",
                               "die Namen müssen sich unterscheiden")):
        with language(lang):
            with pytest.raises(ScenarioFileError) as e:
                PositionBuilder.from_yaml(unknown)
            assert words in str(e.value), str(e.value)
            with pytest.raises(ScenarioFileError) as e:
                PositionBuilder.from_yaml(twice)
            assert same in str(e.value), str(e.value)


def test_every_what_of_the_catalog_has_its_words() -> None:
    """Each `what:` of a card's effect reaches prompts and the log as a phrase of the engine's: each has a
    translation (a new kind of card in the catalog must be added to uu/engine/movetext.py)."""
    from pathlib import Path

    import yaml

    import uu.cards
    from uu.engine import movetext, verb_handlers

    def whats(node: object) -> set[str]:
        if isinstance(node, dict):
            here = {str(node["what"])} if isinstance(node.get("what"), str) else set()
            return here.union(*(whats(v) for v in node.values()))
        if isinstance(node, list):
            return set().union(*(whats(v) for v in node))
        return set()

    found = whats(yaml.safe_load((Path(uu.cards.__file__).parent / "catalog.yaml").read_text(encoding="utf-8")))
    assert {"unicorn", "card", "this"} <= found
    for w in found:
        f = {"op": {"what": w}}
        assert verb_handlers._a_what(f) in movetext._WHATS, w  # type: ignore[arg-type]
        if w != "this":
            assert verb_handlers._what(f) in movetext._KINDS, w  # type: ignore[arg-type]
