"""Filler turns: the ordinary work between canaries, with tool calls and large results.

Compaction only has something to prove when most of the history is bulk that may go —
files read, test runs, order records, knowledge-base pages — and the few facts that
matter are buried in it. Every id-like value here comes from the scenario's
:class:`~synopsis.eval.canaries.TokenMint`, so filler can never contain a canary's token
by chance.
"""

from __future__ import annotations

import json
import random
from dataclasses import dataclass, field
from typing import Any

from synopsis.eval.canaries import TokenMint


@dataclass(frozen=True, slots=True)
class Step:
    """One tool call of a turn and its result."""

    intro: str
    tool: str
    arguments: dict[str, Any]
    result: str
    is_error: bool = False


@dataclass(frozen=True, slots=True)
class FillerTurn:
    request: str
    steps: tuple[Step, ...]
    answer: str


PROCEED = {
    ("coding", False): (
        "Go ahead with the next step of the migration.",
        "Please continue with the ledger work.",
        "OK, carry on.",
    ),
    ("coding", True): ("继续推进迁移的下一步。", "请继续做 ledger 相关的工作。", "好的，继续。"),
    ("support", False): (
        "Please go ahead and sort that out.",
        "OK, please proceed.",
        "Can you take care of it now?",
    ),
    ("support", True): ("那就请您处理一下吧。", "好的，请继续办理。", "现在可以帮我处理吗？"),
}
"""What a user says to let the agent act (a turn with a planted tool call opens with it)."""


def _pick(zh: bool, en: str, cn: str) -> str:
    return cn if zh else en


# --- coding agent -----------------------------------------------------------------------

PACKAGES = ("billing", "invoicing", "payments", "accounts", "settlement", "treasury")
_MODULES = (
    "models",
    "service",
    "client",
    "schema",
    "handlers",
    "tasks",
    "config",
    "api",
    "repository",
    "events",
    "validators",
    "rounding",
    "exports",
    "periods",
)
_VERBS = (
    "load",
    "parse",
    "build",
    "apply",
    "resolve",
    "compute",
    "format",
    "validate",
    "merge",
    "fetch",
    "store",
    "render",
    "normalize",
    "split",
    "settle",
    "reconcile",
)
_NOUNS = (
    "invoice",
    "entry",
    "batch",
    "account",
    "payment",
    "currency",
    "period",
    "report",
    "customer",
    "refund",
    "fee",
    "balance",
    "journal",
    "statement",
)
_TOPICS = (
    ("retries", "重试"),
    ("timeouts", "超时"),
    ("pagination", "分页"),
    ("currency rounding", "金额舍入"),
    ("error handling", "错误处理"),
    ("logging", "日志"),
    ("caching", "缓存"),
    ("input validation", "输入校验"),
)
_COMMITS = (
    "fix rounding of negative fees",
    "add period filter to exports",
    "log the batch size on retry",
    "split settlement into two phases",
    "drop the legacy CSV writer",
    "type the repository layer",
    "cache currency lookups",
    "handle empty journals",
    "rename balance helpers",
    "bump client timeout to 30s",
    "tidy up validators",
    "add missing index on entries.period",
)
_AUTHORS = ("Mina Park", "Jonas Weber", "Priya Nair", "Lucas Silva", "Chen Jie", "Ana Costa")


@dataclass
class CodingWorld:
    package: str
    modules: tuple[str, ...]
    files: dict[str, str] = field(default_factory=dict)
    """Contents of files already read, so a file reads the same every time."""

    def path(self, module: str) -> str:
        return f"src/{self.package}/{module}.py"


def coding_world(rng: random.Random) -> CodingWorld:
    return CodingWorld(rng.choice(PACKAGES), tuple(rng.sample(_MODULES, 8)))


def _function(r: random.Random, cls: str) -> list[str]:
    verb, noun = r.choice(_VERBS), r.choice(_NOUNS)
    name = f"{verb}_{noun}{r.choice(('', 's', '_batch', '_rows'))}"
    limit = r.randint(10, 500)
    body = r.choice(
        (
            [
                "    result = []",
                "    for item in items[:limit]:",
                f"        if item.amount < Decimal({r.randint(0, 90)}):",
                '            log.debug("skipping %s", item.id)',
                "            continue",
                "        result.append(item)",
                "    return result",
            ],
            [
                "    total = Decimal(0)",
                "    for item in items:",
                f"        total += item.amount.quantize(Decimal('0.{'0' * r.randint(1, 3)}1'))",
                "    if total < 0:",
                f'        raise ValueError("negative {noun} total")',
                "    return [item for item in items if item.amount]",
            ],
            [
                "    seen: set[str] = set()",
                "    out = []",
                "    for item in sorted(items, key=lambda i: i.id):",
                "        if item.id in seen:",
                "            continue",
                "        seen.add(item.id)",
                "        out.append(item)",
                "    return out[:limit]",
            ],
        )
    )
    return [
        f"def {name}(items: list[{cls}], *, limit: int = {limit}) -> list[{cls}]:",
        f'    """{verb.capitalize()} the {noun} records of one {r.choice(_NOUNS)}."""',
        *body,
        "",
        "",
    ]


def _code_file(r: random.Random, package: str, module: str) -> str:
    cls = f"{r.choice(_NOUNS).capitalize()}{r.choice(('Row', 'Record', 'Item', 'Line'))}"
    lines = [
        f'"""{module.capitalize()} of the {package} package."""',
        "",
        "from __future__ import annotations",
        "",
        "import logging",
        "from dataclasses import dataclass",
        "from decimal import Decimal",
        "",
        "log = logging.getLogger(__name__)",
        "",
        "",
        "@dataclass(frozen=True)",
        f"class {cls}:",
        "    id: str",
        "    amount: Decimal",
        '    currency: str = "EUR"',
        f"    {r.choice(_NOUNS)}_id: str | None = None",
        "",
        "",
    ]
    for _ in range(r.randint(6, 11)):
        lines.extend(_function(r, cls))
    return "\n".join(lines).rstrip() + "\n"


def _functions_in(text: str) -> list[str]:
    return [line[4 : line.index("(")] for line in text.split("\n") if line.startswith("def ")]


def _read(world: CodingWorld, r: random.Random, module: str) -> tuple[str, str]:
    path = world.path(module)
    if path not in world.files:
        world.files[path] = _code_file(r, world.package, module)
    return path, world.files[path]


def _pytest(r: random.Random, module: str) -> tuple[str, int, float]:
    count = r.randint(24, 70)
    lines = [
        "============================= test session starts ==============================",
        "platform linux -- Python 3.11.9, pytest-8.2.2, pluggy-1.5.0",
        "rootdir: /home/dev/project",
        "configfile: pyproject.toml",
        f"collected {count} items",
        "",
    ]
    for index in range(count):
        percent = (index + 1) * 100 // count
        name = f"test_{r.choice(_VERBS)}_{r.choice(_NOUNS)}_{index}"
        lines.append(f"tests/test_{module}.py::{name} PASSED{' ' * 12}[{percent:3d}%]")
    seconds = r.uniform(0.8, 9.5)
    lines.append("")
    lines.append(f"============================== {count} passed in {seconds:.2f}s ==============")
    return "\n".join(lines), count, seconds


def _git_log(r: random.Random, path: str) -> str:
    lines = []
    for _ in range(r.randint(12, 22)):
        sha = "".join(r.choice("0123456789abcdef") for _ in range(40))
        lines += [
            f"commit {sha}",
            f"Author: {r.choice(_AUTHORS)} <dev{r.randint(1, 40)}@example.org>",
            f"Date:   2025-{r.randint(1, 12):02d}-{r.randint(1, 28):02d}",
            "",
            f"    {r.choice(_COMMITS)}",
            "",
            f" {path} | {r.randint(2, 80)} {'+' * r.randint(1, 9)}{'-' * r.randint(0, 6)}",
            "",
        ]
    return "\n".join(lines)


def _grep(world: CodingWorld, r: random.Random, name: str) -> str:
    lines = []
    for _ in range(r.randint(14, 36)):
        module = r.choice(world.modules)
        where = r.choice((world.path(module), f"tests/test_{module}.py"))
        code = r.choice(
            (
                f"    rows = {name}(items, limit=limit)",
                f"from {world.package}.{module} import {name}",
                f"    assert {name}([]) == []",
                f"        result = {name}(batch.items)",
                f"    # {name} keeps the input order",
            )
        )
        lines.append(f"{where}:{r.randint(3, 400)}:{code}")
    return "\n".join(lines)


def coding_turn(world: CodingWorld, r: random.Random, zh: bool) -> FillerTurn:
    kind = r.choice(("explore", "explore", "tests", "history", "search"))
    module = r.choice(world.modules)
    path, text = _read(world, r, module)
    functions = _functions_in(text) or ["main"]
    name = r.choice(functions)
    if kind == "explore":
        topic, topic_zh = r.choice(_TOPICS)
        request = _pick(
            zh,
            f"Can you look at how `{path}` handles {topic}?",
            f"帮我看看 `{path}` 是怎么处理{topic_zh}的？",
        )
        reading = [
            Step(
                _pick(zh, "Reading the module.", "先读一下这个模块。"), "read", {"path": path}, text
            )
        ]
        if r.random() < 0.6:
            reading.append(
                Step(
                    _pick(zh, "Checking the call sites.", "再看看调用点。"),
                    "bash",
                    {"command": f'grep -rn "{name}" src tests'},
                    _grep(world, r, name),
                )
            )
        answer = _pick(
            zh,
            f"`{path}` has {len(functions)} helpers; {topic} is handled inline in `{name}()`, "
            "with no shared policy. Nothing there blocks the migration for now.",
            f"`{path}` 里有 {len(functions)} 个辅助函数；{topic_zh}在 `{name}()` 里直接处理，"
            "没有统一的策略。目前这里不影响迁移。",
        )
        return FillerTurn(request, tuple(reading), answer)
    if kind == "tests":
        output, count, seconds = _pytest(r, module)
        request = _pick(
            zh,
            f"Run the tests for `{module}` and tell me where we stand.",
            f"跑一下 `{module}` 的测试，看看现在什么情况。",
        )
        steps: tuple[Step, ...] = (
            Step(
                _pick(zh, "Running the tests.", "运行测试。"),
                "bash",
                {"command": f"pytest tests/test_{module}.py -v"},
                output,
            ),
        )
        answer = _pick(
            zh,
            f"All {count} tests in `tests/test_{module}.py` pass ({seconds:.2f}s).",
            f"`tests/test_{module}.py` 的 {count} 个测试全部通过（{seconds:.2f} 秒）。",
        )
        return FillerTurn(request, steps, answer)
    if kind == "history":
        request = _pick(
            zh, f"What changed recently around `{path}`?", f"`{path}` 最近都改了些什么？"
        )
        history = (
            Step(
                _pick(zh, "Looking at the history.", "看一下提交历史。"),
                "bash",
                {"command": f"git log --stat -n 20 -- {path}"},
                _git_log(r, path),
            ),
            Step(
                _pick(zh, "And the current file.", "再看看当前的文件。"),
                "read",
                {"path": path},
                text,
            ),
        )
        answer = _pick(
            zh,
            f"Mostly small fixes: {r.choice(_COMMITS)}, {r.choice(_COMMITS)}. "
            f"`{name}()` is the most edited function.",
            f"基本都是小修改：{r.choice(_COMMITS)}、{r.choice(_COMMITS)}。"
            f"改动最多的是 `{name}()`。",
        )
        return FillerTurn(request, history, answer)
    request = _pick(zh, f"Where do we call `{name}`?", f"`{name}` 都在哪里被调用？")
    steps = (
        Step(
            _pick(zh, "Searching.", "搜索一下。"),
            "bash",
            {"command": f'grep -rn "{name}" src tests'},
            _grep(world, r, name),
        ),
    )
    answer = _pick(
        zh,
        f"`{name}` is called from the handlers and the tests; the batch path calls it twice.",
        f"`{name}` 在 handlers 和测试里被调用；批处理路径里调用了两次。",
    )
    return FillerTurn(request, steps, answer)


# --- customer service -----------------------------------------------------------------

PRODUCTS = (
    ("Aurora 14 laptop", "极光 14 笔记本电脑"),
    ("Nimbus X2 tablet", "Nimbus X2 平板"),
    ("Vega 27 monitor", "Vega 27 显示器"),
    ("Orion ANC headphones", "Orion 降噪耳机"),
)
_ITEMS = (
    "USB-C charger",
    "sleeve",
    "screen protector",
    "stylus",
    "docking station",
    "travel adapter",
    "cleaning kit",
    "HDMI cable",
    "mouse",
    "warranty plan",
)
_STATUSES = (
    "label_created",
    "picked_up",
    "in_transit",
    "arrived_at_hub",
    "departed_hub",
    "out_for_delivery",
    "delivered",
)
_CITIES = ("Portland", "Denver", "Austin", "Columbus", "Raleigh", "Madison", "Boise")
_CITIES_ZH = ("上海", "杭州", "南京", "苏州", "成都", "武汉", "西安")
_POLICY_TOPICS = (
    ("returns", "退货"),
    ("warranty repairs", "保修维修"),
    ("price matching", "价格保护"),
    ("shipping delays", "物流延误"),
    ("refund timing", "退款到账时间"),
)
_KB_EN = (
    "Items can be returned within {n} days of delivery if they are in their original packaging.",
    "Refunds are issued to the original payment method within {n} business days.",
    "Warranty repairs are handled by an authorized service center; shipping is free both ways.",
    "Accessories bought with a device are returned together with the device.",
    "A restocking fee of {n}% applies to opened items that are not defective.",
    "Price matching is available for {n} days after purchase for identical items.",
    "Orders shipped with express delivery cannot be rerouted after pickup.",
    "If a parcel shows no movement for {n} days, the carrier opens a trace request.",
    "Damaged-on-arrival claims need photos of the item and the outer box.",
    "Gift cards and downloadable software are not refundable.",
    "Customers can request a replacement instead of a refund while stock lasts.",
    "Pickup points hold parcels for {n} days before returning them to the sender.",
)
_KB_ZH = (
    "商品在签收后 {n} 天内、包装完好的情况下可以退货。",
    "退款会在 {n} 个工作日内退回原支付方式。",
    "保修维修由授权服务中心处理，往返运费全免。",
    "随设备一起购买的配件需要与设备一起退回。",
    "已拆封且无质量问题的商品收取 {n}% 的重新上架费。",
    "相同商品在购买后 {n} 天内可申请价格保护。",
    "选择加急配送的订单在揽收后不能更改地址。",
    "包裹 {n} 天没有物流更新时，快递公司会发起查件。",
    "到货损坏的申请需要提供商品和外箱的照片。",
    "礼品卡和可下载软件不支持退款。",
    "库存充足时，客户可以选择换货而不是退款。",
    "自提点会保管包裹 {n} 天，之后退回寄件人。",
)


@dataclass
class SupportWorld:
    product: str
    email: str
    orders: tuple[str, ...]


def support_world(rng: random.Random, mint: TokenMint, zh: bool) -> SupportWorld:
    product = rng.choice(PRODUCTS)[1 if zh else 0]
    orders = tuple(f"ORD-{mint.digits(7)}" for _ in range(5))
    return SupportWorld(product, f"customer{mint.digits(4)}@example.com", orders)


def _json(value: Any) -> str:
    return json.dumps(value, indent=2, ensure_ascii=False)


def _events(r: random.Random, zh: bool, count: int) -> list[dict[str, Any]]:
    events = []
    for index in range(count):
        status = _STATUSES[min(index * len(_STATUSES) // count, len(_STATUSES) - 1)]
        events.append(
            {
                "time": f"2026-01-{r.randint(2, 28):02d}T{r.randint(0, 23):02d}:"
                f"{r.randint(0, 59):02d}:00Z",
                "status": status,
                "location": r.choice(_CITIES_ZH if zh else _CITIES),
                "facility": f"hub-{r.randint(10, 99)}",
            }
        )
    return events


def _order_record(r: random.Random, mint: TokenMint, zh: bool, order: str) -> str:
    items = [
        {
            "sku": f"ITM-{mint.digits(6)}",
            "name": r.choice(_ITEMS),
            "quantity": r.randint(1, 3),
            "unit_price": round(r.uniform(9, 240), 2),
        }
        for _ in range(r.randint(2, 6))
    ]
    record = {
        "order_id": order,
        "status": r.choice(("delivered", "in_transit", "processing")),
        "placed_at": f"2026-01-{r.randint(1, 20):02d}",
        "items": items,
        "payment": {"method": "card", "captured": True, "currency": "USD"},
        "shipments": [{"carrier": "UPS", "events": _events(r, zh, r.randint(10, 20))}],
        "notes": [],
    }
    return _json(record)


def _customer_record(r: random.Random, world: SupportWorld, mint: TokenMint, zh: bool) -> str:
    history = [
        {
            "order_id": r.choice(world.orders) if r.random() < 0.3 else f"ORD-{mint.digits(7)}",
            "date": f"2025-{r.randint(1, 12):02d}-{r.randint(1, 28):02d}",
            "total": round(r.uniform(15, 1400), 2),
            "status": r.choice(("delivered", "returned", "refunded", "delivered")),
        }
        for _ in range(r.randint(20, 40))
    ]
    record = {
        "email": world.email,
        "tier": r.choice(("standard", "plus", "business")),
        "addresses": [
            {"label": "home", "city": r.choice(_CITIES_ZH if zh else _CITIES)},
            {"label": "office", "city": r.choice(_CITIES_ZH if zh else _CITIES)},
        ],
        "order_history": history,
        "open_cases": r.randint(0, 2),
    }
    return _json(record)


def _kb(r: random.Random, zh: bool, topic: str) -> str:
    sentences = _KB_ZH if zh else _KB_EN
    articles = []
    for index in range(r.randint(4, 7)):
        body = " ".join(s.format(n=r.randint(2, 30)) for s in r.sample(sentences, r.randint(6, 10)))
        articles.append(f"### KB-{r.randint(1000, 9999)}: {topic} ({index + 1})\n\n{body}")
    return "\n\n".join(articles)


def support_turn(world: SupportWorld, r: random.Random, mint: TokenMint, zh: bool) -> FillerTurn:
    kind = r.choice(("order", "policy", "account", "tracking", "policy"))
    order = r.choice(world.orders)
    if kind == "order":
        request = _pick(
            zh,
            f"Can you check what happened with order {order}?",
            f"帮我查一下订单 {order} 的情况。",
        )
        steps = (
            Step(
                _pick(zh, "Looking up the order.", "查询订单。"),
                "lookup_order",
                {"order_id": order},
                _order_record(r, mint, zh, order),
            ),
        )
        answer = _pick(
            zh,
            f"Order {order} is on record with its shipment history; nothing unusual there.",
            f"订单 {order} 的记录和物流历史都在，没有异常。",
        )
        return FillerTurn(request, steps, answer)
    if kind == "policy":
        topic, topic_zh = r.choice(_POLICY_TOPICS)
        request = _pick(zh, f"What's your policy on {topic}?", f"你们的{topic_zh}政策是什么？")
        steps = (
            Step(
                _pick(zh, "Searching the knowledge base.", "查一下知识库。"),
                "search_kb",
                {"query": topic_zh if zh else topic},
                _kb(r, zh, topic_zh if zh else topic),
            ),
        )
        answer = _pick(
            zh,
            f"In short: the {topic} rules depend on the item's condition and timing; "
            "I've noted the ones that apply to you.",
            f"简单说：{topic_zh}的规则取决于商品状况和时间，适用于您的部分我已经记下了。",
        )
        return FillerTurn(request, steps, answer)
    if kind == "account":
        request = _pick(zh, "Can you pull up my account history?", "能帮我调出账户的历史记录吗？")
        steps = (
            Step(
                _pick(zh, "Opening the account.", "打开账户。"),
                "get_customer",
                {"email": world.email},
                _customer_record(r, world, mint, zh),
            ),
        )
        answer = _pick(
            zh,
            "I have your account open with the full order history.",
            "您的账户和完整的订单历史我这边已经打开了。",
        )
        return FillerTurn(request, steps, answer)
    tracking = f"TRK{mint.digits(9)}"
    request = _pick(
        zh, f"Where is the parcel for {order} right now?", f"{order} 的包裹现在到哪了？"
    )
    events = _json({"tracking": tracking, "events": _events(r, zh, r.randint(12, 24))})
    steps = (
        Step(
            _pick(zh, "Tracking the parcel.", "查询物流。"),
            "track_shipment",
            {"tracking_number": tracking},
            events,
        ),
    )
    answer = _pick(
        zh,
        f"The parcel for {order} is moving normally; the last scan is in the events above.",
        f"{order} 的包裹运输正常，最新扫描记录见上面。",
    )
    return FillerTurn(request, steps, answer)
