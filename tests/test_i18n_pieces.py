"""Sentences built from pieces (a name, a count, a card) read right in French and German whatever the pieces.

Every catalog message with a placeholder is rendered in both languages with names and cards that begin with a
vowel and with a consonant, feminine and masculine French cards, and, for the plural messages (ngettext), with
one and with several. The French text must elide before a vowel ("d’Ana", never "de Ana"); a French sentence
never makes a participle agree with a card it only names ("la carte {card} ne peut pas être jouée", so a
masculine card reads right too); German never puts an article of its own before a card it only names; a plural
message shows its singular for one and its plural for several. A count that is not a plural message is one a
reviewer has checked is never 1 (NEVER_ONE below, with the reason).
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from uu.i18n import _, language, ngettext

ROOT = Path(__file__).resolve().parents[1]
LANGS = ("fr", "de")
FIELD = re.compile(r"\{(\w+)(?:[:!][^}]*)?\}")
NAMES = ("Ana", "Bramble", "Élodie", "Ulrich")  # two begin with a vowel
# French cards: feminine, masculine, kept in English with a vowel; German: feminine, masculine, neuter
CARDS = {"fr": ("Licorne Séductrice", "Ralentissement", "Americorn", "Bébé Licorne (rouge)"),
         "de": ("Nanny Cam", "Winziger Stall", "Hai-Horn", "Americorn")}
COUNTS = ("count", "n", "copies", "left", "held", "games", "wins", "turns", "have", "need", "amount", "limit",
          "most", "mine", "letters", "number", "good", "size", "depth", "extra", "actual", "seconds", "refresh",
          "since", "turn", "percent", "lt", "gt", "le", "ge", "offset")
NAME_FIELDS = ("player", "name", "other", "owner", "who", "before_player", "learner", "winner")
CARD_FIELDS = ("card", "other_card", "kept", "brings")

# Counts outside ngettext, each read and found never to be 1 where the sentence is said (or shown as a bare
# number, in brackets or after a colon, where no noun agrees with it).
NEVER_ONE = {
    "2-player game: {count} cards are removed from the deck.": "the 2-player list removes many cards",
    "Now choose one of the {count} lit cards or places (Escape cancels).": "said only with 2 or more choices",
    "Pick one of the {count} choices.": "said only with 2 or more choices",
    "You DRAW {count} cards.": "the engine says 'a card' for one",
    "{player} DRAWs {count} cards.": "the engine says 'a card' for one",
    "You look at the top {count} cards and take one.": "Unicorn Oracle: always 3",
    "{player} looks at the top {count} cards and takes one.": "Unicorn Oracle: always 3",
    "{card} is placed {count} times ({where}) but the deck has {copies}": "more times than the copies: 2 or more",
    "{player} has {count} actions left this turn (an extra action); the scenario format cannot say so: export "
    "after the extra action": "an extra action leaves 2",
    "{move} could mean {count} legal actions: {options}. Say which (into, target, option).": "said when 2 or more match",
}
# The count a plural message turns on; the others (a total needed, a limit) are held at a typical value.
VARIED = ("count", "n", "have", "left", "held", "turns", "wins", "good", "mine", "amount", "extra", "actual")


def _catalog(lang: str):  # type: ignore[no-untyped-def]
    from babel.messages.pofile import read_po

    with (ROOT / "uu" / "i18n" / "locale" / lang / "LC_MESSAGES" / "uu.po").open("rb") as f:
        return read_po(f, locale=lang)


def _values(fields: set[str], lang: str, i: int, n: int) -> dict[str, object]:
    out: dict[str, object] = {}
    for f in fields:
        if f in NAME_FIELDS or f.endswith("player") or f == "players":
            out[f] = NAMES[i % len(NAMES)]
        elif f in CARD_FIELDS or f.endswith("card") or f == "cards":
            out[f] = CARDS[lang][i % len(CARDS[lang])]
        elif f in VARIED:
            out[f] = n
        elif f in COUNTS:
            out[f] = 7
        else:
            out[f] = f"<{f}>"
    return out


def _messages(lang: str) -> list[tuple[str | tuple[str, str], str | tuple[str, ...]]]:
    return [(m.id, m.string) for m in _catalog(lang) if m.id and FIELD.search(m.id[0] if isinstance(m.id, tuple)
                                                                              else m.id)]


def _render(msgid: str | tuple[str, str], lang: str, i: int, n: int) -> str:
    with language(lang):
        if isinstance(msgid, tuple):
            template = ngettext(msgid[0], msgid[1], n)
        else:
            template = _(msgid)
        fields = set(FIELD.findall(str(template))) | set(FIELD.findall(msgid if isinstance(msgid, str) else msgid[0]))
        return template.format(**_values(fields, lang, i, n))


@pytest.mark.parametrize("lang", LANGS)
def test_every_message_from_pieces_renders_with_every_kind_of_piece(lang: str) -> None:
    problems = []
    for msgid, _string in _messages(lang):
        for i in range(4):
            for n in (1, 3):
                text = _render(msgid, lang, i, n)
                if FIELD.search(text):
                    problems.append(f"{msgid!r}: a placeholder left in {text!r}")
                if lang == "fr":
                    for m in re.finditer(r"\b(?:[Dd]e|[Qq]ue|[Ll]e|[Ll]a|[Jj]usque) (?:Ana|Élodie|Ulrich|Americorn)\b",
                                         text):
                        problems.append(f"{msgid!r}: {m.group(0)!r} is not elided in {text!r}")
    assert not problems, "\n".join(problems[:30])


def test_french_elides_before_a_name_with_a_vowel_and_not_before_a_consonant() -> None:
    with language("fr"):
        assert _("Turn {number}: {player}'s turn begins.").format(number=2, player="Ana").endswith(
            "le tour d’Ana commence.")
        assert _("Turn {number}: {player}'s turn begins.").format(number=2, player="Bramble").endswith(
            "le tour de Bramble commence.")
        from uu.htmlsafe import esc

        assert "d’Élodie" in esc(_("Turn {number}: {player}'s turn begins.")).format(number=2, player="Élodie")
    with language("de"):
        assert "Ana" in _("Turn {number}: {player}'s turn begins.").format(number=2, player="Ana")


@pytest.mark.parametrize("lang", LANGS)
def test_a_plural_message_says_one_and_several_differently(lang: str) -> None:
    same = []
    for msgid, string in _messages(lang):
        if not isinstance(msgid, tuple) or not isinstance(string, tuple):
            continue
        one, many = _render(msgid, lang, 1, 1), _render(msgid, lang, 1, 3)
        if lang == "fr" and re.search(r"\b1 (?:cartes|Licornes|tours|éléments|caractères|joueurs|élèves)\b", one):
            same.append(f"{msgid[0]!r}: {one!r}")
        if lang == "de" and re.search(r"\b1 (?:Karten|Einhörner|Züge|Spielzüge|Einträge|Personen)\b", one):
            same.append(f"{msgid[0]!r}: {one!r}")
        if one == many:
            same.append(f"{msgid[0]!r}: one and several both read {one!r}")
    assert not same, "\n".join(same)


@pytest.mark.parametrize("lang", LANGS)
def test_a_count_outside_a_plural_message_was_checked_never_to_be_one(lang: str) -> None:
    noun = {"fr": r"\{(?:count|n|copies)\} (?:cartes|Licornes|fois|tours|exemplaires|actions)",
            "de": r"\{(?:count|n|copies)\} (?:Karten|Einhörner|Züge|Spielzüge|Mal|Aktionen)"}[lang]
    unchecked = [msgid for msgid, string in _messages(lang)
                 if isinstance(msgid, str) and isinstance(string, str) and re.search(noun, string)
                 and msgid not in NEVER_ONE and not msgid.startswith("{count} ")]
    assert not unchecked, "\n".join(unchecked)


def test_french_never_makes_a_participle_agree_with_a_card_it_only_names() -> None:
    agree = re.compile(r"(?<!carte )\{(?:card|other_card)\}(?: ne)? (?:est|soit|sera|serait|a été|peut(?: pas)? "
                       r"être|doit être)(?: pas| déjà)? \w+(?:ée|ées|ÉE|ÉES)\b")
    bad = [s for _id, string in _messages("fr") for s in (string if isinstance(string, tuple) else (string,))
           if agree.search(s)]
    assert not bad, "\n".join(bad)
    assert agree.search("{card} ne peut pas être jouée maintenant")
    assert not agree.search("La carte {card} ne peut pas être jouée maintenant")


def test_german_never_puts_its_own_article_before_a_card_it_only_names() -> None:
    article = re.compile(r"\b(?:[Dd]er|[Dd]ie|[Dd]as|[Dd]en|[Dd]em|[Ee]ine?[mnr]?|[Dd]eine?[mnr]?) \{(?:card|other_card)\}")
    bad = [s for _id, string in _messages("de") for s in (string if isinstance(string, tuple) else (string,))
           if article.search(s)]
    assert not bad, "\n".join(bad)
    assert article.search("Spiele das {card}") and not article.search("Spiele die Karte {card}")
