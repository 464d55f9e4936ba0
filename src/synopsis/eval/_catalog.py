"""The canary catalog: what each kind of session plants, in English and in Chinese.

Each function returns more candidates than a scenario uses; the scenario draws from them
with its seed. Wording follows how people actually write such things (a rule in one
sentence, a correction that restates the value in other words), and every plant holds a
random token from the scenario's :class:`~synopsis.eval.canaries.TokenMint`.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass

from synopsis.eval._words import chinese_number, english_number
from synopsis.eval.canaries import (
    CanaryType,
    CorrectionPlant,
    Plant,
    SaidPlant,
    Spellings,
    TokenMint,
    ToolPlant,
    fact,
    said,
)

T = CanaryType


@dataclass(frozen=True, slots=True)
class Catalog:
    """The opening goal (always the first message) and candidates for every other slot."""

    first_goal: SaidPlant
    candidates: dict[CanaryType, list[Plant]]


def _goal(sentence: str, *required: Spellings) -> SaidPlant:
    # Goals are required by their distinctive parts: restating a goal is fine, losing
    # what it is about is not.
    return SaidPlant(T.GOAL, sentence, required, "pending")


def _later(date: str, mint: TokenMint) -> str:
    day = dt.date.fromisoformat(date) + dt.timedelta(days=mint.rng.randint(5, 16))
    return day.isoformat()


def _amounts(mint: TokenMint, high: tuple[int, int], low: tuple[int, int]) -> tuple[int, int]:
    return mint.number(*high, step=10), mint.number(*low, step=10)


def _dollar_spellings(n: int) -> Spellings:
    spellings = (
        f"${n}",
        f"${n:,}",
        f"{n} dollars",
        f"{n:,} dollars",
        f"{english_number(n)} dollars",
    )
    return tuple(dict.fromkeys(spellings))


def _yuan_spellings(n: int) -> Spellings:
    spellings = (f"{n} 元", f"{n}元", f"¥{n}", f"{n:,} 元", f"{n:,}元", f"{chinese_number(n)}元")
    return tuple(dict.fromkeys(spellings))


def _budget(
    mint: TokenMint,
    zh: bool,
    high: tuple[int, int],
    low: tuple[int, int],
    *,
    original: tuple[str, str],
    correction: tuple[str, str],
) -> CorrectionPlant:
    """A budget restated in words: "$1240" → "four hundred sixty dollars" / "四百六十元"."""
    old, new = _amounts(mint, high, low)
    if zh:
        return CorrectionPlant(
            original[1].format(old=f"{old} 元"),
            correction[1].format(new=f"{chinese_number(new)}元"),
            (_yuan_spellings(new),),
            _yuan_spellings(old),
        )
    return CorrectionPlant(
        original[0].format(old=f"${old}"),
        correction[0].format(new=f"{english_number(new)} dollars"),
        (_dollar_spellings(new),),
        _dollar_spellings(old),
    )


def _replace(old: str, new: str, original: str, correction: str) -> CorrectionPlant:
    return CorrectionPlant(
        original.format(old=old), correction.format(old=old, new=new), ((new,),), (old,)
    )


# --- coding agent -----------------------------------------------------------------------


def coding_catalog(mint: TokenMint, zh: bool, package: str) -> Catalog:
    flag = f"ledger_v2_{mint.alnum(4)}"
    first = (
        _goal(
            f"这次的目标是把发票结算迁移到 ledger v2 客户端，并放在 `{flag}` 功能开关后面。",
            (flag,),
            ("发票结算",),
        )
        if zh
        else _goal(
            "The goal for this session is to move invoice settlement onto the ledger v2 "
            f"client behind the `{flag}` feature flag.",
            (flag,),
            ("invoice settlement",),
        )
    )
    endpoint = f"/v2/{package}/{mint.alnum(4)}/export"
    later_goal = (
        _goal(f"接下来我需要在 `{endpoint}` 上加一个 CSV 导出接口。", (endpoint,), ("CSV 导出",))
        if zh
        else _goal(
            f"Next I need a CSV export endpoint at `{endpoint}`.", (endpoint,), ("CSV export",)
        )
    )
    return Catalog(
        first,
        {
            T.SAFETY: _coding_safety(mint, zh),
            T.CONSTRAINT: _coding_constraints(mint, zh, package),
            T.PREFERENCE: _coding_preferences(mint, zh),
            T.FACT: _coding_facts(mint, zh),
            T.GOAL: [later_goal],
            T.FAILED_APPROACH: _coding_failures(mint, zh, package),
            T.MODIFIED_FILE: _coding_files(mint, zh, package),
            T.SUPERSEDED: _coding_corrections(mint, zh),
        },
    )


def _coding_safety(m: TokenMint, zh: bool) -> list[Plant]:
    build, db, branch = f"build-{m.alnum(4)}", f"prod_ledger_{m.alnum(4)}", f"release/{m.alnum(4)}"
    if zh:
        return [
            said(T.SAFETY, f"绝对不要在 {build}/ 之外执行 `rm -rf`。"),
            said(T.SAFETY, f"绝对不要删除或写入生产数据库 `{db}`。"),
            said(T.SAFETY, f"永远不要强制推送到 `{branch}` 分支。"),
        ]
    return [
        said(T.SAFETY, f"Never run `rm -rf` outside {build}/."),
        said(T.SAFETY, f"Do not write to the production database `{db}` under any circumstances."),
        said(T.SAFETY, f"Never force-push to `{branch}`."),
    ]


def _coding_constraints(m: TokenMint, zh: bool, package: str) -> list[Plant]:
    latency = m.number(120, 480, 5)
    check = f"check-{m.alnum(4)}"
    schema = f"{m.rng.randint(3, 9)}.{m.rng.randint(10, 40)}.{m.rng.randint(1, 30)}"
    if zh:
        return [
            said(T.CONSTRAINT, f"`/v2/{package}/settle` 的 p95 延迟必须保持在 {latency} ms 以内。"),
            said(T.CONSTRAINT, f"每次提交前必须通过 `make {check}`。"),
            said(T.CONSTRAINT, f"`{package}_client` 必须保持与 schema {schema} 兼容。"),
        ]
    return [
        said(
            T.CONSTRAINT, f"The p95 latency of `/v2/{package}/settle` must stay under {latency} ms."
        ),
        said(T.CONSTRAINT, f"Every change must pass `make {check}` before it is committed."),
        said(T.CONSTRAINT, f"`{package}_client` must stay compatible with schema {schema}."),
    ]


def _coding_preferences(m: TokenMint, zh: bool) -> list[Plant]:
    tag = m.upper(4)
    width = m.number(88, 119)
    prefix = m.alnum(4)
    if zh:
        return [
            said(T.PREFERENCE, f"我更喜欢提交信息以 `[{tag}]` 开头。"),
            said(T.PREFERENCE, f"新代码的行宽请尽量不超过 {width} 个字符。"),
            said(T.PREFERENCE, f"新的测试文件请一律命名为 `test_{prefix}_*.py`。"),
        ]
    return [
        said(T.PREFERENCE, f"I prefer commit messages that start with `[{tag}]`."),
        said(T.PREFERENCE, f"Please keep lines under {width} characters in new code."),
        said(T.PREFERENCE, f"I'd like new test files to be named `test_{prefix}_*.py`."),
    ]


def _coding_facts(m: TokenMint, zh: bool) -> list[Plant]:
    project = m.rng.choice(("PAY", "LEDG", "BILL", "FIN", "PLAT"))
    ticket = f"{project}-{m.digits(5)}"
    sha = m.hex(10)
    url = f"https://stg-{m.alnum(5)}.internal.example.com"
    port = m.number(20000, 29999)
    if zh:
        return [
            fact(f"这项工作对应工单 {ticket}。", ticket),
            fact(f"基线提交是 {sha}，从它开始。", sha),
            fact(f"预发环境地址是 {url}。", url),
            fact(f"指标导出服务监听端口 {port}。", str(port)),
        ]
    return [
        fact(f"This work is tracked in {ticket}.", ticket),
        fact(f"Start from commit {sha} on main.", sha),
        fact(f"The staging server is {url} if you need to try anything.", url),
        fact(f"The metrics exporter listens on port {port}.", str(port)),
    ]


_RETRY = (
    "That didn't work; the error is above. I'll take a different route.",
    "这条路走不通，错误见上面的输出。我换个办法。",
)


def _failure(
    zh: bool, command: str, output: str, required: tuple[Spellings, ...], intro: tuple[str, str]
) -> ToolPlant:
    return ToolPlant(
        T.FAILED_APPROACH,
        "bash",
        {"command": command},
        output,
        True,
        required,
        "blocked",
        intro[1] if zh else intro[0],
        _RETRY[1] if zh else _RETRY[0],
    )


def _coding_failures(m: TokenMint, zh: bool, package: str) -> list[Plant]:
    rev = m.hex(12)
    script = f"backfill_{m.alnum(4)}"
    table = f"ledger_entries_{m.alnum(4)}"
    build = f"build:{m.alnum(4)}"
    version = f"2.{m.rng.randint(10, 60)}.{m.rng.randint(1, 40)}"
    alembic = (
        "INFO  [alembic.runtime.migration] Context impl PostgresqlImpl.\n"
        "INFO  [alembic.runtime.migration] Will assume transactional DDL.\n"
        f"ERROR [alembic.util.messaging] Can't locate revision identified by '{rev}'\n"
        f"  FAILED: Can't locate revision identified by '{rev}'\n"
    )
    traceback = (
        "Traceback (most recent call last):\n"
        f'  File "scripts/{script}.py", line 88, in <module>\n'
        "    main()\n"
        f'  File "scripts/{script}.py", line 71, in main\n'
        "    rows = fetch_rows(conn, args.batch)\n"
        f'  File "scripts/{script}.py", line 40, in fetch_rows\n'
        "    cur.execute(QUERY, (batch,))\n"
        '  File "/usr/lib/python3/dist-packages/psycopg/cursor.py", line 732, in execute\n'
        "    raise ex.with_traceback(None)\n"
        f'psycopg.errors.UndefinedTable: relation "{table}" does not exist\n'
        f"LINE 1: SELECT id, amount_cents FROM {table} WHERE settled_at IS NULL\n"
    )
    npm = (
        f'npm ERR! Missing script: "{build}"\n'
        "npm ERR!\n"
        "npm ERR! To see a list of scripts, run:\n"
        "npm ERR!   npm run\n\n"
        "npm ERR! A complete log of this run can be found in:\n"
        "npm ERR!     /home/dev/.npm/_logs/2026-01-12T10_31_07_118Z-debug-0.log\n"
    )
    pip = (
        f"ERROR: Could not find a version that satisfies the requirement "
        f"{package}-ledger=={version} (from versions: 1.8.0, 1.9.2, 2.0.1)\n"
        f"ERROR: No matching distribution found for {package}-ledger=={version}\n"
    )
    return [
        _failure(
            zh,
            f"alembic upgrade {rev}",
            alembic,
            ((rev,), ("can't locate revision",)),
            ("I'll apply the pending migration directly.", "我先直接执行待处理的迁移。"),
        ),
        _failure(
            zh,
            f"python scripts/{script}.py --batch 500",
            traceback,
            ((script,), (table,)),
            ("Let me run the backfill script first.", "先跑一下回填脚本。"),
        ),
        _failure(
            zh,
            f"npm run {build}",
            npm,
            ((build,), ("missing script",)),
            ("I'll rebuild the frontend bundle.", "我重新构建一下前端包。"),
        ),
        _failure(
            zh,
            f"pip install {package}-ledger=={version}",
            pip,
            ((f"{package}-ledger=={version}",), ("could not find a version",)),
            (
                "I'll pin the ledger client to the version the docs mention.",
                "我把 ledger 客户端固定到文档里提到的版本。",
            ),
        ),
    ]


def _file_plant(zh: bool, tool: str, path: str, body: str) -> ToolPlant:
    if tool == "write":
        arguments: dict[str, object] = {"path": path, "content": body}
        result = f"Successfully wrote {len(body.encode())} bytes to {path}"
    else:
        first = body.split("\n", 1)[0]
        arguments = {"path": path, "oldText": first, "newText": first + "  # ledger v2"}
        result = f"Successfully replaced text in {path}."
    return ToolPlant(
        T.MODIFIED_FILE,
        tool,
        dict(arguments),
        result,
        False,
        ((path,),),
        "done",
        f"我来修改 `{path}`。" if zh else f"I'll update `{path}`.",
        "这个文件改好了。" if zh else "That file is updated.",
    )


def _coding_files(m: TokenMint, zh: bool, package: str) -> list[Plant]:
    migration = f"src/{package}/migrations/{m.hex(12)}_add_ledger_columns.py"
    adapter = f"src/{package}/adapters/ledger_{m.alnum(4)}.py"
    adr = f"docs/adr/{m.digits(4)}-ledger-{m.alnum(4)}.md"
    test = f"tests/test_ledger_{m.alnum(4)}.py"
    return [
        _file_plant(zh, "write", migration, '"""Add ledger columns."""\n\nrevision = "x"\n'),
        _file_plant(zh, "edit", adapter, "class LedgerAdapter:\n    pass\n"),
        _file_plant(zh, "write", adr, "# Move settlement to ledger v2\n\nStatus: accepted\n"),
        _file_plant(zh, "write", test, "def test_settlement_roundtrip() -> None:\n    ...\n"),
    ]


def _coding_corrections(m: TokenMint, zh: bool) -> list[Plant]:
    budget = _budget(
        m,
        zh,
        (900, 1900),
        (300, 800),
        original=(
            "The cloud budget for this migration is {old}.",
            "这次迁移的云资源预算是 {old}。",
        ),
        correction=(
            "Change of plan: keep spend under {new}.",
            "计划有变：花费控制在{new}以内。",
        ),
    )
    d1 = m.date()
    d2 = _later(d1, m)
    old_host, new_host = f"stg-{m.alnum(4)}", f"stg-{m.alnum(4)}"
    if zh:
        return [
            budget,
            _replace(d1, d2, "切换的截止日期是 {old}。", "切换的截止日期推迟到 {new}。"),
            _replace(
                old_host, new_host, "预览环境部署到 `{old}`。", "预览环境不是 {old}，而是 {new}。"
            ),
        ]
    return [
        budget,
        _replace(
            d1,
            d2,
            "The hard deadline for the cutover is {old}.",
            "The cutover deadline moved to {new}.",
        ),
        _replace(
            old_host,
            new_host,
            "Deploy previews to `{old}`.",
            "Actually, use {new} instead of {old} for previews.",
        ),
    ]


# --- customer service -----------------------------------------------------------------


def support_catalog(mint: TokenMint, zh: bool, product: str) -> Catalog:
    serial = f"SN-{mint.upper(8)}"
    invoice = f"INV-{mint.digits(6)}"
    if zh:
        first = _goal(
            f"我想给到货时铰链就裂了的{product}换货，序列号 {serial}。", (serial,), ("换货",)
        )
        later = _goal(
            f"我还需要为 {invoice} 开一张写有公司名称的更正发票。", (invoice,), ("更正发票",)
        )
    else:
        first = _goal(
            f"I want a replacement for the {product} that arrived with a cracked hinge, "
            f"serial {serial}.",
            (serial,),
            ("replacement",),
        )
        later = _goal(
            f"I also need a corrected invoice for {invoice} with my company name on it.",
            (invoice,),
            ("corrected invoice",),
        )
    case = f"CS-{mint.digits(6)}"
    return Catalog(
        first,
        {
            T.SAFETY: _support_safety(mint, zh),
            T.CONSTRAINT: _support_constraints(mint, zh),
            T.PREFERENCE: _support_preferences(mint, zh),
            T.FACT: _support_facts(mint, zh),
            T.GOAL: [later],
            T.FAILED_APPROACH: _support_failures(mint, zh),
            T.MODIFIED_FILE: _support_files(mint, zh, case),
            T.SUPERSEDED: _support_corrections(mint, zh),
        },
    )


def _support_safety(m: TokenMint, zh: bool) -> list[Plant]:
    cap = m.number(150, 450, 10)
    ticket = f"SUP-{m.digits(6)}"
    phone = f"+1 415 555 {m.digits(4)}"
    if zh:
        return [
            said(T.SAFETY, f"未经主管批准，绝对不要退款超过 {cap} 元。"),
            said(T.SAFETY, f"在客户确认收货之前，绝对不要关闭工单 {ticket}。"),
            said(T.SAFETY, f"不要把我的手机号 {phone} 透露给快递员。"),
        ]
    return [
        said(T.SAFETY, f"Never issue a refund above ${cap} without supervisor approval."),
        said(T.SAFETY, f"Do not close ticket {ticket} until the customer confirms delivery."),
        said(T.SAFETY, f"Do not share my phone number {phone} with the courier."),
    ]


def _support_constraints(m: TokenMint, zh: bool) -> list[Plant]:
    sku = f"SKU-{m.digits(6)}"
    last4 = m.digits(4)
    hours = m.number(36, 96, 12)
    if zh:
        return [
            said(T.CONSTRAINT, f"换货必须是同一型号 {sku}，不接受替代品。"),
            said(T.CONSTRAINT, f"任何退款都必须退回尾号 {last4} 的原支付卡。"),
            said(T.CONSTRAINT, f"新设备必须在发货后 {hours} 小时内送达。"),
        ]
    return [
        said(T.CONSTRAINT, f"The replacement must be the same model, {sku}, with no substitutes."),
        said(T.CONSTRAINT, f"Any refund must go back to the original card ending in {last4}."),
        said(T.CONSTRAINT, f"The new unit has to arrive within {hours} hours of dispatch."),
    ]


def _support_preferences(m: TokenMint, zh: bool) -> list[Plant]:
    email = f"alex.{m.alnum(5)}@example.net"
    until = f"{m.rng.randint(15, 18)}:{m.rng.randrange(5, 56, 5):02d}"
    code = m.upper(5)
    if zh:
        return [
            said(T.PREFERENCE, f"我更喜欢通过邮件 {email} 接收进度通知。"),
            said(T.PREFERENCE, f"请只在工作日 9:00 到 {until} 之间联系我。"),
            said(T.PREFERENCE, f"邮件标题里请始终带上我的客户代码 {code}。"),
        ]
    return [
        said(T.PREFERENCE, f"I prefer updates by email to {email}."),
        said(T.PREFERENCE, f"Please only contact me between 9:00 and {until} on weekdays."),
        said(T.PREFERENCE, f"Always put my customer code {code} in the email subject."),
    ]


def _support_facts(m: TokenMint, zh: bool) -> list[Plant]:
    order = f"ORD-{m.digits(7)}"
    tracking = f"1Z{m.upper(6)}{m.digits(8)}"
    rma = f"RMA-{m.digits(6)}"
    account = f"cus_{m.alnum(10)}"
    if zh:
        return [
            fact(f"订单号是 {order}。", order),
            fact(f"包裹上的运单号是 {tracking}。", tracking),
            fact(f"上周你们同事给了我退货授权号 {rma}。", rma),
            fact(f"我的账户 ID 是 {account}。", account),
        ]
    return [
        fact(f"The order number is {order}.", order),
        fact(f"The tracking number on the box says {tracking}.", tracking),
        fact(f"Your colleague gave me return authorization {rma} last week.", rma),
        fact(f"My account ID is {account}.", account),
    ]


def _support_failure(
    zh: bool,
    tool: str,
    arguments: dict[str, object],
    error: str,
    required: tuple[Spellings, ...],
    intro: tuple[str, str],
) -> ToolPlant:
    retry = (
        "That was rejected; the error is above. Let me try another way.",
        "这个操作被拒绝了，错误见上面。我换个方式处理。",
    )
    return ToolPlant(
        T.FAILED_APPROACH,
        tool,
        dict(arguments),
        error,
        True,
        required,
        "blocked",
        intro[1] if zh else intro[0],
        retry[1] if zh else retry[0],
    )


def _support_failures(m: TokenMint, zh: bool) -> list[Plant]:
    warehouse = f"WH-{m.digits(3)}{m.upper(2)}"
    gateway = f"gw_{m.alnum(12)}"
    carrier = f"ca_{m.alnum(8)}"
    case = f"CASE-{m.digits(5)}"
    return [
        _support_failure(
            zh,
            "issue_replacement",
            {"warehouse": warehouse, "priority": "express"},
            f"REPLACEMENT_BLOCKED: warehouse {warehouse} has no stock for this model "
            f"(request {case})",
            ((warehouse,), ("no stock",)),
            ("I'll ship the replacement from the nearest warehouse.", "我从最近的仓库发出换货。"),
        ),
        _support_failure(
            zh,
            "refund_payment",
            {"reason": "damaged_on_arrival", "method": "original"},
            f"PAYMENT_GATEWAY_ERROR 402: card expired (gateway ref {gateway})",
            ((gateway,), ("card expired",)),
            ("I'll start a refund to the original payment method.", "我先向原支付方式发起退款。"),
        ),
        _support_failure(
            zh,
            "create_return_label",
            {"carrier_account": carrier, "service": "ground"},
            f"CARRIER_UNAVAILABLE: carrier account {carrier} is suspended",
            ((carrier,), ("suspended",)),
            ("I'll generate a prepaid return label.", "我生成一张预付退货面单。"),
        ),
    ]


def _support_files(m: TokenMint, zh: bool, case: str) -> list[Plant]:
    notes = f"cases/{case}/notes.md"
    plan = f"cases/{case}/replacement_{m.alnum(4)}.json"
    reply = f"templates/replies/hinge_{m.alnum(4)}.md"
    return [
        _file_plant(zh, "write", notes, "# Case notes\n\n- hinge cracked on arrival\n"),
        _file_plant(zh, "write", plan, '{"action": "replace", "status": "requested"}\n'),
        _file_plant(zh, "edit", reply, "Dear customer,\nWe are sorry about the hinge.\n"),
    ]


def _support_corrections(m: TokenMint, zh: bool) -> list[Plant]:
    budget = _budget(
        m,
        zh,
        (400, 900),
        (120, 350),
        original=("My budget for the upgrade is {old}.", "这次升级我的预算是 {old}。"),
        correction=(
            "Thinking about it more, keep spend under {new}.",
            "想了想，花费还是控制在{new}以内吧。",
        ),
    )
    old_point, new_point = f"PUP-{m.digits(5)}", f"PUP-{m.digits(5)}"
    d1 = m.date()
    d2 = _later(d1, m)
    if zh:
        return [
            budget,
            _replace(
                old_point, new_point, "请寄到自提点 {old}。", "自提点不是 {old}，而是 {new}。"
            ),
            _replace(d1, d2, "我需要在 {old} 之前收到。", "收货截止日期改成 {new}。"),
        ]
    return [
        budget,
        _replace(
            old_point,
            new_point,
            "Please send it to pickup point {old}.",
            "Actually, use {new} instead of {old}.",
        ),
        _replace(d1, d2, "I need it delivered by {old}.", "The delivery deadline is now {new}."),
    ]
