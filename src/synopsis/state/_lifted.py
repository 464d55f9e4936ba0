"""A prohibition the user lifts later: "do not run the migration" → "run it now".

A request can hold an act back ("start with the models - do not run migration", "先不要推送")
and a later message allow it ("run bin/rails db:migrate now", "现在推送吧"). The prohibition
is then corrected information: left in the checkpoint, it tells the next agent the
opposite of what the user wants. The later message lifts it when it says the act is allowed
now (stage ``lift``) and names the same act — its verb and at least one more word of it —
without holding it back again. The cues are data (stages ``prohibit`` and ``lift`` in
:mod:`synopsis.state.rules`); this module matches the act.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from synopsis.state import _patterns as pat
from synopsis.state._memo import remembered_list
from synopsis.state.rules import any_match, rules

_LATIN = re.compile(r"[a-z][a-z0-9]{2,}")
_HAN_RUN = re.compile(r"[\u3400-\u9fff]+")
_NOT_AN_ACT_WORD = frozenset(
    {"the", "any", "yet", "for", "and", "but", "until", "unless", "before", "without", "this",
     "that", "with", "from", "into", "onto", "them", "todavía", "aún", "del", "los", "las"}
)  # fmt: skip
MIN_SHARED = 2
"""Words of the act the later message must name: its verb and one more."""


def act_words(act: str) -> list[str]:
    """The words of an act, in order: Latin words by their first five letters ("migration"
    and "migrate" are one), Han text by its character pairs."""
    words: list[str] = []
    for match in re.finditer(r"[\u3400-\u9fff]+|[a-z][a-z0-9]+", act):
        run = match.group()
        if _HAN_RUN.fullmatch(run):
            words += [run[i : i + 2] for i in range(max(1, len(run) - 1))]
        elif _LATIN.fullmatch(run) and run not in _NOT_AN_ACT_WORD:
            words.append(run[:5])
    return list(dict.fromkeys(words))


def _message_words(low: str) -> set[str]:
    return set(act_words(low)) | {w[:5] for w in re.findall(r"[a-z][a-z0-9]+", low)}


@remembered_list  # every message that lifts one asks each earlier text again
def prohibitions(text: str) -> list[tuple[str, str]]:
    """Each prohibition ``text`` states: (the words as written, the act they hold back;
    remembered per text)."""
    low = pat.lower_same(text)
    found: list[tuple[str, str]] = []
    for rule in rules("prohibit"):
        if not rule.applies_to(low):
            continue
        for match in rule.compiled.finditer(low):
            act = match.group("act").strip()
            found.append((text[match.start() : match.start("act") + len(act)].strip(), act))
    return found


def lifted(earlier: Iterable[str], message: str) -> list[str]:
    """The prohibitions, as written in ``earlier`` texts, that ``message`` lifts."""
    low = pat.lower_same(message)
    if not any_match("lift", low):
        return []
    again = {act for _, act in prohibitions(message)}
    said = _message_words(low)
    found: list[str] = []
    for text in earlier:
        for written, act in prohibitions(text):
            words = act_words(act)
            if act in again or any(act_words(held)[:1] == words[:1] for held in again):
                continue  # the message holds it back again ("don't run it now either")
            if words and words[0] in said and len(set(words) & said) >= MIN_SHARED:
                found.append(written)
    return list(dict.fromkeys(found))
