"""The guard's cut to a hard cap: it fits the cap, keeps every rule, and drops no line
that would still have fitted — a section a drop empties loses its heading too, and that
room goes back to the most important line that had to go."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from synopsis.state.guard import trim_to, without_empty_sections

SECTIONS = (
    "## Goal",
    "## Constraints & Preferences",
    "## Progress\n### Done",
    "### In Progress",
    "## Key Decisions",
    "## Critical Context",
)
RULES = "## Constraints & Preferences"


def checkpoint(parts: dict[str, list[str]]) -> str:
    blocks = [f"{title}\n" + "\n".join(parts[title]) for title in SECTIONS if parts.get(title)]
    return "\n\n".join(blocks) + "\n"


def test_the_room_an_emptied_heading_leaves_takes_back_a_later_goal() -> None:
    text = checkpoint(
        {
            "## Goal": ["- Plan the move of the lab servers.", "- Also book the van for Friday."],
            RULES: ["- Never power down rack B before 18:00."],
            "## Critical Context": ["- fact: The van company is Hollis Moving."],
        }
    )
    pinned = [
        "Plan the move of the lab servers.",
        "Also book the van for Friday.",
        "The van company is Hollis Moving.",
    ]
    # a few characters short of room for all but the fact; its emptied heading frees them
    cap = len(text) - len("- fact: The van company is Hollis Moving.") - 1 - 5
    cut = trim_to(text, cap, pinned)
    assert len(cut) <= cap
    assert "- Never power down rack B before 18:00." in cut
    assert "- Also book the van for Friday." in cut, cut


def test_a_text_within_the_cap_is_left_as_it_is() -> None:
    text = checkpoint({"## Goal": ["- Rename the bucket."], RULES: ["- Keep the old name."]})
    assert trim_to(text, len(text), []) == text


WORDS = st.sampled_from(
    ["north", "gate", "42", "invoice", "Ruth", "staging", "v2.1", "port", "7788", "keep"]
)
LINE = st.lists(WORDS, min_size=1, max_size=9).map(lambda words: "- " + " ".join(words))


@st.composite
def checkpoints(draw: st.DrawFn) -> tuple[str, list[str]]:
    parts: dict[str, list[str]] = {}
    seen: set[str] = set()
    for title in SECTIONS:
        lines = []
        for line in draw(st.lists(LINE, max_size=5)):
            if line not in seen:  # each line once, so what was dropped is unambiguous
                seen.add(line)
                lines.append(line)
        parts[title] = lines
    # what the guard pins stands in Goal and Critical Context (rules stay anyway)
    pinnable = sorted({*parts["## Goal"], *parts["## Critical Context"]})
    pinned = draw(st.lists(st.sampled_from(pinnable), max_size=4)) if pinnable else []
    return checkpoint(parts), [line[2:] for line in pinned]


def _floor(text: str) -> str:
    """What trim_to never drops: the rules and the first goal, with their headings."""
    lines = text.split("\n")
    kept, section, first_goal = [], "", True
    for line in lines:
        if line.startswith("#"):
            section = line
        elif line.startswith("- ") and not (
            section == RULES or (section == "## Goal" and first_goal)
        ):
            continue
        elif section == "## Goal":
            first_goal = False
        kept.append(line)
    return without_empty_sections("\n".join(kept))


@settings(max_examples=150, deadline=None)
@given(checkpoints(), st.floats(0.05, 1.2))
def test_the_cut_fits_keeps_the_rules_and_wastes_no_room(
    drawn: tuple[str, list[str]], share: float
) -> None:
    text, pinned = drawn
    cap = int(share * len(text))
    cut = trim_to(text, cap, pinned)
    lines = text.split("\n")
    rules = [line for line in lines if line.startswith("- ") and _section(lines, line) == RULES]
    assert all(rule in cut.split("\n") for rule in rules)  # a rule never goes
    assert len(cut) <= max(cap, len(_floor(text)))
    # every line that went would pass the cap if it came back where it stood
    out = set(cut.split("\n"))
    for line in lines:
        if line.startswith("- ") and line not in out:
            back = [o for o in lines if o in out or o == line or not o.startswith("- ")]
            assert len(without_empty_sections("\n".join(back))) > cap, line


def _section(lines: list[str], line: str) -> str:
    section = ""
    for other in lines:
        if other.startswith("#"):
            section = other
        if other == line:
            return section
    return section
