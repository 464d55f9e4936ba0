"""Labelled conversations written by someone else: LoCoMo as ``synopsis eval --corpus`` cases.

LoCoMo (Maharana et al., ACL 2024; github.com/snap-research/locomo, ``data/locomo10.zip``)
holds ten very long conversations between two people over 19–32 sessions, each with
question–answer items whose ``evidence`` names the dialogue turns (``D3:5`` = session 3,
turn 5) that hold the answer. The benchmark's authors wrote the questions, answers and
evidence; this module only maps them, mechanically, onto the corpus format of
``../shared/fixtures/fidelity/README.md``:

* **turns** — every session in order; the first speaker (``speaker_a``) is the ``user``,
  the other the ``assistant``; each text starts with the speaker's name (``"Caroline: …"``),
  the first turn of a session with the session's number and date as LoCoMo gives them
  (``"[session 3, 7:55 pm on 9 June, 2023]"``), and a shared image is rendered as the
  benchmark's own evaluation renders it, `` [shares <caption>]``. Answers are looked for
  only in what the speaker said (text and caption), never in the name or the header.
* **truth** — one ``fact`` item per question whose answer stands *verbatim* in one of its
  evidence turns (case aside, on word boundaries): the token is that turn's own spelling
  of the answer, the item's ``turn`` the earliest such evidence turn, ``source`` its role.
  An answer that is a list ("Psychology, counseling certification") counts when every
  part (split at commas, semicolons and "and") stands in an evidence turn; the parts found
  in one turn form one item. An item whose tokens also stand together in another turn is
  tagged ``repeated``: any of those turns surviving keeps it, so it says less about what
  compaction kept than an item said once. Answers shorter than five characters without spaces are
  left out (they would match inside unrelated words), and so is every question whose
  answer the evidence does not state in so many words — the temporal answers LoCoMo's
  annotators computed from session dates ("The sunday before 25 May 2023"), inferred ones
  ("Likely no") and the adversarial category, whose questions have no answer in the
  conversation. Nothing is labelled that the benchmark did not label: no rules, goals,
  updates (LoCoMo has no knowledge-update questions, so no ``stale`` values), untrusted
  or noise items.
* each case records its ``source`` (repository, path, commit, sample) and ``conversion``
  counts: how many questions there were, how many became items, and why the rest did not.
"""

from __future__ import annotations

import json
import re
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from synopsis.eval.labels import contains

LOCOMO_REPO = "snap-research/locomo"
LOCOMO_PATH = "data/locomo10.zip"
LOCOMO_COMMIT = "e76cdff4a04fce19090596d49862fe87a5c15aaa"
"""The commit of ``data/locomo10.zip`` the committed subset was converted from."""

CATEGORIES = {1: "multi_hop", 2: "temporal", 3: "open_domain", 4: "single_hop", 5: "adversarial"}
"""LoCoMo's question categories (the numbers in its ``qa[].category``)."""

MIN_TOKEN_CHARS = 5
"""A shorter answer ("Yes", "2022", "art") would match inside unrelated words or numbers."""

_SESSION_KEY = re.compile(r"session_(\d+)")
_EVIDENCE = re.compile(r"D(\d+):(\d+)")
_PART_SEPARATOR = re.compile(r"\s*[,;]\s*(?:and\s+)?|\s+and\s+", re.IGNORECASE)
_MAX_TOKENS = 4
"""The corpus format allows 1–4 tokens per truth item."""


class ConversionError(ValueError):
    """The source is not a LoCoMo conversation this converter can read."""


@dataclass(frozen=True, slots=True)
class LocomoTurns:
    turns: list[dict[str, Any]]
    by_dialogue_id: dict[str, int]
    """LoCoMo's dialogue id (``D3:5``) → index into ``turns``."""
    spoken: list[str]
    """What each turn's speaker said (text and image caption), without the speaker's name
    and the session header: answers are looked for only there."""


def session_numbers(sample: Mapping[str, Any]) -> list[int]:
    """The numbers of the sessions that hold turns, in order (LoCoMo also lists dates of
    sessions it has no turns for)."""
    numbers = []
    for key, value in sample.items():
        match = _SESSION_KEY.fullmatch(key)
        if match and isinstance(value, list) and value:
            numbers.append(int(match.group(1)))
    return sorted(numbers)


def spoken_text(turn: Mapping[str, Any]) -> str:
    """What a LoCoMo dialogue turn says: its text and the caption of an image it shares."""
    text = str(turn.get("text") or "").strip()
    caption = turn.get("blip_caption")
    if isinstance(caption, str) and caption.strip():
        text += f" [shares {caption.strip()}]"
    return text.strip()


def locomo_turns(sample: Mapping[str, Any]) -> LocomoTurns:
    """Every session's turns as corpus turns (see the module docstring)."""
    roles = {sample.get("speaker_a"): "user", sample.get("speaker_b"): "assistant"}
    if None in roles or len(roles) != 2:
        raise ConversionError("a LoCoMo conversation names two speakers, speaker_a and speaker_b")
    turns: list[dict[str, Any]] = []
    by_id: dict[str, int] = {}
    spoken: list[str] = []
    for number in session_numbers(sample):
        date = str(sample.get(f"session_{number}_date_time") or "").strip()
        header = f"[session {number}, {date}]" if date else f"[session {number}]"
        for position, turn in enumerate(sample[f"session_{number}"]):
            if not isinstance(turn, Mapping) or turn.get("speaker") not in roles:
                raise ConversionError(f"session {number} turn {position}: unknown speaker")
            said = spoken_text(turn)
            text = f"{turn['speaker']}: {said}"
            if position == 0:
                text = f"{header}\n{text}"
            for dialogue_id in evidence_ids([turn.get("dia_id", "")])[:1]:
                by_id.setdefault(dialogue_id, len(turns))
            turns.append({"role": roles[turn["speaker"]], "text": text})
            spoken.append(said)
    if not turns:
        raise ConversionError("the conversation has no session with turns")
    return LocomoTurns(turns, by_id, spoken)


def evidence_ids(evidence: Iterable[object]) -> list[str]:
    """The dialogue ids an item's evidence names, normalised: LoCoMo sometimes lists several
    in one string (``"D8:6; D9:17"``) or pads a number (``"D30:05"``)."""
    ids: list[str] = []
    for entry in evidence:
        for match in _EVIDENCE.finditer(str(entry)):
            dialogue_id = f"D{int(match.group(1))}:{int(match.group(2))}"
            if dialogue_id not in ids:
                ids.append(dialogue_id)
    return ids


def find_verbatim(needle: str, text: str) -> str | None:
    """``text``'s own spelling of ``needle`` where it stands there whole (case aside, not
    inside a longer word), else None."""
    needle = needle.strip()
    if not needle:
        return None
    pattern = re.compile(rf"(?<!\w){re.escape(needle)}(?!\w)", re.IGNORECASE)
    match = pattern.search(text)
    return match.group(0) if match else None


def answer_parts(answer: str) -> list[str]:
    """The parts of a list answer ("A, B and C" → A, B, C); one part for any other answer."""
    cleaned = answer.strip().rstrip(".")
    parts = [p.strip() for p in _PART_SEPARATOR.split(cleaned)]
    return [p for p in parts if p]


def _long_enough(token: str) -> bool:
    return len("".join(token.split())) >= MIN_TOKEN_CHARS


def _locate(part: str, evidence: Sequence[int], spoken: Sequence[str]) -> tuple[int, str] | None:
    """The earliest evidence turn that states ``part``, with its spelling there."""
    for index in sorted(evidence):
        found = find_verbatim(part, spoken[index])
        if found is not None:
            return index, found
    return None


def _said_elsewhere(tokens: Sequence[str], index: int, turns: Sequence[Mapping[str, Any]]) -> bool:
    """Whether another turn holds all ``tokens`` too (under the scorer's matching rules)."""
    return any(
        other != index and all(contains(str(turn["text"]), token) for token in tokens)
        for other, turn in enumerate(turns)
    )


def qa_items(
    number: int, qa: Mapping[str, Any], located: LocomoTurns
) -> tuple[list[dict[str, Any]], str | None]:
    """The truth items for question ``number`` and, when there are none, why not."""
    number_of_category = qa.get("category")
    category = (
        CATEGORIES.get(number_of_category, "unknown")
        if isinstance(number_of_category, int)
        else "unknown"
    )
    answer = qa.get("answer")
    if category == "adversarial" or answer is None:
        return [], "no answer in the conversation (adversarial)"
    answer_text = str(answer)
    named = evidence_ids(qa.get("evidence") or ())
    evidence = [located.by_dialogue_id[d] for d in named if d in located.by_dialogue_id]
    if not evidence:
        return [], "no evidence turn"
    turns, spoken = located.turns, located.spoken
    whole = _locate(answer_text.strip().rstrip("."), evidence, spoken)
    if whole is not None:
        spots: list[tuple[int, str]] = [whole]
    else:
        parts = answer_parts(answer_text)
        spots = [spot for part in parts if (spot := _locate(part, evidence, spoken))]
        if len(parts) < 2 or len(spots) < len(parts):
            return [], "answer not verbatim in its evidence"
    if not all(_long_enough(token) for _, token in spots):
        return [], f"answer shorter than {MIN_TOKEN_CHARS} characters"
    by_turn: dict[int, list[str]] = {}
    for index, token in spots:
        if token not in by_turn.setdefault(index, []):
            by_turn[index].append(token)
    chunks = [
        (index, tokens[start : start + _MAX_TOKENS])
        for index, tokens in sorted(by_turn.items())
        for start in range(0, len(tokens), _MAX_TOKENS)
    ]
    items = []
    for position, (index, tokens) in enumerate(chunks):
        suffix = "" if len(chunks) == 1 else chr(ord("a") + position)
        tags = ["locomo", category]
        if len(chunks) > 1:
            tags.append("answer_part")
        if _said_elsewhere(tokens, index, turns):
            tags.append("repeated")
        items.append(
            {
                "id": f"q{number}{suffix}",
                "kind": "fact",
                "turn": index,
                "tokens": tokens,
                "source": turns[index]["role"],
                "tags": tags,
                "question": str(qa.get("question", "")),
                "answer": answer_text,
            }
        )
    return items, None


def locomo_case(sample: Mapping[str, Any], sample_id: str) -> dict[str, Any]:
    """One LoCoMo conversation as a corpus case (see the module docstring)."""
    located = locomo_turns(sample)
    qa = sample.get("qa")
    if not isinstance(qa, list):
        raise ConversionError("a LoCoMo conversation has a 'qa' list")
    truth: list[dict[str, Any]] = []
    skipped: Counter[str] = Counter()
    for number, item in enumerate(qa):
        if not isinstance(item, Mapping):
            raise ConversionError(f"qa item {number} is not an object")
        items, reason = qa_items(number, item, located)
        truth.extend(items)
        if reason:
            skipped[reason] += 1
    return {
        "id": f"locomo-{sample_id}",
        "setting": "personal_chat",
        "language": "en",
        "source": {
            "benchmark": "LoCoMo",
            "repo": LOCOMO_REPO,
            "path": LOCOMO_PATH,
            "commit": LOCOMO_COMMIT,
            "sample": sample_id,
            "speakers": {"user": sample["speaker_a"], "assistant": sample["speaker_b"]},
        },
        "conversion": {
            "questions": len(qa),
            "questions_mapped": len(qa) - sum(skipped.values()),
            "skipped": dict(sorted(skipped.items())),
        },
        "turns": located.turns,
        "truth": truth,
        "untrusted": [],
        "noise": [],
    }


def case_json(case: Mapping[str, Any]) -> str:
    """The committed form of a case: stable key order, one line per turn or label."""
    lines = ["{"]
    keys = list(case)
    for position, key in enumerate(keys):
        value = case[key]
        comma = "," if position < len(keys) - 1 else ""
        if isinstance(value, list) and value:
            rows = [json.dumps(row, ensure_ascii=False) for row in value]
            lines.append(f" {json.dumps(key)}: [")
            lines.extend(f"  {row}," for row in rows[:-1])
            lines.append(f"  {rows[-1]}")
            lines.append(f" ]{comma}")
        else:
            lines.append(f" {json.dumps(key)}: {json.dumps(value, ensure_ascii=False)}{comma}")
    lines.append("}")
    return "\n".join(lines) + "\n"
