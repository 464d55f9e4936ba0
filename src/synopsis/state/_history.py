"""Git history rewrites: which commits a command (or the user) made no longer current.

A commit id the agent made is a handle later steps name — until the history is
rewritten. ``git reset HEAD~2`` undoes the last two commits, ``git commit --amend``
replaces the last one, ``git rebase`` / ``git filter-repo`` / ``git filter-branch`` /
BFG give every earlier commit a new id. A checkpoint that still names the old ids sends
the next agent to commits that no longer exist, so the ids a rewrite undid are retired
like any replaced value: gone from the checkpoint text, kept in the state for audit.

The same holds when the user says they did it themselves ("I've reset the previous
commit", "I rebased"; the cues are data, stages ``undo`` and ``rewrite`` in
:mod:`synopsis.state.rules`). A commit with the same subject as an earlier one is *not*
taken to replace it: "fix lint" twice is two commits.
"""

from __future__ import annotations

import re
import shlex
from dataclasses import dataclass
from typing import Literal

from synopsis.state._memo import remembered

Scope = Literal["all", "last", "after"]


@dataclass(frozen=True, slots=True)
class Rewrite:
    """What a history rewrite undid: every earlier commit, the last ``count``, or the
    commits made after ``since`` (a commit id)."""

    scope: Scope
    reason: str
    count: int = 0
    since: str = ""


_ALL_REWRITERS = ("filter-repo", "filter-branch")
_NOT_A_REWRITE = frozenset({"--abort", "--quit", "--show-current-patch", "--edit-todo"})
_BACK = re.compile(r"^(?:HEAD|@)(?:(?P<tildes>~+)(?P<n>\d*)|(?P<carets>\^+))$")
_SHA = re.compile(r"^[0-9a-f]{7,40}$")


_NAMES_A_REWRITER = re.compile(r"""g[\\"']*i[\\"']*t|b[\\"']*f[\\"']*g""")
"""A command that rewrites names ``git`` or ``bfg``, its letters perhaps parted by quotes
or backslashes that shell words drop (``g"i"t``): a command without it is not parsed."""


def command_rewrite(command: str) -> Rewrite | None:
    """The rewrite a shell command makes, if it makes one (its first such command)."""
    return None if _NAMES_A_REWRITER.search(command) is None else _rewrites(command)


def _first_rewrite(command: str) -> Rewrite | None:
    for line in command.split("\n"):
        for part in re.split(r"&&|\|\||;|\|", line):
            rewrite = _simple_rewrite(part.strip())
            if rewrite is not None:
                return rewrite
    return None


_rewrites = remembered(_first_rewrite)
"""Each command's first rewrite, remembered (a shell parse per part is slow)."""


def _simple_rewrite(part: str) -> Rewrite | None:
    try:
        words = shlex.split(part)
    except ValueError:
        return None
    if words and words[0] in ("bfg", "java") and any("bfg" in w for w in words):
        return Rewrite("all", "BFG")
    if len(words) < 2 or words[0] != "git":
        return None
    index = 1
    while index < len(words) and words[index] in ("-C", "-c"):
        index += 2  # ``git -C dir …``, ``git -c key=value …``
    if index >= len(words):
        return None
    verb, args = words[index], words[index + 1 :]
    reason = f"git {verb}"
    if verb in _ALL_REWRITERS:
        return Rewrite("all", reason)
    if verb == "rebase":
        return None if _NOT_A_REWRITE & set(args) else Rewrite("all", reason)
    if verb == "commit" and "--amend" in args:
        return Rewrite("last", "git commit --amend", count=1)
    if verb == "reset":
        refs = [a for a in args if not a.startswith("-")]
        ref = refs[0] if refs and "--" not in args else ""
        back = _BACK.match(ref)
        if not ref or (back is None and "/" in ref):
            return None  # unstaging paths, or a reset to another branch: nothing known undone
        if back is not None:
            if back.group("carets"):
                count = len(back.group("carets"))
            else:
                digits = back.group("n")
                count = int(digits) if digits else len(back.group("tildes"))
            return Rewrite("last", f"git reset {ref}", count=count) if count else None
        if _SHA.match(ref):
            return Rewrite("after", f"git reset {ref}", since=ref)
    return None


def undone(rewrite: Rewrite, commits: list[str]) -> list[str]:
    """The ids of ``commits`` (current ones, oldest first) that ``rewrite`` undid."""
    if rewrite.scope == "all":
        return list(commits)
    if rewrite.scope == "last":
        return commits[-rewrite.count :] if rewrite.count else []
    for index, sha in enumerate(commits):
        if sha.startswith(rewrite.since) or rewrite.since.startswith(sha):
            return commits[index + 1 :]
    return []  # reset to a commit made before this conversation: nothing we know of


_COMMIT = re.compile(r"^\[[^\]\s]+(?: \([^)]*\))? (?P<sha>[0-9a-f]{7,40})\] .+$")


def commit_of(outcome: str) -> str | None:
    """The id of the commit a ``git commit`` reported (``[main 6a1f0c2] fix: …``)."""
    match = _COMMIT.match(outcome.strip())
    return match.group("sha") if match else None
