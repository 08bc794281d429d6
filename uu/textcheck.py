"""One check for the short texts a learner types (the play screen's name, the sandbox's position name).

A name shows in headers and panels, so it may not hold what changes how the text around it is drawn: control
characters, and Unicode's format characters, among them the direction overrides and isolates (an unclosed
right-to-left override mirrored a seat's header) and zero-width characters. Separators other than the space
(line and paragraph separators) and code points that are not characters (surrogates, private use, unassigned)
are refused too. A length limit keeps a pasted 100 kB text from clipping the panel.
"""

from __future__ import annotations

import unicodedata

# Cc control, Cf format (bidi controls U+202A-U+202E and U+2066-U+2069, marks U+200E/U+200F, zero-width
# characters, the BOM), Cs surrogate, Co private use, Cn unassigned, Zl line and Zp paragraph separators
REFUSED_CATEGORIES = frozenset({"Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp"})
MAX_PLAYER_NAME = 40
MAX_POSITION_NAME = 120  # the longest shipped scenario name is 94


def text_problem(text: object, what: str, limit: int) -> str | None:
    """What is wrong with `text` as `what` (e.g. "your name"), or None if it may be shown as is."""
    if not isinstance(text, str):
        return f"{what} must be text"
    if len(text) > limit:
        return f"{what} is too long: at most {limit} characters ({len(text)} given)"
    if any(unicodedata.category(ch) in REFUSED_CATEGORIES for ch in text):
        return f"{what} cannot contain control or text-direction characters"
    return None
