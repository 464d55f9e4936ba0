"""The session builder: turns, rounds of tool calls, usage accounting and planted facts.

One ``random.Random(seed)`` drives every choice in a fixed order, so a seed names exactly
one session (byte for byte) and nothing depends on the clock or on global random state.
"""

from __future__ import annotations

import base64
import random
import time
import uuid
from dataclasses import dataclass
from typing import Any

from tests.synthetic import _outputs as sh
from tests.synthetic._fill import fill
from tests.synthetic._prose import (
    ANSWERS,
    ASSISTANT_PRE,
    BLOCKED_CLOSERS,
    CONSTRAINTS,
    CUSTOM_MESSAGES,
    ERRORS,
    FINAL_BLOCKED,
    FINAL_CLOSERS,
    FINAL_OPENERS,
    FINAL_POINTS,
    GOAL_SHORT,
    GOALS,
    IDENTIFIERS,
    KICKOFF,
    LABELS,
    PLAN_CLOSERS,
    PLAN_OPENERS,
    PLAN_STEPS,
    SESSION_NAMES,
    THINKING,
    USER_OPENERS,
    USER_REQUESTS,
)
from tests.synthetic._world import (
    LOGGERS_PY,
    LOGGERS_TS,
    NOUNS,
    ROLES,
    STATUSES,
    Module,
    World,
    build_world,
    pascal,
)

MODEL = "claude-sonnet-4-5"
PROVIDER = "anthropic"
API = "anthropic-messages"
# US$ per million tokens: input, output, cache read, cache write (Claude Sonnet 4.5).
PRICES = (3.0, 15.0, 0.30, 3.75)
THINKING_LEVELS = ("off", "minimal", "low", "medium", "medium", "high", "high")
TOOL_ID_ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"
ROUND_WEIGHTS = (8, 14, 16, 16, 13, 11, 9, 7, 6)  # P(0..8 tool rounds in a turn)
MAX_OUTPUT_CHARS = 50 * 1024  # Pi truncates read and bash output at 50 KB
TICKET_PREFIXES = ("PAY", "AUTH", "INFRA", "CORE", "OPS", "BILL", "PLAT", "SRE", "DATA")

# When (as a fraction of the session's entries) each kind of fact is planted. Spreading
# them out puts some in the part a compaction summarizes, some near the cut, some in the
# kept tail, which is what a fidelity benchmark needs.
FACT_SCHEDULE = (
    (0.00, "goal"),
    (0.00, "constraint"),
    (0.00, "ticket"),
    (0.06, "port"),
    (0.12, "constraint"),
    (0.22, "sha"),
    (0.33, "constraint"),
    (0.45, "url"),
    (0.55, "version"),
    (0.62, "commit"),
    (0.70, "constraint"),
    (0.82, "customer"),
)


@dataclass(frozen=True)
class PlantedFact:
    """A fact the generator planted, which a later compaction must keep.

    ``text`` is an exact substring of the message in entry ``entry_id``, so a fidelity
    check can test for it verbatim in a summary without any fuzzy matching.
    """

    kind: str  # "goal" | "constraint" | "identifier"
    text: str
    entry_id: str


@dataclass
class _Pending:
    """A fact waiting for its planting position."""

    at: int
    kind: str
    text: str
    sentence: str
    where: str  # "user" or "assistant"


@dataclass
class _Call:
    """One tool call and the result it will get."""

    id: str
    name: str
    args: dict[str, Any]
    result: str
    is_error: bool
    duration_ms: int


def iso(ms: int) -> str:
    """ISO 8601 in UTC with milliseconds and ``Z``, as JavaScript's ``toISOString``."""
    secs, milli = divmod(ms, 1000)
    return time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(secs)) + f".{milli:03d}Z"


class Builder:
    """Builds one session; call :meth:`build` once."""

    def __init__(self, seed: int, entries: int, language: str, start_time_ms: int) -> None:
        self.r = random.Random(seed)
        self.n = entries
        self.lang = language
        self.zh = language == "zh"
        self.now = start_time_ms
        self.start = start_time_ms
        self.entries: list[dict[str, Any]] = []
        self.ids: set[str] = set()
        self.parent: str | None = None
        self.facts: list[PlantedFact] = []
        self.world: World = build_world(self.r, self.zh)
        self.ctx_chars = 0
        self.system_tokens = self.r.randint(2600, 4200)
        self.chars_per_token = self.r.uniform(3.7, 4.2)
        self.thinking_level = self.r.choice(THINKING_LEVELS)
        self.focus: Module = self.r.choice(self.world.modules)
        self.user_ids: list[str] = []
        self.turn_edits: list[tuple[str, str, str]] = []
        self.turn_changed: list[str] = []
        self.dirty: list[str] = []  # modified since the last commit, for git status
        self.named = False
        self.ticket = ""
        self.pending = self._plan_facts()

    # ------------------------------------------------------------------ planting

    def _plan_facts(self) -> list[_Pending]:
        """Draw every fact value now, so values depend only on the seed."""
        r, w, lang = self.r, self.world, self.lang
        m = self.focus
        names = {
            "cls": m.cls,
            "method": m.methods[0],
            "noun": m.noun,
            "path": m.path,
            "n": r.randint(40, 900),
            "flag": "skip_cache" if w.py else "skipCache",
        }
        goal = fill(r.choice(GOALS[lang]), names)
        other = r.choice([x for x in w.modules if x is not m] or [m])
        cslots = {
            "cls": other.cls,
            "dir": w.protected_dir,
            "testcmd": w.test_cmd,
            "manifest": w.manifest,
            "n": r.choice((30, 40, 50, 60, 80)),
            "logger": r.choice(LOGGERS_PY if w.py else LOGGERS_TS),
        }
        constraints = [fill(c, cslots) for c in r.sample(CONSTRAINTS[lang], 4)]
        hexs = f"{r.getrandbits(40):010x}"
        values = {
            "ticket": f"{r.choice(TICKET_PREFIXES)}-{r.randint(100, 99999)}",
            "port": str(r.randint(10000, 65000)),
            "sha": hexs,
            "url": (
                f"https://stg-{r.getrandbits(24):06x}.{r.choice(('acme-internal.net', 'acme.dev'))}"
                f"/api/v{r.randint(1, 4)}/{r.choice(NOUNS)}s/{r.randint(1000, 99999)}"
            ),
            "version": f"{r.randint(1, 9)}.{r.randint(10, 60)}.{r.randint(1, 30)}",
            "customer": "cus_" + "".join(r.choices(TOOL_ID_ALPHABET, k=14)),
            "commit": f"{r.getrandbits(28):07x}",
        }
        self.ticket = values["ticket"]
        out: list[_Pending] = []
        ci = 0
        for frac, kind in FACT_SCHEDULE:
            at = int(frac * self.n)
            if kind == "goal":
                out.append(_Pending(at, "goal", goal, goal, "user"))
            elif kind == "constraint":
                c = constraints[ci]
                ci += 1
                out.append(_Pending(at, "constraint", c, c, "user"))
            else:
                v = values[kind]
                sentence = fill(r.choice(IDENTIFIERS[lang][kind]), {"v": v})
                where = "assistant" if kind == "commit" else "user"
                out.append(_Pending(at, "identifier", v, sentence, where))
        return out

    def _due(self, where: str) -> list[_Pending]:
        """Facts whose planting position has been reached, for a user or assistant message."""
        pos = len(self.entries)
        return [p for p in self.pending if p.where == where and p.at <= pos]

    # ------------------------------------------------------------------ entries

    def _new_id(self) -> str:
        while True:
            h = f"{self.r.getrandbits(32):08x}"
            if h not in self.ids:
                self.ids.add(h)
                return h

    def _emit(self, kind: str, fields: dict[str, Any]) -> str:
        eid = self._new_id()
        entry: dict[str, Any] = {
            "type": kind,
            "id": eid,
            "parentId": self.parent,
            "timestamp": iso(self.now),
        }
        entry.update(fields)
        self.entries.append(entry)
        self.parent = eid
        return eid

    def _tick(self, lo: int, hi: int) -> int:
        self.now += self.r.randint(lo, hi)
        return self.now

    def _left(self) -> int:
        return self.n - len(self.entries)

    # ------------------------------------------------------------------ build

    def build(self) -> tuple[dict[str, Any], list[dict[str, Any]], list[PlantedFact]]:
        r = self.r
        header = {
            "type": "session",
            "version": 3,
            "id": str(uuid.UUID(int=r.getrandbits(128), version=4)),
            "timestamp": iso(self.start),
            "cwd": self.world.cwd,
        }
        if self._left() > 0:
            self._tick(200, 900)
            self._emit("model_change", {"provider": PROVIDER, "modelId": MODEL})
        if self._left() > 0:
            self._tick(100, 3000)
            self._emit("thinking_level_change", {"thinkingLevel": self.thinking_level})
        first = True
        while self._left() > 0:
            if not first and self._left() >= 3:
                self._maybe_extra()
            if self._left() > 0:
                self._turn(first)
                first = False
        return header, self.entries, self.facts

    def _maybe_extra(self) -> None:
        r = self.r
        roll = r.random()
        if not self.named and self.user_ids and r.random() < 0.4:
            self._session_info()
            self.named = True
        elif roll < 0.03:
            self._bash_execution()
        elif roll < 0.06:
            self._custom_message()
        elif roll < 0.075 and self.user_ids:
            self._tick(500, 20_000)
            target = r.choice(self.user_ids[-5:])
            self._emit("label", {"targetId": target, "label": r.choice(LABELS)})
        elif roll < 0.082:
            self._tick(500, 20_000)
            self.thinking_level = r.choice([x for x in THINKING_LEVELS if x != self.thinking_level])
            self._emit("thinking_level_change", {"thinkingLevel": self.thinking_level})
        elif roll < 0.085:
            self._session_info()

    def _session_info(self) -> None:
        self._tick(200, 5000)
        slots = {"noun": self.focus.noun, "cls": self.focus.cls, "project": self.world.project}
        name = fill(self.r.choice(SESSION_NAMES[self.lang]), slots)
        self._emit("session_info", {"name": name})

    def _bash_execution(self) -> None:
        r, w, m = self.r, self.world, self.focus
        self._tick(5000, 120_000)
        pick = r.randrange(5)
        if pick == 0:
            cmd, out, code = sh.git_status(r, w, self.dirty)
        elif pick == 1:
            cmd, out, code = sh.git_log(r, w, count=r.randint(5, 15))
        elif pick == 2:
            cmd, out, code = sh.tests(r, w, m, fail=r.random() < 0.4, scope="all")
        elif pick == 3:
            cmd, out, code = sh.listing(r, w, m)
        else:
            cmd, out, code = sh.missing_tool(r, w)
        msg = {
            "role": "bashExecution",
            "command": cmd,
            "output": out,
            "exitCode": code,
            "cancelled": False,
            "truncated": False,
            "timestamp": self.now,
        }
        self.ctx_chars += len(cmd) + len(out)
        self._emit("message", {"message": msg})

    def _custom_message(self) -> None:
        r = self.r
        self._tick(200, 5000)
        kind, tmpl = r.choice(CUSTOM_MESSAGES[self.lang])
        slots = {
            "branch": r.choice(("main", "fix/retry-budget", "feature/idempotency")),
            "n": r.randint(1, 9),
            "m": r.randint(0, 6),
            "method": r.choice(self.focus.methods),
            "sha": self.world.head,
            "job": r.choice(("test (3.11)", "lint", "typecheck", "e2e")),
        }
        text = fill(tmpl, slots)
        content: str | list[dict[str, Any]]
        content = text if r.random() < 0.5 else [{"type": "text", "text": text}]
        self.ctx_chars += len(text)
        self._emit(
            "custom_message",
            {"customType": kind, "content": content, "display": True, "details": None},
        )

    # ------------------------------------------------------------------ turns

    def _slots(self) -> dict[str, object]:
        r, w, m = self.r, self.world, self.focus
        dep = m.dep or m
        return {
            "cls": m.cls,
            "method": r.choice(m.methods),
            "path": m.path,
            "test_path": m.test_path,
            "noun": m.noun,
            "status": r.choice(STATUSES),
            "dep": f"{dep.noun} {dep.role}",
            "error": r.choice(ERRORS),
            "testcmd": w.test_cmd,
            "n": r.randint(2, 9),
            "Rec": pascal(m.noun) + "Record",
            "goal_short": r.choice(GOAL_SHORT[self.lang]),
            "role": m.role,
        }

    def _pick_focus(self) -> None:
        r = self.r
        if r.random() < 0.55:
            return
        for _ in range(4):
            m = r.choice(self.world.modules)
            if not m.big or r.random() < 0.25:
                self.focus = m
                return

    def _turn(self, first: bool) -> None:
        r = self.r
        if not first:
            self._pick_focus()
        self.turn_edits = []
        self.turn_changed = []
        user_due = self._due("user")
        asst_due = self._due("assistant")
        rounds = self._plan_rounds()
        size = 2 + sum(1 + k for k in rounds)
        while size > self._left() and rounds:
            size -= 1 + rounds.pop()
        with_final = size <= self._left()
        # A commit fact needs a commit round and the final message that reports it.
        commit_fact = asst_due[0] if asst_due and with_final and rounds else None

        # One set of names per turn, so the assistant talks about what the user asked about.
        slots = self._slots()
        asked_commit = self._user_message(first, user_due, slots)
        commit = commit_fact is not None or (
            bool(rounds) and not first and (asked_commit or r.random() < 0.12)
        )
        last_failed = False
        for i, k in enumerate(rounds):
            # The first turn asks for a plan, so the agent only looks around.
            stage = "explore" if first else self._stage(i, len(rounds))
            last = i == len(rounds) - 1
            sha = commit_fact.text if commit_fact else None
            last_failed = self._round(stage, k, slots, commit and last, sha)
        if with_final:
            if first and rounds:
                self._plan_message(slots)
            elif not rounds:
                self._answer(slots)
            else:
                self._final(slots, last_failed, commit_fact)

    def _plan_rounds(self) -> list[int]:
        r = self.r
        count = r.choices(range(len(ROUND_WEIGHTS)), weights=ROUND_WEIGHTS)[0]
        return [r.choices((1, 2, 3), weights=(60, 25, 15))[0] for _ in range(count)]

    @staticmethod
    def _stage(i: int, total: int) -> str:
        if i == total - 1 and total > 1:
            return "verify"
        if i < max(1, round(total * 0.35)):
            return "explore"
        if i >= total * 0.75:
            return "verify"
        return "modify"

    def _user_message(self, first: bool, due: list[_Pending], slots: dict[str, object]) -> bool:
        """Append the user's message (with any facts due); True if it asks for a commit."""
        r, lang = self.r, self.lang
        if first:
            self._tick(2000, 60_000)
        elif r.random() < 0.02:
            self._tick(3_600_000, 14 * 3_600_000)  # back after a break
        else:
            self._tick(15_000, 600_000)
        goal = [p.sentence for p in due if p.kind == "goal"]
        facts = [p.sentence for p in due if p.kind != "goal"]
        fact_text = ""
        for s in facts:
            if fact_text and (not self.zh or fact_text[-1].isascii()):
                fact_text += " "
            fact_text += s
        if (fact_text and not self.zh) or (fact_text and fact_text[-1].isascii()):
            fact_text += " "
        asked = False
        if first:
            parts = goal + ([fact_text.strip()] if fact_text else [])
            parts.append(r.choice(KICKOFF[lang]))
            text = "\n\n".join(parts)
        else:
            request = fill(r.choice(USER_REQUESTS[lang]), slots)
            asked = "commit" in request or "提交吧" in request
            opener = r.choice(USER_OPENERS[lang])
            lead = ("\n\n".join(goal) + "\n\n") if goal else ""
            text = lead + opener + fact_text + request
            if r.random() < 0.2:
                # A second request in the same message, as people often batch them.
                text += "\n\n" + fill(r.choice(USER_REQUESTS[lang]), self._slots())
        content: str | list[dict[str, Any]]
        content = text if r.random() < 0.3 else [{"type": "text", "text": text}]
        msg = {"role": "user", "content": content, "timestamp": self.now}
        self.ctx_chars += len(text)
        eid = self._emit("message", {"message": msg})
        self.user_ids.append(eid)
        for p in due:
            self.facts.append(PlantedFact(p.kind, p.text, eid))
            self.pending.remove(p)
        return asked

    def _thinking_block(self, slots: dict[str, object]) -> dict[str, Any]:
        r = self.r
        count = 2 if r.random() < 0.4 else 1
        text = "\n\n".join(fill(t, slots) for t in r.sample(THINKING[self.lang], count))
        sig = base64.b64encode(r.randbytes(r.randint(90, 240))).decode("ascii")
        return {"type": "thinking", "thinking": text, "thinkingSignature": sig}

    def _assistant(
        self,
        content: list[dict[str, Any]],
        chars: int,
        stop: str,
    ) -> str:
        r = self.r
        started = self.now
        output = int(chars / self.chars_per_token) + r.randint(8, 60)
        self._tick(1200, 4000 + output * 12)
        inp = self.system_tokens + int(self.ctx_chars / self.chars_per_token)
        usage_cost = (
            inp * PRICES[0] / 1e6,
            output * PRICES[1] / 1e6,
        )
        msg = {
            "role": "assistant",
            "content": content,
            "api": API,
            "provider": PROVIDER,
            "model": MODEL,
            "usage": {
                "input": inp,
                "output": output,
                "cacheRead": 0,
                "cacheWrite": 0,
                "totalTokens": inp + output,
                "cost": {
                    "input": round(usage_cost[0], 8),
                    "output": round(usage_cost[1], 8),
                    "cacheRead": 0,
                    "cacheWrite": 0,
                    "total": round(usage_cost[0] + usage_cost[1], 8),
                },
            },
            "stopReason": stop,
            "timestamp": started,
        }
        self.ctx_chars += chars
        return self._emit("message", {"message": msg})

    def _wants_thinking(self, p: float) -> bool:
        return self.thinking_level != "off" and self.r.random() < p

    def _round(
        self, stage: str, k: int, slots: dict[str, object], commit: bool, sha: str | None
    ) -> bool:
        """One assistant message with ``k`` tool calls and their results.

        Returns True if a check (a bash command) failed, so the final answer can admit it.
        With ``commit`` the last call is a ``git commit`` (whose hash is ``sha`` if given).
        """
        r = self.r
        content: list[dict[str, Any]] = []
        chars = 0
        if self._wants_thinking(0.35):
            block = self._thinking_block(slots)
            content.append(block)
            chars += len(block["thinking"])
        pre = fill(r.choice(ASSISTANT_PRE[self.lang][stage]), slots) if r.random() < 0.5 else ""
        if pre:
            content.append({"type": "text", "text": pre})
            chars += len(pre)
        calls: list[_Call] = []
        seen: set[str] = set()
        for i in range(k):
            if commit and i == k - 1:
                calls.append(self._commit_call(sha))
                break
            # Parallel calls differ from each other: nobody reads one file twice at once.
            for _ in range(4):
                call = self._call(stage)
                key = call.name + str(call.args.get("path", call.args.get("command", "")))
                if key not in seen:
                    break
            seen.add(key)
            calls.append(call)
        for c in calls:
            content.append({"type": "toolCall", "id": c.id, "name": c.name, "arguments": c.args})
            chars += 30 + sum(len(str(v)) for v in c.args.values())
        self._assistant(content, chars, "toolUse")
        failed = False
        for c in calls:
            self.now += c.duration_ms
            msg = {
                "role": "toolResult",
                "toolCallId": c.id,
                "toolName": c.name,
                "content": [{"type": "text", "text": c.result}],
                "isError": c.is_error,
                "timestamp": self.now,
            }
            self.ctx_chars += len(c.result)
            self._emit("message", {"message": msg})
            failed = failed or (c.is_error and c.name == "bash")
        return failed

    def _final(self, slots: dict[str, object], last_failed: bool, commit: _Pending | None) -> None:
        r, lang = self.r, self.lang
        content: list[dict[str, Any]] = []
        chars = 0
        if self._wants_thinking(0.25):
            block = self._thinking_block(slots)
            content.append(block)
            chars += len(block["thinking"])
        opener = FINAL_BLOCKED[lang] if last_failed else FINAL_OPENERS[lang]
        parts = [fill(r.choice(opener), slots)]
        points = r.sample(FINAL_POINTS[lang], r.randint(1, 4))
        parts.append("\n".join("- " + fill(p, slots) for p in points))
        if commit is not None:
            parts.append(commit.sentence)
        closers = BLOCKED_CLOSERS[lang] if last_failed else FINAL_CLOSERS[lang]
        closer = fill(r.choice(closers), slots)
        if closer:
            parts.append(closer)
        text = "\n\n".join(parts)
        content.append({"type": "text", "text": text})
        chars += len(text)
        eid = self._assistant(content, chars, "stop")
        if commit is not None:
            self.facts.append(PlantedFact(commit.kind, commit.text, eid))
            self.pending.remove(commit)

    def _answer(self, slots: dict[str, object]) -> None:
        """A reply without tools: an explanation, an acknowledgement."""
        content: list[dict[str, Any]] = []
        chars = 0
        if self._wants_thinking(0.2):
            block = self._thinking_block(slots)
            content.append(block)
            chars += len(block["thinking"])
        text = fill(self.r.choice(ANSWERS[self.lang]), slots)
        content.append({"type": "text", "text": text})
        self._assistant(content, chars + len(text), "stop")

    def _plan_message(self, slots: dict[str, object]) -> None:
        """The first turn's answer: findings and a numbered plan, no changes yet."""
        r, lang = self.r, self.lang
        content: list[dict[str, Any]] = []
        chars = 0
        if self._wants_thinking(0.6):
            block = self._thinking_block(slots)
            content.append(block)
            chars += len(block["thinking"])
        steps = r.sample(PLAN_STEPS[lang], r.randint(3, 5))
        plan = "\n".join(f"{i}. {fill(step, slots)}" for i, step in enumerate(steps, 1))
        text = "\n\n".join((r.choice(PLAN_OPENERS[lang]), plan, r.choice(PLAN_CLOSERS[lang])))
        content.append({"type": "text", "text": text})
        chars += len(text)
        self._assistant(content, chars, "stop")

    # ------------------------------------------------------------------ tool calls

    def _tool_id(self) -> str:
        return "toolu_01" + "".join(self.r.choices(TOOL_ID_ALPHABET, k=22))

    def _call(self, stage: str) -> _Call:
        r = self.r
        roll = r.random()
        if stage == "explore":
            if roll < 0.5:
                return self._read()
            if roll < 0.7:
                return self._grep()
            return self._bash_explore()
        if stage == "modify":
            if roll < 0.62:
                return self._edit()
            if roll < 0.75:
                return self._write()
            if roll < 0.92:
                return self._read()
            return self._grep()
        return self._bash_verify()

    def _read(self) -> _Call:
        r, w, m = self.r, self.world, self.focus
        roll = r.random()
        if roll < 0.05:
            other = r.choice(ROLES)
            path = m.path.replace(m.role, other) if other != m.role else m.path + ".bak"
            if w.content(path) is None:
                msg = f"ENOENT: no such file or directory, open '{w.cwd}/{path}'"
                return _Call(self._tool_id(), "read", {"path": path}, msg, True, r.randint(3, 40))
        if roll < 0.6:
            path = m.path
        elif roll < 0.85:
            path = m.test_path
        elif roll < 0.95 and m.dep is not None:
            path = m.dep.path
        else:
            path = r.choice(w.extra_paths)
        text = w.content(path) or ""
        return _Call(self._tool_id(), "read", {"path": path}, _truncate_read(text), False,
                     r.randint(3, 60))  # fmt: skip

    def _grep(self) -> _Call:
        r, w, m = self.r, self.world, self.focus
        pattern = r.choice((r.choice(m.methods), m.cls, r.choice(m.methods), "TODO"))
        scope = r.choice(("src", ".", "tests" if w.py else "test"))
        paths = [m.path, m.test_path]
        if m.dep is not None:
            paths.append(m.dep.path)
        paths += [x.path for x in r.sample(w.modules, min(2, len(w.modules)))]
        if scope != ".":
            paths = [p for p in paths if p.startswith(scope + "/")]
        hits = w.grep(pattern, list(dict.fromkeys(paths)))
        text = "\n".join(hits) if hits else "No matches found"
        args = {"pattern": pattern, "path": scope}
        return _Call(self._tool_id(), "grep", args, text, False, r.randint(10, 300))

    def _edit(self) -> _Call:
        r, w, m = self.r, self.world, self.focus
        path = m.path if r.random() < 0.7 else m.test_path
        picked = w.pick_edit(path) if r.random() >= 0.07 else None
        if picked is None:
            # The model misremembers the text (indentation, a changed line): Pi rejects it.
            text = w.content(path) or ""
            lines = [x for x in text.split("\n") if len(x.strip()) > 10] or ["return None"]
            line = r.choice(lines)
            old = line[2:] if line.startswith("  ") else "  " + line
            new = w.rewrite_line(old) or old + (" # fixed" if w.py else " // fixed")
            args = {"path": path, "oldText": old, "newText": new}
            msg = (
                f"Could not find the exact text in {path}. The old text must match exactly "
                "including all whitespace and newlines."
            )
            return _Call(self._tool_id(), "edit", args, msg, True, r.randint(3, 30))
        old, new = picked
        self.turn_edits.append((path, old, new))
        self._touch(path)
        msg = (
            f"Successfully replaced text in {path}. "
            f"Changed {len(old)} characters to {len(new)} characters."
        )
        args = {"path": path, "oldText": old, "newText": new}
        return _Call(self._tool_id(), "edit", args, msg, False, r.randint(3, 40))

    def _write(self) -> _Call:
        r, w = self.r, self.world
        if r.random() < 0.5:
            for _ in range(5):
                noun, role = r.choice(NOUNS), r.choice(ROLES)
                if not any(x.noun == noun and x.role == role for x in w.modules):
                    break
            m = w.add_module(noun, role)
            path = m.path if r.random() < 0.5 else m.test_path
        else:
            path = self.focus.test_path
            w.files.pop(path, None)  # rewrite the test file from scratch
        text = w.content(path) or ""
        self._touch(path)
        size = len(text.encode("utf-8"))
        msg = f"Successfully wrote {size} bytes to {path}"
        args = {"path": path, "content": text}
        return _Call(self._tool_id(), "write", args, msg, False, r.randint(3, 40))

    def _bash_call(self, shell: sh.Shell, slow: bool) -> _Call:
        r = self.r
        cmd, out, code = shell
        args: dict[str, Any] = {"command": cmd}
        if slow and r.random() < 0.4:
            args["timeout"] = r.choice((60, 120, 300, 600))
        text = _truncate_bash(out, r) if out else "(no output)"
        if code != 0:
            text = f"{text.rstrip()}\n\nCommand exited with code {code}"
        dur = r.randint(2000, 45_000) if slow else r.randint(20, 900)
        return _Call(self._tool_id(), "bash", args, text, code != 0, dur)

    def _bash_explore(self) -> _Call:
        r, w, m = self.r, self.world, self.focus
        roll = r.random()
        if roll < 0.2:
            return self._bash_call(sh.git_status(r, w, self.dirty), False)
        if roll < 0.32:
            return self._bash_call(sh.git_log(r, w, count=r.randint(8, 20)), False)
        if roll < 0.44:
            return self._bash_call(sh.listing(r, w, m), False)
        if roll < 0.5:
            return self._bash_call(sh.line_counts(r, w), False)
        if roll < 0.78:
            fail = r.random() < 0.35
            return self._bash_call(sh.tests(r, w, m, fail=fail, scope="all"), True)
        if roll < 0.84:
            return self._bash_call(sh.missing_tool(r, w), False)
        if roll < 0.89:
            return self._bash_call(sh.script_crash(r, w, m), False)
        if roll < 0.93:
            return self._bash_call(sh.install(r, w), True)
        if roll < 0.965:
            return self._bash_call(sh.git_log_patch(r, w), False)
        return self._bash_call(sh.verbose_tests(r, w), True)

    def _bash_verify(self) -> _Call:
        r, w, m = self.r, self.world, self.focus
        roll = r.random()
        fail = r.random() < 0.4
        if roll < 0.55:
            scope = "one" if r.random() < 0.4 else "all"
            return self._bash_call(sh.tests(r, w, m, fail=fail, scope=scope), True)
        if roll < 0.7:
            return self._bash_call(sh.typecheck(r, w, m, fail=fail), True)
        if roll < 0.85:
            return self._bash_call(sh.lint(r, w, m, fail=fail), False)
        return self._bash_call(sh.git_diff(r, w, self.turn_edits), False)

    def _commit_call(self, sha: str | None) -> _Call:
        r, w, m = self.r, self.world, self.focus
        subject = sh.commit_subject(r, m)
        message = f"{self.ticket}: {subject}" if self.ticket else subject
        files = max(len(self.dirty), 1)
        self.dirty = []
        return self._bash_call(sh.git_commit(r, w, message, files, sha), False)

    def _touch(self, path: str) -> None:
        self.turn_changed.append(path)
        if path not in self.dirty:
            self.dirty.append(path)


def _truncate_read(text: str) -> str:
    """Pi's read tool shows at most 2,000 lines / 50 KB and says how to continue."""
    if len(text) <= MAX_OUTPUT_CHARS and text.count("\n") < 2000:
        return text
    head = text[:MAX_OUTPUT_CHARS]
    head = head[: head.rfind("\n")]
    lines = head.split("\n")[:2000]
    shown = len(lines)
    total = text.count("\n") + 1
    return "\n".join(lines) + (
        f"\n\n[Showing lines 1-{shown} of {total}. Use offset={shown + 1} to continue.]"
    )


def _truncate_bash(text: str, r: random.Random) -> str:
    """Pi's bash tool keeps the tail of long output and points at the full log."""
    if len(text) <= MAX_OUTPUT_CHARS:
        return text
    tail = text[-MAX_OUTPUT_CHARS:]
    tail = tail[tail.find("\n") + 1 :]
    total = text.count("\n") + 1
    shown = tail.count("\n") + 1
    log = f"/tmp/pi-bash-{r.getrandbits(32):08x}.log"
    return tail + f"\n\n[Showing lines {total - shown + 1}-{total} of {total}. Full output: {log}]"
