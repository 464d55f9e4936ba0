"""Shell commands and what they print: test runs, type checkers, linters, git.

Compaction has to cope with the output a real coding agent sees, which is mostly noise
(progress dots, long tracebacks, diffs) around a few lines that matter (which test failed,
which line the compiler rejected). These writers reproduce that texture from the session's
world, so failing test names, paths and line numbers refer to files that exist in it.
"""

from __future__ import annotations

import random

from tests.synthetic._world import OBJECTS, TEST_CASES, VERBS, Module, World, camel

Shell = tuple[str, str, int]
"""A command, its combined output and its exit code."""

COMMIT_SUBJECTS = (
    "fix «noun» «verb» when the cache is cold",
    "add retry budget to «cls»",
    "make «cls».«method» idempotent",
    "split «noun» parsing out of the «role»",
    "cover «method» with tests",
    "bump dependencies",
    "log «noun» ids on failure",
    "drop the unused «obj» helper",
    "handle empty «obj» in «method»",
    "rename «obj» to «obj2» in «cls»",
)

AUTHORS = ("Dana Ruiz", "Kofi Mensah", "Lin Wei", "Sam Okafor", "Priya Natarajan")
MISSING_TOOLS = ("pnpm", "poetry", "tox", "yarn", "bun", "just", "docker-compose", "make")


def _addr(r: random.Random) -> str:
    return f"0x7f{r.getrandbits(40):010x}"


def short_sha(r: random.Random) -> str:
    """A 7-digit abbreviated commit hash, as ``git log --oneline`` prints."""
    return f"{r.getrandbits(28):07x}"


def commit_subject(r: random.Random, m: Module) -> str:
    """A commit subject line about module ``m``."""
    subject = r.choice(COMMIT_SUBJECTS)
    for key, value in (
        ("«noun»", m.noun),
        ("«verb»", r.choice(VERBS)),
        ("«cls»", m.cls),
        ("«method»", r.choice(m.methods)),
        ("«role»", m.role),
        ("«obj»", r.choice(OBJECTS)),
        ("«obj2»", r.choice(OBJECTS)),
    ):
        subject = subject.replace(key, value)
    return subject


def _test_name(r: random.Random, world: World, m: Module) -> str:
    case = r.choice(TEST_CASES).replace("«status»", r.choice(("settled", "failed", "draft")))
    method = r.choice(m.methods)
    if world.py:
        return f"test_{method}_{case}"
    return f"{method} {case.replace('_', ' ')}"


def _py_failure(r: random.Random, world: World, m: Module, name: str) -> tuple[str, str]:
    """One pytest FAILURES block and its short-summary line."""
    fixture = f"{m.noun}_{m.role}"
    method = r.choice(m.methods)
    line = r.randint(12, 140)
    src_line = r.randint(30, 400)
    kind = r.randrange(4)
    head = f"{'_' * 20} {name} {'_' * 20}\n\n"
    call = f"{fixture} = <{world.pkg}.{fixture}.{m.cls} object at {_addr(r)}>\n\n"
    sig = f"    def {name}({fixture}: {m.cls}) -> None:\n"
    if kind == 0:
        got, want = r.randint(0, 999), r.randint(0, 999)
        body = (
            f"{sig}        items = [make_record(amount={want}), make_record(amount={got})]\n"
            f">       assert {fixture}.{method}(items) == {want}\n"
            f"E       assert {got + want} == {want}\n"
            f"E        +  where {got + want} = <bound method {m.cls}.{method} of "
            f"<{world.pkg}.{fixture}.{m.cls} object at {_addr(r)}>>([...])\n\n"
            f"{m.test_path}:{line}: AssertionError"
        )
        return head + call + body, f"AssertionError: assert {got + want} == {want}"
    if kind == 1:
        key = f"{m.noun[:3]}_{r.getrandbits(24):06x}"
        body = (
            f'{sig}>       record = {fixture}.{method}("{key}")\n\n'
            f"{m.test_path}:{line}: \n{'_ ' * 40}\n\n"
            f"self = <{world.pkg}.{fixture}.{m.cls} object at {_addr(r)}>, key = '{key}'\n\n"
            f"    def {method}(self, key: str) -> {m.noun.title()}Record:\n"
            f"        if not key:\n"
            f'            raise ValueError("key must not be empty")\n'
            f">       record = self._cache[key]\n"
            f"E       KeyError: '{key}'\n\n"
            f"{m.path}:{src_line}: KeyError"
        )
        return head + call + body, f"KeyError: '{key}'"
    if kind == 2:
        body = (
            f"{sig}>       with pytest.raises(ValueError):\n"
            f"E       Failed: DID NOT RAISE <class 'ValueError'>\n\n"
            f"{m.test_path}:{line}: Failed"
        )
        return head + call + body, "Failed: DID NOT RAISE <class 'ValueError'>"
    attr = r.choice(("status", "updated_at", "tenant_id", "amount"))
    body = (
        f"{sig}>       {fixture}.{method}(make_record(version=2))\n\n"
        f"{m.test_path}:{line}: \n{'_ ' * 40}\n\n"
        f"    def {method}(self, record: {m.noun.title()}Record) -> None:\n"
        f">       if record.{attr} is None or record.{attr}.{r.choice(VERBS)}():\n"
        f"E       AttributeError: 'NoneType' object has no attribute '{attr}'\n\n"
        f"{m.path}:{src_line}: AttributeError"
    )
    return head + call + body, f"AttributeError: 'NoneType' object has no attribute '{attr}'"


def _ts_failure(r: random.Random, world: World, m: Module, name: str) -> tuple[str, str]:
    """One vitest failure block and its one-line reason."""
    line = r.randint(12, 140)
    col = r.randint(8, 40)
    method = r.choice(m.methods)
    fixture = camel(f"{m.noun}_{m.role}")
    if r.random() < 0.6:
        got, want = r.randint(0, 999), r.randint(0, 999)
        reason = f"AssertionError: expected {got} to be {want} // Object.is equality"
        body = (
            f"{reason}\n\n- Expected\n+ Received\n\n- {want}\n+ {got}\n\n"
            f" ❯ {m.test_path}:{line}:{col}\n"
            f"    {line - 1}|     const items = [makeRecord({{ amount: {want} }})];\n"
            f"    {line}|     expect({fixture}.{method}(items)).toBe({want});\n"
            f"      |{' ' * col}^\n"
            f"    {line + 1}|   }});\n"
        )
    else:
        attr = r.choice(("status", "updatedAt", "tenantId", "amount"))
        reason = f"TypeError: Cannot read properties of undefined (reading '{attr}')"
        body = (
            f"{reason}\n"
            f" ❯ {m.cls}.{method} {m.path}:{r.randint(30, 400)}:{col}\n"
            f" ❯ {m.test_path}:{line}:{col}\n"
        )
    title = f" FAIL  {m.test_path} > {m.cls} > {name}\n"
    return title + body, reason


def pytest_run(r: random.Random, world: World, m: Module, *, fail: bool, scope: str) -> Shell:
    """``pytest`` over the suite, one file or one test; ``fail`` picks the outcome."""
    if scope == "all":
        cmd = r.choice(("pytest -q", "pytest -q", "python -m pytest -q", "pytest -x -q"))
        files = [x.test_path for x in world.modules if x.test_path in world.files]
        files = files or [m.test_path]
        total = world.test_count
    else:
        cmd = f"pytest {m.test_path} -q"
        files = [m.test_path]
        total = r.randint(4, 14)
    failed = r.choice((1, 1, 1, 2, 3)) if fail else 0
    failed = min(failed, max(total - 1, 1))
    out: list[str] = []
    remaining = total
    chars: list[str] = []
    for i in range(total):
        chars.append("F" if i < failed and r.random() < 0.9 else ".")
    r.shuffle(chars)
    if failed and "F" not in chars:
        chars[0] = "F"
    failed = chars.count("F")
    line = ""
    for i, c in enumerate(chars):
        line += c
        if len(line) == 80 or i == len(chars) - 1:
            remaining -= len(line)
            pct = 100 * (total - remaining) // max(total, 1)
            out.append(f"{line:<80} [{pct:3d}%]")
            line = ""
    secs = f"{r.uniform(0.4, 9.0):.2f}s"
    if not failed:
        out.append(f"{total} passed in {secs}")
        return cmd, "\n".join(out) + "\n", 0
    out += ["", "=" * 35 + " FAILURES " + "=" * 35]
    summary = []
    for _ in range(failed):
        name = _test_name(r, world, m)
        block, reason = _py_failure(r, world, m, name)
        out += [block, ""]
        summary.append(f"FAILED {r.choice(files)}::{name} - {reason}")
    out.append("=" * 25 + " short test summary info " + "=" * 26)
    out += summary
    out.append(f"{failed} failed, {total - failed} passed in {secs}")
    return cmd, "\n".join(out) + "\n", 1


def vitest_run(r: random.Random, world: World, m: Module, *, fail: bool, scope: str) -> Shell:
    """``vitest run`` over the suite or one file, in its default reporter's layout."""
    if scope == "all":
        cmd = r.choice(("npm test", "npm test", "npx vitest run"))
        files = [x for x in world.modules if x.test_path in world.files] or [m]
    else:
        cmd = f"npx vitest run {m.test_path}"
        files = [m]
    out = []
    if cmd == "npm test":
        out += ["", f"> @acme/{world.project}@0.4.1 test", "> vitest run", ""]
    out += [f" RUN  v2.0.5 {world.cwd}", ""]
    failures: list[str] = []
    total = 0
    failed_files = 0
    for f in files:
        n = r.randint(3, 14)
        total += n
        bad = fail and (f is m or r.random() < 0.1)
        if bad:
            failed_files += 1
            out.append(f" ❯ {f.test_path} ({n} tests | 1 failed) {r.randint(5, 90)}ms")
            name = _test_name(r, world, f)
            out.append(f"   × {f.cls} > {name}")
            block, _ = _ts_failure(r, world, f, name)
            failures.append(block)
        else:
            out.append(f" ✓ {f.test_path} ({n} tests) {r.randint(3, 90)}ms")
    nfail = len(failures)
    out.append("")
    if failures:
        out.append(f"⎯⎯⎯⎯⎯⎯⎯ Failed Tests {nfail} ⎯⎯⎯⎯⎯⎯⎯")
        out.append("")
        out += failures
        out.append(f"⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯[1/{nfail}]⎯")
        out.append("")
        passed_files = len(files) - failed_files
        out.append(f" Test Files  {failed_files} failed | {passed_files} passed ({len(files)})")
        out.append(f"      Tests  {nfail} failed | {total - nfail} passed ({total})")
    else:
        out.append(f" Test Files  {len(files)} passed ({len(files)})")
        out.append(f"      Tests  {total} passed ({total})")
    hh, mm, ss = r.randint(8, 19), r.randint(0, 59), r.randint(0, 59)
    out.append(f"   Start at  {hh:02d}:{mm:02d}:{ss:02d}")
    out.append(f"   Duration  {r.uniform(0.5, 6.0):.2f}s")
    return cmd, "\n".join(out) + "\n", 1 if failures else 0


def tests(r: random.Random, world: World, m: Module, *, fail: bool, scope: str) -> Shell:
    """Run the project's test runner."""
    run = pytest_run if world.py else vitest_run
    return run(r, world, m, fail=fail, scope=scope)


def verbose_tests(r: random.Random, world: World) -> Shell:
    """``pytest -v`` / ``vitest --reporter verbose``: one line per test, a large result."""
    out: list[str] = []
    count = r.randint(250, 700)
    for i in range(count):
        m = world.modules[i % len(world.modules)]
        name = _test_name(r, world, m)
        if world.py:
            pct = 100 * (i + 1) // count
            out.append(f"{m.test_path}::{name} PASSED{' ' * 8}[{pct:3d}%]")
        else:
            out.append(f"   ✓ {m.test_path} > {m.cls} > {name} {r.randint(0, 30)}ms")
    if world.py:
        out.append(f"\n{count} passed in {r.uniform(5, 40):.2f}s")
        return "pytest -v", "\n".join(out) + "\n", 0
    out.append(f"\n Test Files  {len(world.modules)} passed ({len(world.modules)})")
    out.append(f"      Tests  {count} passed ({count})")
    return "npx vitest run --reporter verbose", "\n".join(out) + "\n", 0


def typecheck(r: random.Random, world: World, m: Module, *, fail: bool) -> Shell:
    """``mypy`` or ``tsc --noEmit`` with zero or a few errors in module ``m``."""
    nerr = r.randint(1, 4) if fail else 0
    lines = []
    for _ in range(nerr):
        ln = r.randint(10, 300)
        if world.py:
            lines.append(
                r.choice(
                    (
                        f"{m.path}:{ln}: error: Incompatible return value type (got "
                        f'"str | None", expected "str")  [return-value]',
                        f'{m.path}:{ln}: error: Item "None" of "{m.noun.title()}Record | None" '
                        f'has no attribute "status"  [union-attr]',
                        f'{m.path}:{ln}: error: Argument 1 to "{r.choice(m.methods)}" of '
                        f'"{m.cls}" has incompatible type "int"; expected "str"  [arg-type]',
                        f"{m.path}:{ln}: error: Missing return statement  [return]",
                    )
                )
            )
        else:
            col = r.randint(3, 40)
            lines.append(
                r.choice(
                    (
                        f"{m.path}({ln},{col}): error TS2345: Argument of type 'string | "
                        "undefined' is not assignable to parameter of type 'string'.\n"
                        "  Type 'undefined' is not assignable to type 'string'.",
                        f"{m.path}({ln},{col}): error TS2339: Property '{r.choice(m.methods)}' "
                        f"does not exist on type '{m.cls}'.",
                        f"{m.path}({ln},{col}): error TS7006: Parameter 'entry' implicitly has "
                        "an 'any' type.",
                        f"{m.path}({ln},{col}): error TS2322: Type 'number' is not assignable "
                        "to type 'Status'.",
                    )
                )
            )
    if world.py:
        n = len(world.modules) + 3
        if nerr:
            lines.append(
                f"Found {nerr} error{'s' * (nerr > 1)} in 1 file (checked {n} source files)"
            )
        else:
            lines.append(f"Success: no issues found in {n} source files")
        return "mypy src", "\n".join(lines) + "\n", 1 if nerr else 0
    if nerr:
        lines.append(f"\nFound {nerr} error{'s' * (nerr > 1)} in {m.path}")
    return "npx tsc --noEmit", "\n".join(lines) + ("\n" if lines else ""), 2 if nerr else 0


def lint(r: random.Random, world: World, m: Module, *, fail: bool) -> Shell:
    """``ruff check`` / ``eslint`` output."""
    if world.py:
        if not fail:
            return "ruff check .", "All checks passed!\n", 0
        ln, col = r.randint(1, 200), r.randint(1, 40)
        out = (
            f"{m.path}:{ln}:{col}: F401 [*] `typing.Any` imported but unused\n"
            f"{m.path}:{ln + 7}:{col}: E501 Line too long (117 > 100)\n"
            "Found 2 errors.\n[*] 1 fixable with the `--fix` option.\n"
        )
        return "ruff check .", out, 1
    header = f"\n> @acme/{world.project}@0.4.1 lint\n> eslint . --max-warnings 0\n\n"
    if not fail:
        return "npm run lint", header, 0
    ln, col = r.randint(1, 200), r.randint(1, 40)
    out = (
        f"{header}{world.cwd}/{m.path}\n"
        f"  {ln}:{col}  error  'entry' is defined but never used  "
        "@typescript-eslint/no-unused-vars\n"
        f"  {ln + 12}:{col}  error  Unexpected any. Specify a different type  "
        "@typescript-eslint/no-explicit-any\n\n✖ 2 problems (2 errors, 0 warnings)\n"
    )
    return "npm run lint", out, 1


def git_status(r: random.Random, world: World, changed: list[str]) -> Shell:
    """``git status`` listing the files this turn touched."""
    out = ["On branch " + r.choice(("main", "fix/retry-budget", "feature/idempotency")), ""]
    if changed:
        out += [
            "Changes not staged for commit:",
            '  (use "git add <file>..." to update what will be committed)',
            "",
        ]
        out += [f"\tmodified:   {p}" for p in dict.fromkeys(changed)]
        out.append("")
        out.append('no changes added to commit (use "git add" and/or "git commit -a")')
    else:
        out.append("nothing to commit, working tree clean")
    return "git status", "\n".join(out) + "\n", 0


def git_diff(r: random.Random, world: World, edits: list[tuple[str, str, str]]) -> Shell:
    """A unified diff of the edits made in this turn, located in the current file text."""
    out: list[str] = []
    for path, old, new in edits[-4:]:
        text = world.content(path) or ""
        pos = text.find(new) if new else -1
        lineno = text.count("\n", 0, pos) + 1 if pos >= 0 else r.randint(10, 200)
        before = text[:pos].split("\n")[-4:-1] if pos >= 0 else []
        old_lines = old.split("\n")
        new_lines = new.split("\n") if new else []
        start = max(lineno - len(before), 1)
        out += [
            f"diff --git a/{path} b/{path}",
            f"index {short_sha(r)}..{short_sha(r)} 100644",
            f"--- a/{path}",
            f"+++ b/{path}",
            f"@@ -{start},{len(before) + len(old_lines)} "
            f"+{start},{len(before) + len(new_lines)} @@",
        ]
        out += [" " + b for b in before]
        out += ["-" + x for x in old_lines]
        out += ["+" + x for x in new_lines]
    return "git diff", "\n".join(out) + ("\n" if out else ""), 0


def git_log(r: random.Random, world: World, *, count: int = 12) -> Shell:
    """``git log --oneline -n N``."""
    out = []
    for _ in range(count):
        m = r.choice(world.modules)
        out.append(f"{short_sha(r)} {commit_subject(r, m)}")
    return f"git log --oneline -n {count}", "\n".join(out) + "\n", 0


def git_log_patch(r: random.Random, world: World) -> Shell:
    """``git log -p``: several commits with their diffs, a large result."""
    out = []
    for _ in range(r.randint(8, 20)):
        m = r.choice(world.modules)
        text = world.content(m.path) or ""
        lines = text.split("\n")
        start = r.randrange(max(len(lines) - 40, 1))
        chunk = lines[start : start + r.randint(20, 60)]
        day = r.randint(1, 28)
        out += [
            f"commit {r.getrandbits(160):040x}",
            f"Author: {r.choice(AUTHORS)} <dev@acme.io>",
            f"Date:   Mon Dec {day} {r.randint(8, 19)}:{r.randint(10, 59)}:07 2025 +0100",
            "",
            f"    {commit_subject(r, m)}",
            "",
            f"diff --git a/{m.path} b/{m.path}",
            f"--- a/{m.path}",
            f"+++ b/{m.path}",
            f"@@ -{start + 1},{len(chunk)} +{start + 1},{len(chunk) + 1} @@",
        ]
        out += [" " + x for x in chunk]
        out.append("+" + (chunk[-1] if chunk else ""))
        out.append("")
    return "git log -p -n 20", "\n".join(out), 0


def git_commit(
    r: random.Random, world: World, message: str, files: int, sha: str | None = None
) -> Shell:
    """``git add -A && git commit -m ...``; also moves the world's HEAD to the new commit."""
    sha = sha or short_sha(r)
    world.head = sha
    ins, dels = r.randint(1, 80), r.randint(0, 40)
    branch = r.choice(("main", "fix/retry-budget", "feature/idempotency"))
    out = (
        f"[{branch} {sha}] {message}\n"
        f" {files} file{'s' * (files != 1)} changed, {ins} insertions(+), {dels} deletions(-)\n"
    )
    return f'git add -A && git commit -m "{message}"', out, 0


def listing(r: random.Random, world: World, m: Module) -> Shell:
    """``ls -la`` of the module's folder."""
    folder = m.path.rsplit("/", 1)[0]
    out = [f"total {r.randint(40, 400)}"]
    out.append(f"drwxr-xr-x  {r.randint(3, 9)} dev dev  4096 Dec 12 10:41 .")
    out.append(f"drwxr-xr-x  {r.randint(3, 9)} dev dev  4096 Dec 12 10:41 ..")
    for x in world.modules:
        if x.path.startswith(folder + "/"):
            size = len(world.files[x.path]) if x.path in world.files else r.randint(900, 9000)
            name = x.path.rsplit("/", 1)[1]
            stamp = f"Dec {r.randint(1, 28):2d} 1{r.randint(0, 9)}:{r.randint(0, 59):02d}"
            out.append(f"-rw-r--r--  1 dev dev {size:>5} {stamp} {name}")
    return f"ls -la {folder}", "\n".join(out) + "\n", 0


def line_counts(r: random.Random, world: World) -> Shell:
    """``wc -l`` over source files."""
    out = []
    total = 0
    for x in world.modules[:20]:
        n = world.files[x.path].count("\n") if x.path in world.files else r.randint(40, 400)
        total += n
        out.append(f"{n:>6} {x.path}")
    out.append(f"{total:>6} total")
    cmd = f"wc -l src/{world.pkg}/*.py" if world.py else "wc -l src/**/*.ts"
    return cmd, "\n".join(out) + "\n", 0


def missing_tool(r: random.Random, world: World) -> Shell:
    """A command that is not installed (exit 127)."""
    tool = r.choice(MISSING_TOOLS)
    sub = r.choice(("test", "run test", "install", "check"))
    return f"{tool} {sub}", f"bash: line 1: {tool}: command not found\n", 127


def install(r: random.Random, world: World) -> Shell:
    """Installing dependencies."""
    if world.py:
        pkgs = ("httpx-0.27.2", "pydantic-2.8.2", "sqlalchemy-2.0.32", "structlog-24.4.0")
        out = f"Obtaining file://{world.cwd}\n  Installing build dependencies ... done\n"
        out += "  Checking if build backend supports build_editable ... done\n"
        out += f"Successfully installed {world.project}-0.4.1 " + " ".join(r.sample(pkgs, 2)) + "\n"
        return "pip install -e '.[dev]'", out, 0
    n = r.randint(120, 480)
    out = f"\nadded {r.randint(1, 9)} packages, and audited {n} packages in {r.randint(1, 9)}s\n\n"
    out += f"{r.randint(20, 90)} packages are looking for funding\n  run `npm fund` for details\n\n"
    out += "found 0 vulnerabilities\n"
    return "npm install", out, 0


def script_crash(r: random.Random, world: World, m: Module) -> Shell:
    """A one-off script that crashes with a traceback / stack trace."""
    method = r.choice(m.methods)
    if world.py:
        cmd = (
            f'python -c "from {world.pkg}.{m.noun}_{m.role} import {m.cls}; '
            f"print({m.cls}(None).{method}('x'))\""
        )
        out = (
            "Traceback (most recent call last):\n"
            '  File "<string>", line 1, in <module>\n'
            f'  File "{world.cwd}/{m.path}", line {r.randint(30, 300)}, in {method}\n'
            f"    record = self._{m.noun}_store.load(key)\n"
            "             ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^\n"
            "AttributeError: 'NoneType' object has no attribute 'load'\n"
        )
        return cmd, out, 1
    cmd = f"node -e \"require('./dist/{m.path[4:-3]}.js').{m.cls}\""
    out = (
        f"node:internal/modules/cjs/loader:1228\n  throw err;\n  ^\n\n"
        f"Error: Cannot find module './dist/{m.path[4:-3]}.js'\n"
        f"Require stack:\n- {world.cwd}/[eval]\n"
        "    at Module._resolveFilename (node:internal/modules/cjs/loader:1225:15)\n"
        "    at Module._load (node:internal/modules/cjs/loader:1051:27)\n"
        "    at Module.require (node:internal/modules/cjs/loader:1311:19)\n"
        " {\n  code: 'MODULE_NOT_FOUND',\n  requireStack: [ '" + world.cwd + "/[eval]' ]\n}\n\n"
        "Node.js v20.15.1\n"
    )
    return cmd, out, 1
