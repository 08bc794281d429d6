"""Pydantic's validation errors in our own words, in the language in use.

Pydantic writes its messages in English ("List should have at least 2 items after validation, not 1"), and a
learner who pastes a scenario or loads a save must not read them. `validation_message` takes one error as
`ValidationError.errors()` gives it (a plain dict: its `type`, `ctx` and `msg`) and says the same thing with a
message of our catalog. A validator of ours that raises `ValueError` already wrote its message with `_()`, so it
is kept (without pydantic's "Value error, " prefix). An error type not listed here gets a general sentence rather
than pydantic's English. English keeps pydantic's message, which is already in the learner's language.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from uu.i18n import N_, _, current_language, ngettext

__all__ = ["validation_message"]

# pydantic error type -> our sentence; the placeholders are the names pydantic puts in the error's ctx
_MESSAGES = {
    "missing": N_("this field is required"),
    "extra_forbidden": N_("this field is not known here"),
    "int_type": N_("a whole number is needed here"),
    "int_parsing": N_("a whole number is needed here"),
    "int_from_float": N_("a whole number is needed here"),
    "float_type": N_("a number is needed here"),
    "float_parsing": N_("a number is needed here"),
    "bool_type": N_("true or false is needed here"),
    "bool_parsing": N_("true or false is needed here"),
    "string_type": N_("a text is needed here"),
    "list_type": N_("a list is needed here"),
    "tuple_type": N_("a list is needed here"),
    "dict_type": N_("a mapping (names with values) is needed here"),
    "model_type": N_("a mapping (names with values) is needed here"),
    "model_attributes_type": N_("a mapping (names with values) is needed here"),
    "none_required": N_("no value is allowed here"),
    "literal_error": N_("must be one of: {expected}"),
    "enum": N_("must be one of: {expected}"),
    "greater_than_equal": N_("must be {ge} or more"),
    "greater_than": N_("must be more than {gt}"),
    "less_than_equal": N_("must be {le} or less"),
    "less_than": N_("must be less than {lt}"),
}


def _count_message(kind: str, ctx: Mapping[str, Any]) -> str:
    # lengths need plural forms: "at least 1 item", "at least 2 items"
    if kind in ("too_short", "string_too_short"):
        n = int(ctx.get("min_length", 0))
        if kind == "string_too_short":
            return ngettext("must have at least {n} character", "must have at least {n} characters", n).format(n=n)
        actual = ctx.get("actual_length")
        need = ngettext("needs at least {n} entry", "needs at least {n} entries", n).format(n=n)
        return need if actual is None else _("{need}, not {actual}").format(need=need, actual=actual)
    n = int(ctx.get("max_length", 0))
    if kind == "string_too_long":
        return ngettext("may have at most {n} character", "may have at most {n} characters", n).format(n=n)
    actual = ctx.get("actual_length")
    most = ngettext("may have at most {n} entry", "may have at most {n} entries", n).format(n=n)
    return most if actual is None else _("{need}, not {actual}").format(need=most, actual=actual)


def validation_message(error: Mapping[str, Any]) -> str:
    """One pydantic error (an item of `ValidationError.errors()`) as a sentence of our catalog; in English,
    pydantic's own message (teachers' tools and their tests quote it)."""
    if current_language() == "en":
        return str(error.get("msg", ""))
    kind = str(error.get("type", ""))
    ctx: Mapping[str, Any] = error.get("ctx") or {}
    if kind in ("value_error", "assertion_error"):
        # our own validators' messages, written with _() where they were raised
        own = ctx.get("error")
        text = str(own) if own is not None else str(error.get("msg", ""))
        return text.removeprefix("Value error, ").removeprefix("Assertion failed, ")
    if kind in ("too_short", "too_long", "string_too_short", "string_too_long"):
        return _count_message(kind, ctx)
    template = _MESSAGES.get(kind)
    if template is None:
        return _("this value is not allowed here")
    fields = {k: str(v) for k, v in ctx.items()}
    if "expected" in fields:  # pydantic joins the allowed values with an English "or"
        fields["expected"] = re.sub(r"(['\"])\s+or\s+(['\"])", r"\1, \2", fields["expected"])
    try:
        return _(template).format(**fields)
    except (KeyError, IndexError):
        return _("this value is not allowed here")
