"""What a shell command did, read from its text and its exit code.

A non-zero exit code is not always a failure: ``grep`` and ``rg`` exit 1 when nothing
matched, ``diff``, ``cmp`` and ``git diff --exit-code`` when the inputs differ, ``test`` /
``[`` when the condition is false. And a command changes files without any file tool:
``mv``, ``cp``, ``rm``, ``git mv``, ``sed -i``, ``tee`` and redirections. Both are read
here from the command text only (no shell is run), per pipeline: the exit status of
``a && b | c`` is ``c``'s, the files of ``a; b`` are both commands'.
"""

from __future__ import annotations

import re
import shlex
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Literal

from synopsis.state._memo import remembered

FileOp = Literal["created", "modified", "deleted", "renamed", "read"]

_EXIT_CODE = re.compile(
    r"(?:exited with (?:code|status)|exit (?:code|status)|returned non-zero exit status)"
    r"[:= ]*(-?\d+)",
    re.IGNORECASE,
)
_WRAPPERS = frozenset({"sudo", "time", "nice", "nohup", "command", "exec", "env", "xargs"})
_SEPARATORS = frozenset({"&&", "||", ";", "|", "&", "|&", "\n", "(", ")"})
_REDIRECTS = frozenset({">", ">>", ">|", "&>", "&>>"})
_NO_MATCH = frozenset({"grep", "egrep", "fgrep", "rg", "ag", "ack", "pgrep", "zgrep"})
_DIFFERS = frozenset({"diff", "cmp", "colordiff"})
_CONDITION = frozenset({"test", "[", "[["})
_HEREDOC = re.compile(r"<<-?\s*(['\"]?)([A-Za-z_][A-Za-z0-9_]*)\1")
_ASSIGNMENT = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*=")
_SUBCOMMAND_TOOLS = frozenset(
    {"git", "npm", "pnpm", "yarn", "npx", "cargo", "go", "make", "docker", "kubectl", "uv",
     "poetry", "pip", "bun", "deno", "dotnet", "mvn", "gradle", "terraform", "helm", "aws"}
)  # fmt: skip


@dataclass(frozen=True, slots=True)
class FileEffect:
    op: FileOp
    path: str
    new_path: str | None = None
    """The destination of a rename."""


def exit_code(output: str) -> int | None:
    """The exit code a tool reported at the end of a command's output, if any."""
    found = _EXIT_CODE.findall(output[-2000:])
    return int(found[-1]) if found else None


def benign_exit(command: str, code: int | None) -> str | None:
    """What a non-zero exit of ``command`` means when it is not a failure, else None."""
    if code != 1:
        return None
    words = last_command(command)
    if not words:
        return None
    program = words[0].rsplit("/", 1)[-1]
    if program in _NO_MATCH or (program == "git" and words[1:2] == ["grep"]):
        return "no match (exit 1)"
    if program in _DIFFERS:
        return "differences found (exit 1)"
    if (
        program == "git"
        and words[1:2] == ["diff"]
        and ("--exit-code" in words or "--quiet" in words or "--no-index" in words)
    ):
        return "differences found (exit 1)"
    if program in _CONDITION:
        return "condition false (exit 1)"
    return None


def command_key(command: str) -> str:
    """The program (and subcommand) a command runs, for telling reruns of it apart from
    other commands: ``cd app && pytest -q tests/x.py`` → ``pytest``; ``npm run build 2>&1
    | tail -3`` → ``npm run build`` (the pipeline's producer, not its filter); ``git push
    -u origin b`` → ``git push``."""
    words = _producer(command)
    if not words:
        return command.strip()[:60]
    program = words[0].rsplit("/", 1)[-1]
    rest = [w for w in words[1:] if not w.startswith("-")]
    if program in ("python", "python3") and words[1:2] == ["-m"] and len(words) > 2:
        return f"python -m {words[2]}"
    if program in _SUBCOMMAND_TOOLS and rest:
        if program in ("npm", "pnpm", "yarn", "bun") and rest[0] == "run" and len(rest) > 1:
            return f"{program} run {rest[1]}"
        return f"{program} {rest[0]}"
    return program


def _producer(command: str) -> list[str]:
    """The first command of the last pipeline (``cd`` skipped)."""
    pipelines: list[list[list[str]]] = [[]]
    for words, _, separator in _parsed(command):
        if words and words[0] != "cd":
            pipelines[-1].append(words)
        if separator != "|" and pipelines[-1]:
            pipelines.append([])
    real = [p for p in pipelines if p]
    return real[-1][0] if real else []


def last_command(command: str) -> list[str]:
    """The words of the command whose exit status is the whole line's (wrappers, ``cd``
    and variable assignments skipped)."""
    commands = [c for c in _commands(command) if c and c[0] != "cd"]
    return commands[-1] if commands else []


def file_effects(command: str) -> list[FileEffect]:
    """The files a command creates, changes, removes or renames, in order."""
    effects: list[FileEffect] = []
    for words, redirects in _commands_with_redirects(command):
        effects.extend(FileEffect("modified", path) for path in redirects)
        if not words:
            continue
        program = words[0].rsplit("/", 1)[-1]
        args = [w for w in words[1:] if not w.startswith("-")]
        flags = [w for w in words[1:] if w.startswith("-")]
        if program == "git" and args[:1] in (["mv"], ["rm"]):
            program, args = args[0], args[1:]
        if program == "mv" and len(args) == 2:
            effects.append(FileEffect("renamed", args[0], args[1]))
        elif program == "cp" and len(args) == 2:
            effects.append(FileEffect("read", args[0]))
            effects.append(FileEffect("created", args[1]))
        elif program in ("rm", "unlink"):
            effects.extend(FileEffect("deleted", path) for path in args)
        elif program == "touch":
            effects.extend(FileEffect("created", path) for path in args)
        elif program == "tee":
            effects.extend(FileEffect("modified", path) for path in args)
        elif program in ("sed", "perl") and any(f.startswith(("-i", "--in-place")) for f in flags):
            effects.extend(FileEffect("modified", path) for path in _sed_files(words[1:]))
    return effects


def _sed_files(words: list[str]) -> list[str]:
    """The file operands of ``sed -i``: the words after its script (``-e`` scripts count)."""
    files: list[str] = []
    script_seen = False
    skip = False
    after_i = False
    for word in words:
        if skip:
            skip, script_seen = False, True
            continue
        if after_i and (word == "" or word.startswith(".")):
            after_i = False
            continue  # BSD sed's backup suffix: ``sed -i '' …``
        after_i = word == "-i"
        if word in ("-e", "--expression"):
            skip = True
        elif word.startswith("-"):
            continue
        elif not script_seen:
            script_seen = True
        else:
            files.append(word)
    return files


def _lines(command: str) -> Iterator[str]:
    """The command's lines, without the bodies of here-documents."""
    terminator: str | None = None
    for line in command.split("\n"):
        if terminator is not None:
            if line.strip() == terminator:
                terminator = None
            continue
        heredoc = _HEREDOC.search(line)
        if heredoc:
            terminator = heredoc.group(2)
            line = line[: heredoc.start()]
        yield line


def _tokens(line: str) -> list[str]:
    lexer = shlex.shlex(line, posix=True, punctuation_chars=";&|()<>")
    lexer.whitespace_split = True
    lexer.commenters = "#"
    try:
        return list(lexer)
    except ValueError:  # unbalanced quotes: a line we cannot read safely
        return []


def _commands(command: str) -> list[list[str]]:
    return [words for words, _ in _commands_with_redirects(command)]


def _commands_with_redirects(command: str) -> list[tuple[list[str], list[str]]]:
    """Each simple command's words (wrappers stripped) and the files it redirects into."""
    return [(words, redirects) for words, redirects, _ in _parsed(command)]


def _parsed(command: str) -> list[tuple[list[str], list[str], str]]:
    """(words, redirect targets, the separator that ends it) of each simple command (the
    lists are the caller's own; the parse is remembered per command)."""
    return [(list(words), list(redirects), end) for words, redirects, end in _parses(command)]


def _parse(command: str) -> tuple[tuple[tuple[str, ...], tuple[str, ...], str], ...]:
    result: list[tuple[list[str], list[str], str]] = []
    for line in _lines(command):
        words: list[str] = []
        redirects: list[str] = []
        tokens = _tokens(line)
        index = 0
        while index < len(tokens):
            token = tokens[index]
            if token in _SEPARATORS:
                result.append((_strip(words), redirects, token))
                words, redirects = [], []
            elif token in _REDIRECTS or token.endswith(">"):
                target = tokens[index + 1] if index + 1 < len(tokens) else ""
                index += 1
                if target and target[0] not in "&|" and target != "/dev/null":
                    redirects.append(target)
                if words and words[-1].isdigit():
                    words.pop()  # the file descriptor of ``2> file``
            elif token.startswith("<"):
                index += 1
            else:
                words.append(token)
            index += 1
        result.append((_strip(words), redirects, "\n"))
    return tuple((tuple(w), tuple(r), sep) for w, r, sep in result if w or r)


_parses = remembered(_parse)


def _strip(words: list[str]) -> list[str]:
    index = 0
    while index < len(words) and (words[index] in _WRAPPERS or _ASSIGNMENT.match(words[index])):
        index += 1
        if words[index - 1] == "timeout" and index < len(words):
            index += 1
    if index < len(words) and words[index] == "timeout":
        index += 2
    return words[index:]


FILE_TOOLS = frozenset({"read", "edit", "write"})
SHELL_TOOLS = frozenset({"bash", "shell", "user-bash", "exec_command", "run_shell_command"})


def resolution_key(name: str, target: str) -> tuple[str, ...]:
    """Which later success resolves a failed call: the same file for a file tool (a
    failed edit, then a write of that file), the same program (and subcommand) for a
    shell command, the same tool for any other tool (a booking that failed and then
    succeeded with other arguments was worked around)."""
    if name in FILE_TOOLS:
        return ("file", target)
    if name in SHELL_TOOLS:
        return ("shell", command_key(target))
    return (name,)


_SUBJECT = re.compile(
    r"(?<![\w./~@-])(?:[\w.~@-]+/)+[\w.@-]*|"
    r"(?<![\w/.-])[\w-]+(?:\.[\w-]+)*\.[A-Za-z][A-Za-z0-9]{0,4}\b"
)
_CD = re.compile(r"(?:^|&&|;)\s*cd\s+\S+\s*(?:&&|;)")
"""A ``cd dir &&`` step: where a command runs, not what it works on."""
_NO_SUBJECT = frozenset({".", "./", "../", "~/", "/", "/dev/", "/dev/null", "/tmp/"})
_NOT_A_CHECK = frozenset({
    "git add", "git commit", "git status", "git diff", "git log", "git show", "git stash",
    "git checkout", "git restore", "git reset", "rm", "mkdir", "cd", "echo", "printf", "cat",
    "ls", "mv", "cp", "touch", "which", "head", "tail", "grep", "rg", "find", "sed", "less",
    "chmod", "open", "code", "pwd", "wc", "stat", "file", "tree",
})  # fmt: skip
"""Commands whose success says nothing of whether a failure on the same files is past:
they show, move or record files rather than build, run or check them."""


def subjects(command: str) -> frozenset[str]:
    """The files and folders a command works on (``tests/test_auth.py``, ``transcripts/``,
    ``tsconfig.build.json``): what a failure was about, whichever program failed on it."""
    bare = _CD.sub(" ", command)
    # a bucket or store named by its URL (``gs://assets``, ``s3://logs/``): the same one
    # whichever tool acts on it (``gsutil mb`` failed, ``gcloud storage buckets create``)
    stores = {m.group().rstrip("/") for m in _STORE_URL.finditer(bare)}
    found = {m.group().rstrip("/") + ("/" if m.group().endswith("/") else "") for m in
             _SUBJECT.finditer(_STORE_URL.sub(" ", bare))}  # fmt: skip
    return frozenset(s for s in found | stores if s not in _NO_SUBJECT and len(s) >= 4)


_STORE_URL = re.compile(r"(?<![\w.+-])(?!https?://)[a-z][a-z0-9+.-]{1,9}://[^\s'\"<>|;&]+")


def checks_subjects(command: str) -> frozenset[str]:
    """The subjects of a command whose success shows that a failure on them is past (a
    build, a test run, a rewrite of the same files by another program): none for a
    command that only shows, moves or records files."""
    key = command_key(command)
    if key in _NOT_A_CHECK or key.split(" ", 1)[0] in _NOT_A_CHECK:
        return frozenset()
    return subjects(command)


def written_files(name: str, target: str) -> frozenset[str]:
    """The files a call writes (or, when it failed, meant to write): an ``edit`` /
    ``write`` tool's path, what a shell command creates, changes or renames into
    (``sed -i``, ``cat > f``, ``tee``, ``mv``). A failed write is got past by a later
    write of the same file through any tool: the edit that failed, then ``sed -i``; a
    ``cat > f <<EOF`` that failed, then the write tool."""
    if name in ("edit", "write"):
        return frozenset({_bare_path(target)}) if target else frozenset()
    if name not in SHELL_TOOLS:
        return frozenset()
    found: set[str] = set()
    for effect in file_effects(target):
        if effect.op in ("created", "modified"):
            found.add(_bare_path(effect.path))
        elif effect.op == "renamed" and effect.new_path:
            found.add(_bare_path(effect.new_path))
    return frozenset(found)


def _bare_path(path: str) -> str:
    return path[2:] if path.startswith("./") else path


def same_file(path: str, written: frozenset[str] | set[str]) -> bool:
    """Whether ``path`` is one of ``written``, allowing for one being relative to where
    the other is absolute (``src/app.ts`` and ``/home/me/proj/src/app.ts``)."""
    if path in written:
        return True
    return any(
        other.endswith("/" + path) or path.endswith("/" + other)
        for other in written
        if other.rsplit("/", 1)[-1] == path.rsplit("/", 1)[-1]
    )


_DIRTY_TREE = re.compile(
    r"\b(?:you have |there are |your local )?(?:unstaged|uncommitted|unmerged) changes\b|"
    r"\bplease commit (?:or stash )?(?:them|your changes)\b|"
    r"\b(?:working tree|working copy|index) (?:is|contains) (?:dirty|modifications)\b|"
    r"\byour local changes to the following files would be overwritten\b",
    re.IGNORECASE,
)
_CLEANS_TREE = re.compile(r"(?:^|[;&|]\s*)git\s+(?:stash|commit)\b")


def wants_clean_tree(error: str | None) -> bool:
    """Whether a command failed because the work tree held changes ("cannot rebase: You
    have unstaged changes", "Please commit or stash them", "Your local changes … would be
    overwritten"): whatever it was, a later stash or commit removes that cause."""
    return bool(error) and bool(_DIRTY_TREE.search(error or ""))


def cleans_tree(command: str) -> bool:
    """Whether a shell command stashes or commits the work tree's changes (``git stash``,
    ``git add -A && git commit -m …``)."""
    return bool(_CLEANS_TREE.search(command.strip()))
