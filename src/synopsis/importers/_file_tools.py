"""Tool calls that read or change files, renamed so Pi's file tracking sees them.

Pi's tracking (:mod:`synopsis.compaction.file_ops`) counts only calls named ``read``,
``write`` and ``edit`` with a string ``path`` argument. A mapped call keeps every argument
it had and gains ``path``; its result is filed under the new name.

Claude Code's ``Read``/``Write``/``Edit``/``MultiEdit``/``NotebookEdit`` map one to one.
Codex has no file tools as such: it changes files with ``apply_patch`` (a tool of its own,
or a heredoc given to the shell) and reads them with shell commands. A patch is mapped by
the files its headers name; a shell command is mapped to ``read`` only when it is one
plain command that prints one file (``cat F``, ``nl -ba F``, ``head``/``tail [-n N] F``,
``sed -n 'A,Bp' F``); anything with pipes, redirections, globs or several commands stays
a shell call.
"""

from __future__ import annotations

import re
import shlex
from dataclasses import dataclass
from typing import Any

_CLAUDE_FILE_TOOLS = {
    "Read": ("read", "file_path"),
    "Write": ("write", "file_path"),
    "Edit": ("edit", "file_path"),
    "MultiEdit": ("edit", "file_path"),
    "NotebookEdit": ("edit", "notebook_path"),
}


@dataclass(frozen=True, slots=True)
class MappedCall:
    name: str
    arguments: dict[str, Any]
    several_files: bool = False
    """A patch that changed more than one file: tracking sees the first (all are in ``paths``)."""


def map_claude_call(name: str, arguments: dict[str, Any]) -> MappedCall:
    known = _CLAUDE_FILE_TOOLS.get(name)
    if known is None:
        return MappedCall(name, arguments)
    pi_name, path_key = known
    path = arguments.get(path_key)
    if not isinstance(path, str):
        return MappedCall(name, arguments)
    return MappedCall(pi_name, {"path": path, **arguments})


_PATCH_HEADER = re.compile(r"^\*\*\*\s*(Add|Update|Delete) File:\s*(.+?)\s*$", re.MULTILINE)
_PATCH_MOVE = re.compile(r"^\*\*\*\s*Move to:\s*(.+?)\s*$", re.MULTILINE)
_HEREDOC_PATCH = re.compile(r"^\s*(?:apply_patch|applypatch)\s*<<")


def patch_files(patch: str) -> list[tuple[str, str]]:
    """``(operation, path)`` for each file header of an ``apply_patch`` patch, in order."""
    found = [(m.start(), m.group(1), m.group(2)) for m in _PATCH_HEADER.finditer(patch)]
    found += [(m.start(), "Move", m.group(1)) for m in _PATCH_MOVE.finditer(patch)]
    return [(operation, path) for _, operation, path in sorted(found)]


def map_patch(name: str, arguments: dict[str, Any], patch: str) -> MappedCall:
    """An ``apply_patch`` call as ``write`` (only new files) or ``edit`` (anything else)."""
    files = patch_files(patch)
    if not files:
        return MappedCall(name, arguments)
    paths = list(dict.fromkeys(path for _, path in files))
    pi_name = "write" if all(op == "Add" for op, _ in files) else "edit"
    mapped = {"path": paths[0], **arguments}
    if len(paths) > 1:
        mapped["paths"] = paths
    return MappedCall(pi_name, mapped, several_files=len(paths) > 1)


def shell_script(arguments: dict[str, Any]) -> str | None:
    """The script of a Codex shell call: ``cmd``, or ``command`` as a string or argv."""
    command = arguments.get("cmd", arguments.get("command"))
    if isinstance(command, str):
        return command
    if isinstance(command, list) and all(isinstance(part, str) for part in command):
        if len(command) >= 3 and command[1] in ("-lc", "-c") and command[0].endswith("sh"):
            return str(command[2])
        if command and command[0] in ("apply_patch", "applypatch") and len(command) == 2:
            return f"apply_patch <<'EOF'\n{command[1]}\nEOF"
        return shlex.join(command)
    return None


_SHELL_SPECIAL = re.compile(r"[|&;<>*?`$(){}\[\]\n]")
_READ_FORMS = (
    re.compile(r"^(?:cat|nl -ba|nl)\s+(?P<path>\S+)$"),
    re.compile(r"^(?:head|tail)(?:\s+-n\s*\d+|\s+-\d+)?\s+(?P<path>\S+)$"),
    re.compile(r"^sed -n\s+(?P<q>['\"]?)\d+(?:,\d+)?p(?P=q)\s+(?P<path>\S+)$"),
)


def _read_path(script: str) -> str | None:
    script = script.strip()
    for form in _READ_FORMS:
        match = form.match(script)
        if match is None:
            continue
        path = match.group("path")
        # The quotes of sed's range were matched above; the rest must be plain words.
        rest = script[: match.start("path")]
        rest = re.sub(r"'[^']*'|\"[^\"]*\"", "", rest)
        if _SHELL_SPECIAL.search(rest) or _SHELL_SPECIAL.search(path):
            return None
        return path.strip("'\"") or None
    return None


def map_codex_shell(name: str, arguments: dict[str, Any]) -> MappedCall:
    script = shell_script(arguments)
    if script is None:
        return MappedCall(name, arguments)
    if _HEREDOC_PATCH.match(script):
        return map_patch(name, arguments, script)
    path = _read_path(script)
    if path is not None:
        return MappedCall("read", {"path": path, **arguments})
    return MappedCall(name, arguments)
