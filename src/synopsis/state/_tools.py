"""Tool calls, their outcomes and the files they touched, from the tool events themselves.

Progress is never taken from anyone's prose: a call is ok, failed (with the first error
line of its result) or pending (no result yet) because the log says so. Files are those
the ``read`` / ``edit`` / ``write`` tools succeeded on (also inside a tool's
``nestedCalls``), with the sha256 of the content a ``write`` wrote or a whole-file
``read`` returned, and those a successful shell command moved, copied, removed or wrote
(``mv``, ``cp``, ``rm``, ``sed -i``, ``tee``, ``>``). A shell command's exit code is read
per command (``grep`` 1 = no match), and output that reports a failure (``{"ok": false}``,
a test run with failures) makes a failed call even when the tool did not flag it.

The lists are bounded: the oldest successful calls beyond a few hundred are folded into
per-tool counts, remembered by short digests so that merging the same messages again
does not bring them back.
"""

from __future__ import annotations

import re
import shlex
from dataclasses import replace
from typing import Any

from synopsis.messages import text_of, tool_arguments
from synopsis.state._commands import (
    SHELL_TOOLS,
    benign_exit,
    command_key,
    exit_code,
    file_effects,
)
from synopsis.state._errors import first_error_line, reported_failure
from synopsis.state._history import Rewrite, command_rewrite, commit_of
from synopsis.state._memo import remembered
from synopsis.state._text import cap, digest, normalize_ws, sha256
from synopsis.state.model import FileRecord, ToolCallRecord, ToolStatus, WorkingState

MAX_OK_CALLS = 400
MAX_FAILED_CALLS = 200
MAX_PENDING_CALLS = 200
MAX_TARGET = 160
WORKED_AROUND = "the request was reported done after it"
GIVEN_UP = "given up for another way"
"""The outcome of a failed call the assistant then turned away from ("I'll use the
`gcloud storage` command instead"): an approach that failed, no longer a blocker."""

_FILE_TOOLS = ("read", "edit", "write")
_CANONICAL = {
    "bash": "bash", "shell": "bash", "run_shell_command": "bash", "exec_command": "bash",
    "local_shell": "bash", "execute_command": "bash", "run_terminal_cmd": "bash",
    "read": "read", "read_file": "read", "view": "read", "readfile": "read",
    "write": "write", "write_file": "write", "create_file": "write", "writefile": "write",
    "edit": "edit", "multiedit": "edit", "edit_file": "edit", "replace_in_file": "edit",
    "str_replace": "edit", "apply_diff": "edit",
}  # fmt: skip
"""Other agents' names for the shell and file tools (Claude Code's ``Bash``, ``Read``,
``MultiEdit``; Gemini's ``run_shell_command``, ``read_file`` …): one call, one meaning."""
_PATH_KEYS = ("path", "file_path", "filePath", "notebook_path", "filename", "target_file")


def canonical_tool(name: str, arguments: dict[str, Any] | None = None) -> str:
    """The name our rules know a tool by; unknown tools keep theirs. A file tool named
    otherwise only counts as one when it says which file (else it is some other tool)."""
    known = _CANONICAL.get(name.lower())
    if known is None:
        return name
    if known in _FILE_TOOLS and arguments is not None and not _path_of(arguments):
        return name
    return known


_SUBAGENT_TOOLS = frozenset({"task", "agent", "subagent", "dispatch_agent", "spawn_agent"})


def is_subagent(name: str) -> bool:
    """Whether a tool hands work to another agent (Claude Code's ``Task``, OpenCode's
    ``task``): its result is that agent's report of what it did, read like the
    assistant's own."""
    return name.lower() in _SUBAGENT_TOOLS


_TODO_DONE = frozenset({"completed", "complete", "done", "finished"})
_TODO_OPEN = frozenset({"pending", "in_progress", "in-progress", "todo", "open", "active"})
_CHECKBOX = re.compile(r"^\s*(?:[-*]\s*)?\[(?P<mark>[ xX~-])\]\s+(?P<item>\S.*?)\s*$", re.M)
_TODO_TEXT_KEYS = ("content", "text", "title", "description", "task")


def todo_list(arguments: Any) -> tuple[list[str], list[str]] | None:
    """The items of a todo list a call writes (Claude Code's ``TodoWrite``, OpenCode's
    ``todowrite``, Cursor's ``todo_write``, Kilo's ``update_todo_list``: a ``todos``
    argument, a list of items with a status or a checklist of ``[x]`` / ``[ ]`` lines),
    as (done, still open) in their order; None for a call that writes none. The agent's
    plan says where the work stands, whatever the tool is called."""
    todos = arguments.get("todos") if isinstance(arguments, dict) else None
    done: list[str] = []
    still: list[str] = []
    if isinstance(todos, str):
        for match in _CHECKBOX.finditer(todos):
            (done if match["mark"] in "xX" else still).append(match["item"])
    elif isinstance(todos, list):
        for item in todos:
            if not isinstance(item, dict):
                continue
            text = next((v for k in _TODO_TEXT_KEYS if isinstance(v := item.get(k), str)), "")
            status = str(item.get("status", "")).lower()
            if text.strip() and status in _TODO_DONE:
                done.append(normalize_ws(text))
            elif text.strip() and status in _TODO_OPEN:
                still.append(normalize_ws(text))
    return (done, still) if done or still else None


def _path_of(arguments: dict[str, Any]) -> str | None:
    for key in _PATH_KEYS:
        value = arguments.get(key)
        if isinstance(value, str) and value.strip():
            return value
    return None


_VIEW_PROGRAMS = frozenset({"cat", "head", "tail", "less", "more", "grep", "rg", "egrep", "zcat",
                            "journalctl", "logs", "jq", "awk", "find", "ls", "git log", "git show",
                            "kubectl logs", "docker logs", "sed"})  # fmt: skip
"""Commands that show text: an error line in what they print is a finding, not a failure."""
_TARGET_KEYS = ("path", "file_path", "filePath", "file", "command", "cmd", "url", "pattern",
                "query", "name")  # fmt: skip
_VALUE_KEYS = ("command", "cmd", "url", "query")


class _Calls(dict[str, ToolCallRecord]):
    """Tool call records by call id, with the ids of the failures not yet got past (what
    :meth:`ToolLedger.close_request` looks at: a few, among thousands of calls)."""

    def __init__(self, records: tuple[ToolCallRecord, ...]) -> None:
        super().__init__()
        self.open_failures: dict[str, None] = {}
        for record in records:
            self[record.call_id] = record

    def __setitem__(self, call_id: str, record: ToolCallRecord) -> None:
        super().__setitem__(call_id, record)
        if record.status == "error" and record.outcome is None:
            self.open_failures[call_id] = None
        else:
            self.open_failures.pop(call_id, None)


class ToolLedger:
    """The tool calls and files of a working state under construction."""

    def __init__(self, state: WorkingState) -> None:
        self.calls = _Calls(state.tool_calls)
        self.files = {f.path: f for f in state.files}
        self.folded = dict.fromkeys(state.folded.tool_calls)
        self.ok_by_tool = dict(state.folded.ok_calls_by_tool)
        self.commands: dict[str, str] = {}
        """Full command text of the shell calls seen in this pass (targets are capped)."""
        self.request: str | None = None
        """Digest of the user request the calls from now on work on."""

    def call(self, call: dict[str, Any], entry_id: str | None, index: int) -> list[str]:
        """Record a tool call; returns its argument strings worth scanning for values."""
        name = call.get("name")
        name = name if isinstance(name, str) else ""
        raw_id = call.get("id")
        call_id = raw_id if isinstance(raw_id, str) and raw_id else f"{entry_id}#{index}:{name}"
        known = self.calls.get(call_id)
        if digest(call_id) in self.folded or (known is not None and known.called):
            return []
        arguments = _with_command_text(tool_arguments(call))
        name = canonical_tool(name, arguments)
        if name in _FILE_TOOLS and "path" not in arguments:
            arguments = {**arguments, "path": _path_of(arguments)}
        content = arguments.get("content")
        content_sha = sha256(content) if name == "write" and isinstance(content, str) else None
        ranged = name == "read" and ("offset" in arguments or "limit" in arguments)
        target = _target(name, arguments)
        # a file tool's stray "command" argument is no command: its effect is its path's
        command = None if name in _FILE_TOOLS else arguments.get("command") or arguments.get("cmd")
        if isinstance(command, str):
            self.commands[call_id] = command
        if known is not None:  # its result came first (out of order): complete the record
            self.calls[call_id] = replace(
                known,
                target=target,
                entry_id=entry_id,
                content_sha256=content_sha,
                ranged=ranged,
                called=True,
                request=self.request,
            )
            if known.status == "ok":
                self._effects(self.calls[call_id], "")
        else:
            self.calls[call_id] = ToolCallRecord(
                call_id, name, target, "pending", None, entry_id, None, content_sha, ranged,
                request=self.request,
            )  # fmt: skip
        return [
            cap(value, 2000)
            for value in (arguments.get(key) for key in _VALUE_KEYS)
            if isinstance(value, str)
        ]

    def result(self, message: dict[str, Any], entry_id: str | None) -> ToolCallRecord | None:
        """Record a tool result; returns the call it completed (None if merged before)."""
        raw_id = message.get("toolCallId")
        name = message.get("toolName")
        name = canonical_tool(name) if isinstance(name, str) else ""
        call_id = raw_id if isinstance(raw_id, str) and raw_id else f"{entry_id}:result:{name}"
        record = self.calls.get(call_id)
        if record is None:
            if digest(call_id) in self.folded:
                return None
            record = ToolCallRecord(call_id, name, "", called=False)
        elif record.status != "pending":
            return None  # this result was merged before
        text = text_of(message)
        record = _judged(record, message.get("isError") is True, text, self._command(record))
        record = replace(record, result_entry_id=entry_id)
        if record.status == "ok":
            self._effects(record, text)
        self.calls[call_id] = record
        self._nested(message.get("nestedCalls"), call_id)
        return record

    def rewrite_of(self, record: ToolCallRecord) -> Rewrite | None:
        """The git history rewrite a successful call made, if any."""
        command = self._command(record) if record.status == "ok" else None
        return command_rewrite(command) if command is not None else None

    def commits(self) -> list[str]:
        """The ids of the commits the calls made, oldest first."""
        made = (commit_of(r.outcome) for r in self.calls.values() if r.outcome)
        return [commit for commit in made if commit is not None]

    def _command(self, record: ToolCallRecord) -> str | None:
        if record.call_id in self.commands:
            return self.commands[record.call_id]
        return record.target if record.name in SHELL_TOOLS else None

    def _effects(self, record: ToolCallRecord, text: str) -> None:
        command = self._command(record)
        if command is not None:
            self._shell_files(command)
        else:
            self._file_effect(record, text)

    def _nested(self, nested: Any, parent: str) -> None:
        """The calls a tool made itself (Pi's ``nestedCalls``): their file effects."""
        calls = nested.get("calls") if isinstance(nested, dict) else None
        if not isinstance(calls, list):
            return
        for call in calls:
            if not isinstance(call, dict) or call.get("status") != "ok":
                continue
            name = call.get("name")
            arguments = call.get("arguments")
            if not isinstance(name, str) or not isinstance(arguments, dict):
                continue
            path = arguments.get("path")
            if name in _FILE_TOOLS and isinstance(path, str) and path:
                # no content of its own to hash: recorded like a ranged read
                self._file_effect(
                    ToolCallRecord(f"{parent}/nested", name, path, "ok", ranged=True), ""
                )
            command = arguments.get("command")
            if name in SHELL_TOOLS and isinstance(command, str):
                self._shell_files(command)

    def _shell_files(self, command: str) -> None:
        for effect in file_effects(command):
            known = self.files.get(effect.path)
            if effect.op == "renamed" and effect.new_path:
                moved = known or FileRecord(effect.path)
                self.files.pop(effect.path, None)
                self.files[effect.new_path] = replace(
                    moved, path=effect.new_path, modified=True, deleted=False
                )
            elif effect.op == "deleted":
                if known is not None:
                    self.files[effect.path] = replace(known, deleted=True, sha256=None,
                                                      sha256_source=None)  # fmt: skip
                else:
                    self.files[effect.path] = FileRecord(effect.path, deleted=True)
            elif effect.op == "read":
                self.files[effect.path] = replace(known or FileRecord(effect.path), read=True)
            else:
                current = known or FileRecord(effect.path)
                created = effect.op == "created" and known is None
                self.files[effect.path] = replace(
                    current,
                    created=current.created or created,
                    modified=current.modified or not created,
                    deleted=False,
                    sha256=None,
                    sha256_source=None,
                )

    def _file_effect(self, record: ToolCallRecord, text: str) -> None:
        if record.name not in _FILE_TOOLS or not record.target:
            return
        path = record.target
        known = self.files.get(path)
        current = known or FileRecord(path)
        if record.name == "read":
            if record.ranged:
                current = replace(current, read=True)
            else:
                current = replace(current, read=True, sha256=sha256(text), sha256_source="read")
        elif record.name == "edit":
            current = replace(current, modified=True, sha256=None, sha256_source=None)
        else:
            created = known is None or not (known.read or known.modified or known.created)
            current = replace(
                current,
                created=current.created or created,
                modified=current.modified or not created,
                sha256=record.content_sha256,
                sha256_source="write" if record.content_sha256 else None,
            )
        self.files[path] = current

    def shell(self, message: dict[str, Any], entry_id: str | None) -> str | None:
        """Record a command the user ran (``!cmd``); returns it, or None if merged before."""
        command = message.get("command")
        command = command if isinstance(command, str) else ""
        stamp = message.get("timestamp")
        call_id = f"user-bash:{entry_id}" if entry_id else f"user-bash:{stamp}:{cap(command, 80)}"
        if call_id in self.calls or digest(call_id) in self.folded:
            return None
        exit_code = message.get("exitCode")
        cancelled = message.get("cancelled") is True
        failed = cancelled or (
            isinstance(exit_code, int) and not isinstance(exit_code, bool) and exit_code != 0
        )
        error = None
        if failed:
            output = message.get("output")
            if isinstance(output, str) and output.strip():
                error = first_error_line(output)
            else:
                error = (
                    "(command cancelled)" if cancelled else f"Command exited with code {exit_code}"
                )
        target = cap(command.strip().split("\n", 1)[0], MAX_TARGET)
        status: ToolStatus = "error" if failed else "ok"
        outcome = benign_exit(command, exit_code if isinstance(exit_code, int) else None)
        if outcome and not cancelled:
            status, error = "ok", None
        self.calls[call_id] = ToolCallRecord(
            call_id, "user-bash", target, status, error, entry_id, entry_id,
            outcome=outcome, request=self.request,
        )  # fmt: skip
        if status == "ok":
            self._shell_files(command)
        return command

    def close_request(self, request: str, outcome: str = WORKED_AROUND) -> None:
        """The request was reported done (or the assistant turned to another way:
        ``outcome``): its failures so far were got past."""
        for call_id in list(self.calls.open_failures):
            record = self.calls.get(call_id)
            if (
                record is not None
                and record.request == request
                and record.status == "error"
                and record.outcome is None
            ):
                self.calls[call_id] = replace(record, outcome=outcome)

    def bounded_calls(self) -> list[ToolCallRecord]:
        """The calls to keep: the oldest beyond each status's limit are folded away."""
        records = list(self.calls.values())
        limits = {"ok": MAX_OK_CALLS, "error": MAX_FAILED_CALLS, "pending": MAX_PENDING_CALLS}
        counts = {"ok": 0, "error": 0, "pending": 0}
        for record in records:
            counts[record.status] += 1
        excess = {status: max(0, counts[status] - limits[status]) for status in counts}
        if not any(excess.values()):
            return records
        kept: list[ToolCallRecord] = []
        for record in records:
            if excess[record.status] > 0:
                excess[record.status] -= 1
                self.folded[digest(record.call_id)] = None
                if record.status == "ok":
                    self.ok_by_tool[record.name] = self.ok_by_tool.get(record.name, 0) + 1
                continue
            kept.append(record)
        return kept


def _judged(
    record: ToolCallRecord, flagged: bool, text: str, command: str | None
) -> ToolCallRecord:
    """The call's status from its result: a flagged failure unless the exit code means
    something else for this command; an unflagged result that reports a failure."""
    if flagged:
        benign = benign_exit(command, exit_code(text)) if command is not None else None
        if benign:
            return replace(record, status="ok", outcome=benign)
        return replace(record, status="error", error=first_error_line(text))
    failure = reported_failure(text)
    if failure is None:
        made = _made(command, text) if command is not None else None
        if made is None and _acts(record.name, command):
            made = reported_outcome(text)  # what it achieved, not what it showed
        return replace(record, status="ok", outcome=made or record.outcome)
    if record.name == "read" or (command is not None and shows_text(command)):
        return replace(record, status="ok", outcome=f"{_SHOWS}{failure}")
    return replace(record, status="error", error=failure)


_COMMIT_LINE = re.compile(r"^\[[^\]\s]+(?: \([^)]*\))? [0-9a-f]{7,40}\] .+$", re.MULTILINE)
_PR_URL = re.compile(r"https?://\S+/(?:pull|merge_requests|pulls)/\d+")


def _made(command: str, text: str) -> str | None:
    """What a successful command created that later steps name: the commit ``git commit``
    reports (``[main 6a1f0c2] fix: …``), the pull request ``gh pr create`` prints."""
    if re.search(r"\bgit (?:-C \S+ )?commit\b", command):
        found = _COMMIT_LINE.search(text)
        return cap(found.group().strip(), 160) if found else None
    if re.search(r"\b(?:gh pr|glab mr) create\b", command):
        url = _PR_URL.search(text)
        return url.group() if url else None
    return None


def names_made(outcome: str) -> bool:
    """Whether a call's outcome names what it made (a commit line, a pull request)."""
    return bool(_COMMIT_LINE.fullmatch(outcome) or _PR_URL.fullmatch(outcome))


def achieved(outcome: str | None) -> bool:
    """Whether a successful call's outcome says what it achieved (a test summary, a
    commit, "Applied edit to …") rather than what it found (no match, text it showed)."""
    if not outcome:
        return False
    return not (outcome.startswith(_SHOWS) or outcome.endswith(_BENIGN_END))


_SHOWS = "output shows: "
_BENIGN_END = "(exit 1)"
"""How :func:`_judged` and :func:`benign_exit` word a finding (keep them in step)."""


def shows_text(command: str) -> bool:
    """Whether a command shows text (a file, a search, a log) rather than acts."""
    key = command_key(command)
    return key in _VIEW_PROGRAMS or key.split(" ", 1)[0] in _VIEW_PROGRAMS


_SHELLS = frozenset({"bash", "sh", "zsh", "/bin/bash", "/bin/sh", "/bin/zsh"})


def _with_command_text(arguments: dict[str, Any]) -> dict[str, Any]:
    """Arguments whose ``command`` is an argv list (Codex: ``["bash", "-lc", "npm test"]``,
    ``["apply_patch", "*** Begin Patch …"]``) with the command as the text a shell runs:
    the script a shell is given, else the words joined."""
    command = arguments.get("command")
    if not isinstance(command, list) or not command:
        return arguments
    words = [w for w in command if isinstance(w, str)]
    if len(words) != len(command):
        return arguments
    if len(words) >= 3 and words[0] in _SHELLS and words[1] in ("-c", "-lc", "-l", "-ic"):
        text = words[-1]
    else:
        text = " ".join(shlex.quote(w) if "\n" not in w else w for w in words)
    return {**arguments, "command": text}


_OUTCOME_LINE = re.compile(
    r"^[ \t]*(?:[✓✔√]\s*)?(?:"
    r"(?:test result: \w+|Tests?:?|Test Files)\b.*\d+ pass(?:ed|ing)\b.*|"
    r".*\b\d+ (?:passed|passing|tests? passed|files? changed)\b.*|"
    r"Checked \d+ files?\b.*|No (?:fixes|changes|issues|errors)\b.*|"
    r"(?:Applied edit to|Success(?:fully)?|Created|Wrote|Updated|Deleted|Removed|Installed|"
    r"Added|Moved|Renamed|Built|Compiled|Finished|Done)\b.*|"
    # an effect in other words: a past-tense verb opening the line ("Saved working
    # directory …"), an object that "was rewritten", a creation under way ("Creating
    # gs://…"), an OK mark, a success word in any of our languages
    r"[A-Z][a-z]{2,}(?<!Need)(?<!Fail)(?<!Us)ed\b.*|"
    r"(?:Creating|Deleting|Removing|Copying|Moving|Uploading|Deploying|Writing|Saving|"
    r"Pushing|Publishing|Tagging)\s\S.*|"
    r"(?:\[OK\]|OK:|✓|✔)\s*\S.*|"
    r".*\b(?i:success(?:ful(?:ly)?)?|(?:was|were|has been|have been) (?:re)?(?:[a-z]{3,}ed|"
    r"written|made|built|set|sent|done))\b.*|"
    r".*(?:成功|已完成|完成しました|完了しました|erfolgreich|com sucesso|exitosamente|"
    r"avec succès|успешно|úspěšně).*"
    r")$",
    re.MULTILINE,
)
"""A line in which a command reports what it achieved: a test runner's summary, a
linter's count, a tool's "Applied edit to …", "Success. Updated the following files",
"State files deleted successfully", "Ref 'refs/heads/main' was rewritten"."""
_HARNESS_STATUS = re.compile(
    r"^(?:the )?(?:command|process|tool(?: call)?|operation) (?:executed|ran|completed|"
    r"finished|exited)(?: successfully)?[.!]?(?: \(exit (?:code|status) \d+\)[.!]?)?$|"
    r"^(?:no )?(?:error|failure)s?\b|\b(?:not|n't|un)successful|\bfailed\b|"
    r"^(?:still )?(?:waiting|retrying|polling|trying)\b|"
    r"\b\d+ (?:failed|errors?)\b(?<!\b0 failed)(?<!\b0 errors)(?<!\b0 error)",
    re.IGNORECASE,
)
"""A line that states no effect (the harness' ``Command executed successfully (exit code
0).``, a progress line: ``Waiting for … 2 of 6 replicas have been updated``) or a failure:
not what a call achieved."""
_MAX_OUTCOME_LINES = 3
MAX_OUTCOME_LINE = 160


@remembered
def reported_outcome(text: str) -> str | None:
    """What a successful call's output says it achieved, verbatim: its last few outcome
    lines (a test summary, the files an edit applied to), else None."""
    lines = [m.group().strip() for m in _OUTCOME_LINE.finditer(text[-_OUTCOME_SCAN:])]
    distinct = list(
        dict.fromkeys(
            cap(line, MAX_OUTCOME_LINE)
            for line in lines
            if line and (not _HARNESS_STATUS.search(line) or _PASSED.search(line))
        )
    )
    return "; ".join(distinct[-_MAX_OUTCOME_LINES:]) or None


_PASSED = re.compile(r"\b\d+ (?:passed|passing)\b.*\b0 failed\b|\b0 failed\b.*\b\d+ passed\b")


_OUTCOME_SCAN = 20_000
_FETCHERS = frozenset({"curl", "wget", "http", "https", "httpie", "xh", "lynx", "w3m"})
_LOOKUP_TOOL = re.compile(r"fetch|search|browse|web|http|url|query|lookup|get|list|view|read", re.I)


def _acts(name: str, command: str | None) -> bool:
    """Whether a call changes or checks something (a build, a test run, an agent's edit
    step) rather than shows text (a file, a page, a search): only then is its output's
    outcome line its own report and not somebody else's words."""
    if command is not None:
        return not shows_text(command) and command_key(command) not in _FETCHERS
    if name in _FILE_TOOLS:
        return False  # "Successfully replaced text in …": Done says which files were edited
    return not _LOOKUP_TOOL.search(name)


def _target(name: str, arguments: dict[str, Any]) -> str:
    """What a call acted on: the path of a file tool, else its first telling argument,
    else its short scalar arguments (``shard=3``): a tool we do not know still says what
    it was asked."""
    for key in _TARGET_KEYS:
        value = arguments.get(key)
        if isinstance(value, str) and value.strip():
            if name in _FILE_TOOLS and key == "path":
                return value
            return cap(value.strip().split("\n", 1)[0], MAX_TARGET)
    scalars = [
        f"{key}={value}"
        for key, value in arguments.items()
        if isinstance(value, (str, int, float)) and not isinstance(value, bool)
        and len(str(value)) <= 60 and "\n" not in str(value)
    ]  # fmt: skip
    return cap(", ".join(scalars[:3]), MAX_TARGET)
