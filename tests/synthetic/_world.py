"""The imaginary repository a generated session works on.

A session only looks real if its tool results agree with each other: a file read twice
shows the same text, an edit's ``oldText`` is really in the file, a later read shows the
edit, grep finds lines that exist. So the generator keeps one small world per session (a
project with modules, tests and a few config files) and every tool result is derived from
it. File contents are produced lazily, on first use, from templates filled with the
session's own names, which keeps a 100,000-entry session cheap to generate.
"""

from __future__ import annotations

import random
import re
from dataclasses import dataclass, field

from tests.synthetic._fill import fill

CODENAMES = (
    "ledgerline", "tessera", "harbor", "quillmate", "driftwood", "lumen", "orchard",
    "beacon", "cinder", "meridian", "kestrel", "saltmarsh", "foundry", "parcel", "wayfarer",
    "tinder-box", "bramble", "juniper", "cobalt", "halyard",
)  # fmt: skip

NOUNS = (
    "session", "invoice", "refund", "ledger", "token", "webhook", "order", "tenant", "quota",
    "audit", "report", "schedule", "payment", "account", "message", "upload", "invite",
    "cart", "shipment", "catalog", "metric", "export", "coupon", "profile", "notification",
)  # fmt: skip

ROLES = (
    "store", "service", "client", "processor", "validator", "parser", "router", "handler",
    "repository", "manager", "scheduler", "serializer", "cache", "builder", "dispatcher",
    "resolver",
)  # fmt: skip

VERBS = (
    "load", "save", "fetch", "flush", "apply", "validate", "normalize", "merge", "resolve",
    "settle", "retry", "parse", "render", "emit", "expire", "refresh", "reconcile", "split",
    "schedule", "cancel", "lookup", "prune", "serialize", "snapshot", "compact", "collect",
)  # fmt: skip

OBJECTS = (
    "entry", "batch", "items", "record", "key", "window", "pending", "totals", "headers",
    "cursor", "page", "chunk", "event", "snapshot", "state", "row",
)  # fmt: skip

STATUSES = ("pending", "settled", "failed", "expired", "cancelled", "draft", "archived")
EXCEPTIONS_PY = ("TimeoutError", "ConnectionError", "StaleRecordError", "UpstreamError")
EXCEPTIONS_TS = ("TimeoutError", "FetchError", "StaleRecordError", "UpstreamError")
PROTECTED_DIRS = ("migrations", "vendor", "generated", "legacy", "third_party")
LOGGERS_PY = ("structlog", "the `log` module logger", "`logging.getLogger(__name__)`")
LOGGERS_TS = ("the `logger` from src/log.ts", "`pino`", "the shared `log` helper")

PURPOSES = (
    "keeps «noun» state consistent when the same request is retried",
    "talks to the upstream «noun» API and hides its pagination",
    "owns the in-memory «noun» cache and its expiry rules",
    "turns raw «noun» payloads into validated records",
    "batches «noun» writes so the database sees one transaction per flush",
    "decides which «noun»s are due and hands them to the workers",
)

# Fields every record has (id, status, ...) are written by the module writers; these are
# the optional extras, sampled per record so that records differ between modules.
PY_FIELDS = (
    ("amount", "int"), ("currency", "str"), ("created_at", "datetime"),
    ("payload", "dict[str, Any]"), ("expires_at", "datetime | None"), ("note", "str"),
    ("external_ref", "str"), ("priority", "int"),
)  # fmt: skip

TS_FIELDS = (
    ("amount", "number"), ("currency", "string"), ("createdAt", "Date"),
    ("payload", "Record<string, unknown>"), ("expiresAt", "Date | null"), ("note", "string"),
    ("externalRef", "string"), ("priority", "number"),
)  # fmt: skip

# (argument names, argument type, return type, body); bodies are indented for a method.
Body = tuple[tuple[str, ...], str, str, str]

PY_BODIES: tuple[Body, ...] = (
    (
        ("key", "record_id"),
        "str",
        "«Rec»",
        """        if not «a»:
            raise ValueError("«a» must not be empty")
        record = self._cache.get(«a»)
        if record is None:
            record = self._«dep».load(«a»)
            self._cache[«a»] = record
        return record
""",
    ),
    (
        ("items", "records"),
        "list[«Rec»]",
        "int",
        """        total = 0
        for item in «a»:
            if item.status == "«status»":
                continue
            total += item.amount
        log.debug("«verb»: %d items, total=%d", len(«a»), total)
        return total
""",
    ),
    (
        ("record",),
        "«Rec»",
        "«Rec»",
        """        attempt = 0
        while True:
            try:
                return self._«dep».«verb»(«a», timeout=self._timeout)
            except «exc» as exc:
                attempt += 1
                if attempt >= self._max_retries:
                    raise
                delay = min(2**attempt * 0.1, «C»)
                log.warning("«verb» failed (%s), retrying in %.1fs", exc, delay)
                time.sleep(delay)
""",
    ),
    (
        ("record",),
        "«Rec»",
        "str",
        """        payload = {
            "id": «a».id,
            "status": «a».status,
            "updated_at": «a».updated_at.isoformat(),
        }
        return json.dumps(payload, sort_keys=True)
""",
    ),
    (
        ("clear", "drain"),
        "bool",
        "int",
        """        with self._lock:
            pending = list(self._pending)
            if «a»:
                self._pending.clear()
        for entry in pending:
            self._«dep».write(entry)
        return len(pending)
""",
    ),
    (
        ("raw", "line"),
        "str",
        "tuple[str, list[str]]",
        """        parts = [p.strip() for p in «a».split("«sep»") if p.strip()]
        if len(parts) < 2:
            raise «exc»(f"malformed «noun»: {«a»!r}")
        key, *rest = parts
        return key.lower(), rest
""",
    ),
    (
        ("tenant", "tenant_id"),
        "str | None",
        "dict[str, list[«Rec»]]",
        """        result: dict[str, list[«Rec»]] = {}
        for rec in self._cache.values():
            if «a» is not None and rec.tenant_id != «a»:
                continue
            result.setdefault(rec.status, []).append(rec)
        return result
""",
    ),
    (
        ("amount", "cents"),
        "int",
        "float",
        """        if «a» < 0:
            raise ValueError(f"«a» must be >= 0, got {«a»}")
        return round(«a» * self._rate, «n»)
""",
    ),
    (
        ("cutoff", "older_than"),
        "datetime",
        "list[str]",
        """        expired = [key for key, rec in self._cache.items() if rec.updated_at < «a»]
        for key in expired:
            del self._cache[key]
        if expired:
            log.info("pruned %d stale «noun»s", len(expired))
        return expired
""",
    ),
    (
        ("record",),
        "«Rec»",
        "None",
        """        if «a».version < self._min_version:
            raise «exc»(f"«noun» {«a».id} is at version {«a».version}")
        «a».attempts += 1
        «a».updated_at = datetime.now(timezone.utc)
        self._«dep».save(«a»)
""",
    ),
)

TS_BODIES: tuple[Body, ...] = (
    (
        ("key", "recordId"),
        "string",
        "Promise<«Rec»>",
        """    if (!«a») throw new Error("«a» must not be empty");
    const cached = this.cache.get(«a»);
    if (cached) return cached;
    const record = await this.«dep».load(«a»);
    this.cache.set(«a», record);
    return record;
""",
    ),
    (
        ("items", "records"),
        "«Rec»[]",
        "number",
        """    let total = 0;
    for (const item of «a») {
      if (item.status === "«status»") continue;
      total += item.amount;
    }
    log.debug(`«verb»: ${«a».length} items, total=${total}`);
    return total;
""",
    ),
    (
        ("record",),
        "«Rec»",
        "Promise<«Rec»>",
        """    for (let attempt = 1; ; attempt++) {
      try {
        return await this.«dep».«verb»(«a», { timeoutMs: this.timeoutMs });
      } catch (err) {
        if (!(err instanceof «exc») || attempt >= this.maxRetries) throw err;
        const delay = Math.min(2 ** attempt * 100, «C»);
        log.warn(`«verb» failed (${err.message}), retrying in ${delay}ms`);
        await sleep(delay);
      }
    }
""",
    ),
    (
        ("record",),
        "«Rec»",
        "string",
        """    return JSON.stringify({
      id: «a».id,
      status: «a».status,
      updatedAt: «a».updatedAt.toISOString(),
    });
""",
    ),
    (
        ("raw", "line"),
        "string",
        "[string, string[]]",
        """    const parts = «a».split("«sep»").map((p) => p.trim()).filter(Boolean);
    if (parts.length < 2) {
      throw new «exc»(`malformed «noun»: ${JSON.stringify(«a»)}`);
    }
    const [key, ...rest] = parts;
    return [key.toLowerCase(), rest];
""",
    ),
    (
        ("tenant", "tenantId"),
        "string | undefined",
        "Map<Status, «Rec»[]>",
        """    const result = new Map<Status, «Rec»[]>();
    for (const rec of this.cache.values()) {
      if («a» !== undefined && rec.tenantId !== «a») continue;
      const bucket = result.get(rec.status) ?? [];
      bucket.push(rec);
      result.set(rec.status, bucket);
    }
    return result;
""",
    ),
    (
        ("amount", "cents"),
        "number",
        "number",
        """    if («a» < 0) throw new RangeError(`«a» must be >= 0, got ${«a»}`);
    return Math.round(«a» * this.rate * 10 ** «n») / 10 ** «n»;
""",
    ),
    (
        ("cutoff", "olderThan"),
        "Date",
        "string[]",
        """    const expired: string[] = [];
    for (const [key, rec] of this.cache) {
      if (rec.updatedAt < «a») expired.push(key);
    }
    for (const key of expired) this.cache.delete(key);
    if (expired.length > 0) log.info(`pruned ${expired.length} stale «noun»s`);
    return expired;
""",
    ),
    (
        ("clear", "drain"),
        "boolean",
        "Promise<number>",
        """    const pending = [...this.pending];
    if («a») this.pending.length = 0;
    await Promise.all(pending.map((entry) => this.«dep».write(entry)));
    return pending.length;
""",
    ),
)

PY_TEST_BODIES = (
    """    record = «fixture».«method»("«key»")
    assert record.id == "«key»"
    assert record.status == "«status»"
""",
    """    with pytest.raises(ValueError, match="must not be empty"):
        «fixture».«method»("")
""",
    """    items = [make_record(amount=«n1»), make_record(amount=«n2», status="«status»")]
    assert «fixture».«method»(items) == «n1»
""",
    """    «fixture».«method»(make_record(version=«n1»))
    assert «fixture»._«dep».saved[-1].attempts == 1
""",
    """    out = «fixture».«method»("a«sep»b«sep»c")
    assert out == ("a", ["b", "c"])
""",
)

TS_TEST_BODIES = (
    """    const record = await «fixture».«method»("«key»");
    expect(record.id).toBe("«key»");
    expect(record.status).toBe("«status»");
""",
    """    await expect(«fixture».«method»("")).rejects.toThrow("must not be empty");
""",
    """    const items = [
      makeRecord({ amount: «n1» }),
      makeRecord({ amount: «n2», status: "«status»" }),
    ];
    expect(«fixture».«method»(items)).toBe(«n1»);
""",
    """    const spy = vi.spyOn(fake«Dep», "write");
    expect(await «fixture».«method»(true)).toBe(0);
    expect(spy).not.toHaveBeenCalled();
""",
)

TEST_CASES = (
    "returns_cached_record", "rejects_empty_key", "skips_«status»_items", "retries_on_timeout",
    "is_idempotent", "handles_unicode_keys", "keeps_order", "reports_stale_version",
    "flushes_pending_writes", "prunes_expired", "splits_on_separator", "rounds_half_even",
)  # fmt: skip

_NUMBER = re.compile(r"\b\d+\b")
_STRING = re.compile(r"\"[^\"]*\"|'[^']*'|`[^`]*`")
_NOTES = (
    "TODO: revisit after the retry change",
    "NOTE: order matters here, see the test for the empty case",
    "FIXME: this assumes a single tenant",
    "callers rely on this being idempotent",
    "retries are handled by the caller",
    "keep this cheap: it runs on every request",
)
# Lines our own edits added; never picked again, so edits don't stack on each other.
_OURS = re.compile(
    "is required|stale here|checkpoint|TODO: |NOTE: |FIXME: |callers rely|retries are handled"
    "|keep this cheap"
)
_STRUCTURAL = (
    "def ", "class ", "@", "import ", "from ", "export ", "it(", "describe(", "async ", "}", ")",
    "#", "//", "/**", "*", '"""',
)  # fmt: skip
# Names a line assigns to or returns: the only ones a guard line can sensibly check.
_ASSIGNED = re.compile(
    r"(?<![.\w])([a-z_][a-zA-Z0-9_]{2,})\s*(?::[^=]+)?=(?!=)|\breturn\s+([a-z_]\w+)\b(?!\()"
)
_KEYWORDS = frozenset(
    (
        "return", "raise", "self", "async", "await", "const", "while", "with", "from", "import",
        "class", "def", "none", "true", "false", "null", "undefined", "this", "throw", "typeof",
        "instanceof", "continue", "break", "else", "elif", "for", "let", "new", "len", "round",
        "min", "max", "str", "int", "list", "dict", "json", "math",
    )
)  # fmt: skip


def camel(snake: str) -> str:
    """``load_entry`` → ``loadEntry``: TypeScript projects name things in camelCase."""
    head, *rest = snake.split("_")
    return head + "".join(p.title() for p in rest)


def pascal(snake: str) -> str:
    """``rate_limit`` → ``RateLimit``, for class names."""
    return "".join(p.title() for p in snake.split("_"))


@dataclass
class Module:
    """One source module with its class, methods and test file."""

    noun: str
    role: str
    cls: str
    path: str
    test_path: str
    methods: list[str]
    big: bool
    dep: Module | None = None


@dataclass
class World:
    """A project: names, files and their current contents, shared by all tool results."""

    rng: random.Random
    zh: bool
    project: str
    lang: str  # "py" or "ts"
    cwd: str
    pkg: str
    protected_dir: str
    modules: list[Module] = field(default_factory=list)
    files: dict[str, str] = field(default_factory=dict)
    extra_paths: list[str] = field(default_factory=list)
    test_count: int = 0
    head: str = ""

    @property
    def py(self) -> bool:
        return self.lang == "py"

    @property
    def manifest(self) -> str:
        return "pyproject.toml" if self.py else "package.json"

    @property
    def test_cmd(self) -> str:
        return "pytest -q" if self.py else "npm test"

    def content(self, path: str) -> str | None:
        """Current text of ``path``, created on first use; ``None`` if it does not exist."""
        text = self.files.get(path)
        if text is not None:
            return text
        for m in self.modules:
            if m.path == path:
                text = self._py_module(m) if self.py else self._ts_module(m)
                break
            if m.test_path == path:
                text = self._py_test(m) if self.py else self._ts_test(m)
                break
        else:
            if path in self.extra_paths:
                text = self._extra(path)
        if text is not None:
            self.files[path] = text
        return text

    # ----------------------------------------------------------------- naming helpers

    def method_name(self, verb: str, obj: str) -> str:
        name = f"{verb}_{obj}"
        return name if self.py else camel(name)

    def slots(self, m: Module) -> dict[str, object]:
        """The names a template may mention for module ``m``."""
        r = self.rng
        dep = m.dep or m
        arg = r.choice(("key", "items", "record", "tenant", "cutoff", "amount", "raw", "force"))
        return {
            "noun": m.noun,
            "Rec": pascal(m.noun) + "Record",
            "dep": dep.noun + "_" + dep.role if self.py else camel(dep.noun + "_" + dep.role),
            "Dep": dep.cls,
            "verb": r.choice(VERBS),
            "status": r.choice(STATUSES),
            "C": r.choice(("2.0", "5.0", "30.0")) if self.py else r.choice(("2000", "5000")),
            "exc": r.choice(EXCEPTIONS_PY if self.py else EXCEPTIONS_TS),
            "sep": r.choice((":", "/", "|", ",")),
            "n": r.randint(2, 4),
            "a": arg,
        }

    # ------------------------------------------------------------------ code writers

    def _bodies(self, pool: tuple[Body, ...], m: Module) -> list[Body]:
        """One body per method, cycling through a shuffled pool so neighbours differ."""
        order = list(pool)
        out: list[Body] = []
        while len(out) < len(m.methods):
            self.rng.shuffle(order)
            out.extend(order)
        return out[: len(m.methods)]

    def _py_module(self, m: Module) -> str:
        r = self.rng
        s = self.slots(m)
        lines: list[str] = [
            f'"""{pascal(m.noun)} {m.role}: {fill(r.choice(PURPOSES), s)}."""',
            "",
            "from __future__ import annotations",
            "",
            "import json",
            "import logging",
            "import threading",
            "import time",
            "from dataclasses import dataclass, field",
            "from datetime import datetime, timezone",
            "from typing import Any",
            "",
        ]
        if m.dep is not None:
            lines.append(f"from {self.pkg}.{m.dep.noun}_{m.dep.role} import {m.dep.cls}")
        lines += [f"from {self.pkg}.errors import StaleRecordError, UpstreamError", ""]
        lines += ["log = logging.getLogger(__name__)", ""]
        lines.append(f"DEFAULT_TIMEOUT = {r.choice((2.5, 5.0, 10.0, 12.5, 30.0))}")
        lines.append(f"MAX_{m.noun.upper()}_BATCH = {r.choice((50, 100, 250, 500, 1000))}")
        if self.zh:
            lines.append(f"# 注意：{m.noun} 的状态只能通过 {m.cls} 修改")
        lines += ["", "", "@dataclass", f"class {s['Rec']}:"]
        for name, typ in r.sample(PY_FIELDS, 3):
            lines.append(f"    {name}: {typ}")
        lines += ['    id: str = ""', '    tenant_id: str = ""', "    version: int = 1"]
        lines += ["    attempts: int = 0", '    status: str = "pending"']
        lines += [
            "    updated_at: datetime = field(default_factory=lambda: datetime.now(timezone.utc))"
        ]
        dep_type = m.dep.cls if m.dep is not None else "Any"
        lines += [
            "",
            "",
            f"class {m.cls}:",
            f'    """{fill(r.choice(PURPOSES), s).capitalize()}."""',
            "",
            f"    def __init__(self, {s['dep']}: {dep_type}, *, max_retries: int = 3) -> None:",
            f"        self._{s['dep']} = {s['dep']}",
            "        self._max_retries = max_retries",
            "        self._timeout = DEFAULT_TIMEOUT",
            "        self._rate = 1.0",
            "        self._min_version = 1",
            "        self._lock = threading.Lock()",
            f"        self._pending: list[{s['Rec']}] = []",
            f"        self._cache: dict[str, {s['Rec']}] = {{}}",
        ]
        for name, (args, atype, ret, body) in zip(
            m.methods, self._bodies(PY_BODIES, m), strict=True
        ):
            s["verb"] = r.choice(VERBS)
            s["a"] = r.choice(args)
            lines.append("")
            lines.append(f"    def {name}(self, {s['a']}: {fill(atype, s)}) -> {fill(ret, s)}:")
            if r.random() < 0.4:
                lines.append(f'        """{pascal(name.split("_")[0])} {m.noun} data.')
                lines.append("")
                lines.append(
                    f"        Called by the {r.choice(ROLES)} on every {r.choice(OBJECTS)}."
                )
                lines.append('        """')
            lines.append(fill(body, s).rstrip("\n"))
        lines += ["", "", f"def make_{m.noun}_{m.role}(config: dict[str, Any]) -> {m.cls}:"]
        lines += [
            f'    """Build a {m.cls} from the ``[{m.noun}]`` section of the config."""',
            f'    section = config.get("{m.noun}", {{}})',
            f'    return {m.cls}(section["backend"], max_retries=int(section.get("retries", 3)))',
            "",
        ]
        return "\n".join(lines)

    def _ts_module(self, m: Module) -> str:
        r = self.rng
        s = self.slots(m)
        rec = s["Rec"]
        lines: list[str] = []
        if m.dep is not None:
            lines.append(f'import {{ {m.dep.cls} }} from "./{m.dep.noun}-{m.dep.role}";')
        lines += [
            'import { log } from "../log";',
            'import { sleep } from "../util/sleep";',
            'import { StaleRecordError, TimeoutError, UpstreamError } from "../errors";',
            "",
            'export type Status = "pending" | "settled" | "failed" | "expired" | "cancelled";',
            "",
            f"export interface {rec} {{",
        ]
        for name, typ in r.sample(TS_FIELDS, 3):
            lines.append(f"  {name}: {typ};")
        lines += ["  id: string;", "  tenantId: string;", "  status: Status;", "  version: number;"]
        lines += ["  attempts: number;", "  updatedAt: Date;", "}", ""]
        lines += [
            f"/** {fill(r.choice(PURPOSES), s).capitalize()}. */",
            f"export interface {pascal(m.noun)}Options {{",
            "  maxRetries?: number;",
            "  timeoutMs?: number;",
            "}",
            "",
            f"const DEFAULT_TIMEOUT_MS = {r.choice((2500, 5000, 10000, 30000))};",
        ]
        if self.zh:
            lines.append(f"// 注意：{m.noun} 的缓存只在 {m.cls} 里维护")
        dep_type = m.dep.cls if m.dep is not None else "unknown"
        lines += [
            "",
            f"export class {m.cls} {{",
            f"  private readonly cache = new Map<string, {rec}>();",
            f"  private readonly pending: {rec}[] = [];",
            "  private readonly maxRetries: number;",
            "  private readonly timeoutMs: number;",
            "  private rate = 1;",
            "",
            "  constructor(",
            f"    private readonly {s['dep']}: {dep_type},",
            f"    options: {pascal(m.noun)}Options = {{}},",
            "  ) {",
            "    this.maxRetries = options.maxRetries ?? 3;",
            "    this.timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;",
            "  }",
        ]
        for name, (args, atype, ret, body) in zip(
            m.methods, self._bodies(TS_BODIES, m), strict=True
        ):
            s["verb"] = camel(r.choice(VERBS))
            s["a"] = r.choice(args)
            is_async = ret.startswith("Promise")
            lines.append("")
            if r.random() < 0.3:
                lines.append(f"  /** {pascal(m.noun)}: called on every {r.choice(OBJECTS)}. */")
            prefix = "async " if is_async else ""
            lines.append(f"  {prefix}{name}({s['a']}: {fill(atype, s)}): {fill(ret, s)} {{")
            lines.append(fill(body, s).rstrip("\n"))
            lines.append("  }")
        lines += ["}", ""]
        return "\n".join(lines)

    def _py_test(self, m: Module) -> str:
        r = self.rng
        fixture = f"{m.noun}_{m.role}"
        dep = m.dep or m
        lines = [
            "import pytest",
            "",
            f"from {self.pkg}.{m.noun}_{m.role} import {m.cls}",
            f"from tests.fakes import Fake{dep.cls}, make_record",
            "",
            "",
            "@pytest.fixture",
            f"def {fixture}() -> {m.cls}:",
            f"    return {m.cls}(Fake{dep.cls}(), max_retries=2)",
        ]
        for _ in range(r.randint(3, 9)):
            s = self.slots(m)
            s.update(
                fixture=fixture,
                method=r.choice(m.methods),
                key=f"{m.noun[:3]}_{r.getrandbits(24):06x}",
                n1=r.randint(1, 999),
                n2=r.randint(1, 999),
            )
            case = fill(r.choice(TEST_CASES), s)
            lines += ["", "", f"def test_{s['method']}_{case}({fixture}: {m.cls}) -> None:"]
            lines.append(fill(r.choice(PY_TEST_BODIES), s).rstrip("\n"))
        lines.append("")
        return "\n".join(lines)

    def _ts_test(self, m: Module) -> str:
        r = self.rng
        fixture = camel(f"{m.noun}_{m.role}")
        dep = m.dep or m
        lines = [
            'import { beforeEach, describe, expect, it, vi } from "vitest";',
            f'import {{ {m.cls} }} from "../{m.path.removesuffix(".ts")}";',
            f'import {{ Fake{dep.cls}, makeRecord }} from "./fakes";',
            "",
            f'describe("{m.cls}", () => {{',
            f"  let fake{dep.cls}: Fake{dep.cls};",
            f"  let {fixture}: {m.cls};",
            "",
            "  beforeEach(() => {",
            f"    fake{dep.cls} = new Fake{dep.cls}();",
            f"    {fixture} = new {m.cls}(fake{dep.cls}, {{ maxRetries: 2 }});",
            "  });",
        ]
        for _ in range(r.randint(3, 9)):
            s = self.slots(m)
            s.update(
                fixture=fixture,
                method=r.choice(m.methods),
                key=f"{m.noun[:3]}_{r.getrandbits(24):06x}",
                n1=r.randint(1, 999),
                n2=r.randint(1, 999),
                Dep=dep.cls,
            )
            case = fill(r.choice(TEST_CASES), s).replace("_", " ")
            lines += ["", f'  it("{s["method"]} {case}", async () => {{']
            lines.append(fill(r.choice(TS_TEST_BODIES), s).rstrip("\n"))
            lines.append("  });")
        lines += ["});", ""]
        return "\n".join(lines)

    def _extra(self, path: str) -> str:
        r = self.rng
        if path == "pyproject.toml":
            return fill(
                """[project]
name = "«name»"
version = "«ver»"
requires-python = ">=3.11"
dependencies = [
    "httpx>=0.27",
    "pydantic>=2.7",
    "sqlalchemy>=2.0",
    "structlog>=24.1",
]

[project.optional-dependencies]
dev = ["pytest>=8", "pytest-asyncio>=0.23", "mypy>=1.10", "ruff>=0.5"]

[tool.pytest.ini_options]
testpaths = ["tests"]
addopts = "-ra"

[tool.ruff]
line-length = 100
""",
                {"name": self.project, "ver": f"0.{r.randint(3, 19)}.{r.randint(0, 9)}"},
            )
        if path == "package.json":
            return fill(
                """{
  "name": "@acme/«name»",
  "version": "«ver»",
  "type": "module",
  "scripts": {
    "build": "tsc -p tsconfig.build.json",
    "test": "vitest run",
    "lint": "eslint . --max-warnings 0",
    "typecheck": "tsc --noEmit"
  },
  "dependencies": {
    "pino": "^9.3.2",
    "undici": "^6.19.8",
    "zod": "^3.23.8"
  },
  "devDependencies": {
    "@types/node": "^20.14.10",
    "eslint": "^9.9.0",
    "typescript": "^5.5.4",
    "vitest": "^2.0.5"
  }
}
""",
                {"name": self.project, "ver": f"0.{r.randint(3, 19)}.{r.randint(0, 9)}"},
            )
        if path == "README.md":
            body = (
                f"# {self.project}\n\n"
                f"Internal service for {', '.join(m.noun + 's' for m in self.modules[:4])}.\n\n"
                "## Development\n\n"
                f"```sh\n{self.test_cmd}\n```\n\n"
                f"Files under `{self.protected_dir}/` are generated or frozen; see CONTRIBUTING.\n"
            )
            if self.zh:
                body += "\n## 说明\n\n本地开发前请先复制 `.env.example` 为 `.env`。\n"
            return body
        if path == "CHANGELOG.md":
            out = ["# Changelog", ""]
            for _ in range(r.randint(4, 12)):
                ver = f"0.{r.randint(1, 19)}.{r.randint(0, 9)}"
                m = r.choice(self.modules)
                out += [
                    f"## {ver}",
                    "",
                    f"- Fix {m.noun} {r.choice(VERBS)} when the cache is cold.",
                ]
                out += [f"- {m.cls}: add {r.choice(OBJECTS)} support.", ""]
            return "\n".join(out)
        if path.startswith(self.protected_dir + "/"):
            if path.endswith(".sql"):
                m = r.choice(self.modules)
                return (
                    f"-- {path}\nALTER TABLE {m.noun}s ADD COLUMN {r.choice(OBJECTS)}_id TEXT;\n"
                    f"CREATE INDEX idx_{m.noun}s_status ON {m.noun}s (status, updated_at);\n"
                )
            return f"// Code generated by protoc-gen-ts. DO NOT EDIT.\n// source: {path}\n"
        return f"# {path}\n"

    # --------------------------------------------------------------------- mutation

    def pick_edit(self, path: str) -> tuple[str, str] | None:
        """Choose an ``(oldText, newText)`` pair that really occurs in ``path`` and apply it.

        The replacement keeps the file's size roughly stable (additions are offset by
        deletions and in-place changes), so files read late in a long session stay
        realistic instead of growing without bound.
        """
        text = self.content(path)
        if not text or len(text) < 40:
            return None
        r = self.rng
        for _ in range(12):
            pos = r.randrange(len(text))
            start = text.rfind("\n", 0, pos) + 1
            end = text.find("\n", pos)
            if end < 0:
                end = len(text)
            line = text[start:end]
            if len(line.strip()) < 10 or text.count(line) != 1 or _OURS.search(line):
                continue
            new = self.rewrite_line(line, len(text) > 30_000)
            if new == line:
                continue
            if not new and end < len(text):
                line += "\n"  # deleting a line removes its newline too
                end += 1
            self.files[path] = text[:start] + new + text[end:]
            return line, new
        return None

    def rewrite_line(self, line: str, shrink_only: bool = False) -> str:
        """A plausible small change to one line: what agents' edits mostly are.

        Returns ``line`` unchanged when the line is structural (a signature, an import, a
        brace) and no in-place change applies; the caller then picks another line.
        """
        r = self.rng
        stripped = line.strip()
        indent = line[: len(line) - len(line.lstrip())]
        roll = r.random()
        if roll < 0.35:
            for a, b in (("==", "!="), ("<=", "<"), (">=", ">"), (" < ", " <= "), (" > ", " >= ")):
                if a in line:
                    return line.replace(a, b, 1)
            digits = _NUMBER.search(line)
            if digits:
                value = str(int(digits.group()) * r.choice((2, 3, 5, 10)) + r.randint(0, 9))
                return line[: digits.start()] + value + line[digits.end() :]
        if not indent or stripped.startswith(_STRUCTURAL) or stripped.endswith(("{", ":", "(")):
            return line
        if shrink_only or roll < 0.5:
            if r.random() < 0.5:
                return ""  # delete the line
            return indent + ("# " if self.py else "// ") + stripped
        code = _STRING.sub("", line)
        names = (m.group(1) or m.group(2) for m in _ASSIGNED.finditer(code))
        idents = [w for w in names if w.lower() not in _KEYWORDS]
        if not idents:
            note = r.choice(_NOTES)
            return indent + ("# " if self.py else "// ") + note + "\n" + line
        var = r.choice(idents)
        if self.py:
            guard = r.choice(
                (
                    f'if {var} is None:\n{indent}    raise ValueError("{var} is required")',
                    f'log.debug("%s: %r", "{var}", {var})',
                    f"# {var} can be stale here; see the retry path above",
                )
            )
        else:
            guard = r.choice(
                (
                    f'if ({var} == null) throw new Error("{var} is required");',
                    f'log.debug({{ {var} }}, "checkpoint");',
                    f"// {var} can be stale here; see the retry path above",
                )
            )
        return f"{indent}{guard}\n{line}"

    def add_module(self, noun: str, role: str) -> Module:
        """Register a new module (the agent creates files too)."""
        m = self._module(noun, role, big=False)
        m.dep = self.rng.choice(self.modules) if self.modules else None
        self.modules.append(m)
        return m

    def _module(self, noun: str, role: str, *, big: bool) -> Module:
        r = self.rng
        count = r.randint(60, 110) if big else r.randint(3, 9)
        names: list[str] = []
        while len(names) < count:
            name = self.method_name(r.choice(VERBS), r.choice(OBJECTS))
            if name not in names:
                names.append(name)
        if self.py:
            path = f"src/{self.pkg}/{noun}_{role}.py"
            test = f"tests/test_{noun}_{role}.py"
        else:
            folder = r.choice(("core", "net", "store", "services", "jobs"))
            path = f"src/{folder}/{noun}-{role}.ts"
            test = f"test/{noun}-{role}.test.ts"
        return Module(noun, role, pascal(noun) + pascal(role), path, test, names, big)

    def grep(self, pattern: str, paths: list[str], limit: int = 60) -> list[str]:
        """``path:line:text`` hits for a literal ``pattern``, like ripgrep prints them."""
        out: list[str] = []
        for path in paths:
            text = self.content(path)
            if not text:
                continue
            pos = text.find(pattern)
            while pos >= 0 and len(out) < limit:
                start = text.rfind("\n", 0, pos) + 1
                end = text.find("\n", pos)
                end = len(text) if end < 0 else end
                lineno = text.count("\n", 0, start) + 1
                out.append(f"{path}:{lineno}:{text[start:end][:200]}")
                pos = text.find(pattern, end)
        return out


def build_world(rng: random.Random, zh: bool) -> World:
    """Pick the session's project and lay out its modules (contents come later)."""
    project = rng.choice(CODENAMES)
    if rng.random() < 0.5:
        project += "-" + rng.choice(("api", "core", "svc", "worker", "web"))
    lang = "py" if rng.random() < 0.55 else "ts"
    pkg = project.split("-")[0].replace("-", "_")
    world = World(
        rng=rng,
        zh=zh,
        project=project,
        lang=lang,
        cwd=f"/home/dev/{project}",
        pkg=pkg,
        protected_dir=rng.choice(PROTECTED_DIRS),
    )
    pairs = [(n, r) for n in NOUNS for r in ROLES]
    rng.shuffle(pairs)
    count = rng.randint(10, 22)
    bigs = set(rng.sample(range(count), 2))
    for i, (noun, role) in enumerate(pairs[:count]):
        world.modules.append(world._module(noun, role, big=i in bigs))
    for i, m in enumerate(world.modules):
        if i > 0 and rng.random() < 0.8:
            m.dep = world.modules[rng.randrange(i)]
    world.extra_paths = [world.manifest, "README.md", "CHANGELOG.md"]
    ext = ".sql" if lang == "py" else ".ts"
    for k in range(rng.randint(2, 5)):
        world.extra_paths.append(f"{world.protected_dir}/{k + 1:04d}_{rng.choice(NOUNS)}{ext}")
    world.test_count = sum(1 for _ in world.modules) * rng.randint(5, 9)
    world.head = f"{rng.getrandbits(28):07x}"
    return world
