"""What the user and the assistant say, in English and in Chinese.

Everything here is a template with ``«slot»`` markers filled from the session's world, so a
long session repeats patterns (as real ones do) without repeating exact messages. The
planted-fact sentences live here too: a goal, user constraints and identifier sentences,
each written so that the fact itself is an exact substring that a checker can look for.
"""

from __future__ import annotations

GOALS = {
    "en": (
        "I want you to make `«cls».«method»()` idempotent so a retried request can never "
        "apply the same «noun» twice.",
        "The goal is to replace the hand-rolled retry loop in `«path»` with one shared backoff "
        "helper, with tests for the edge cases.",
        "Goal: find and fix the leak in `«cls»` that makes memory grow by about «n» MB an hour "
        "under load.",
        "I need `«path»` split into smaller modules without changing its behaviour or its tests.",
        "The goal for today: add a `«flag»` option to `«cls»` so callers can skip the cache, "
        "and document it.",
        "We need to migrate `«cls»` from callbacks to async/await and keep every existing test "
        "green.",
    ),
    "zh": (
        "目标：让 `«cls».«method»()` 变成幂等的，重试的请求绝不能把同一个«noun»处理两次。",
        "这次的目标是把 `«path»` 里手写的重试循环换成一个共用的退避（backoff）工具函数，"
        "并补上边界情况的测试。",
        "目标：找到并修复 `«cls»` 的内存泄漏，压测时内存每小时大约涨 «n» MB。",
        "我需要把 `«path»` 拆成几个更小的模块，行为和现有测试都不能变。",
        "今天的目标：给 `«cls»` 加一个 `«flag»` 选项，让调用方可以跳过缓存，并写好文档。",
        "我们要把 `«cls»` 从回调风格迁移到 async/await，现有测试必须全部保持通过。",
    ),
}

CONSTRAINTS = {
    "en": (
        "Never change the public API of `«cls»`.",
        "Don't touch files under «dir»/.",
        "Always run `«testcmd»` before you commit.",
        "Do not add new dependencies to «manifest».",
        "Keep every function under «n» lines.",
        "Use «logger» for logging, never print statements.",
        "Every commit message must start with the ticket id.",
        "Never use `git push --force` on this repo.",
        "Don't rename any existing test.",
    ),
    "zh": (
        "不要修改 `«cls»` 的公共 API。",
        "不要动 «dir»/ 目录下的文件。",
        "提交之前必须先跑 `«testcmd»`。",
        "不要往 «manifest» 里加新的依赖。",
        "每个函数不要超过 «n» 行。",
        "日志统一用 «logger»，不要用 print。",
        "提交信息必须以工单号开头。",
        "禁止在这个仓库上用 `git push --force`。",
        "不要重命名任何已有的测试。",
    ),
}

# Identifier sentences: «v» is the planted value (the fact's text).
IDENTIFIERS = {
    "en": {
        "ticket": ("This is tracked as «v».", "The ticket is «v», put it in the PR title."),
        "port": (
            "The local API listens on port «v», not the default one.",
            "Heads up: the dev server now runs on port «v».",
        ),
        "sha": (
            "It broke with commit «v»; everything before that was fine.",
            "Bisect says the first bad commit is «v».",
        ),
        "url": (
            "The staging endpoint to test against is «v»",
            "Use «v» for the integration check, it has real data.",
        ),
        "version": (
            "This has to ship in release «v».",
            "We're cutting version «v» tomorrow, so it must land before then.",
        ),
        "customer": (
            "The customer who reported it is «v».",
            "Use account «v» to reproduce; it has the bad data.",
        ),
        "commit": ("Committed as `«v»`.", "The change is in commit `«v»`."),
    },
    "zh": {
        "ticket": ("对应的工单是 «v»。", "工单号 «v»，PR 标题里要带上。"),
        "port": (
            "本地 API 监听的是 «v» 端口，不是默认端口。",
            "注意：开发服务器现在跑在 «v» 端口上。",
        ),
        "sha": ("是从提交 «v» 开始坏的，之前都正常。", "bisect 的结果是第一个坏提交是 «v»。"),
        "url": ("测试要用的 staging 地址是 «v»", "集成测试用 «v»，那里有真实数据。"),
        "version": ("这个必须在 «v» 版本里发布。", "明天要发 «v» 版本，所以必须在那之前合进去。"),
        "customer": ("报这个问题的客户是 «v»。", "用账号 «v» 复现，它的数据有问题。"),
        "commit": ("已提交，提交号是 `«v»`。", "改动在提交 `«v»` 里。"),
    },
}

KICKOFF = {
    "en": (
        "Start by reading the relevant code and tell me what you find before changing anything.",
        "Have a look around first, then propose a plan.",
        "Go ahead, and keep me posted on anything surprising.",
    ),
    "zh": (
        "先读一下相关代码，改之前把你的发现告诉我。",
        "先熟悉一下代码，然后给我一个计划。",
        "开始吧，有什么意外情况随时告诉我。",
    ),
}

USER_REQUESTS = {
    "en": (
        "Now run the tests and fix whatever fails.",
        "Can you look at why `«method»` returns the wrong total when the list is empty?",
        "Add a test for `«method»` covering the «status» case.",
        "Refactor `«path»` so `«cls»` doesn't reach into the «dep» directly.",
        "CI says: `«error»`. Fix it.",
        "ok, commit this.",
        "Why did you change `«path»`? Revert that part, it's unrelated.",
        "The type checker is unhappy again, please clean it up.",
        "Let's move on to `«cls»`. Same treatment: read it, then tell me what's risky.",
        "Can you double-check `«test_path»`? I think one of the tests asserts the wrong thing.",
        "That looks wrong to me — `«method»` should never be called twice for the same key.",
        "Rename `«method»` to something clearer, and update the callers.",
        "What's left before we can open the PR?",
        "Run the linter and fix what it finds, nothing more.",
        "Please add logging around the retry path so we can see it in production.",
        "Try it against the whole suite, not just that one file.",
        "I merged main into this branch, run everything again.",
        "Good. Now do the same for `«path»`.",
        "Explain in two sentences what `«cls»` is for.",
    ),
    "zh": (
        "现在跑一下测试，把失败的都修好。",
        "看一下为什么列表为空的时候 `«method»` 返回的总数不对？",
        "给 `«method»` 加一个覆盖 «status» 情况的测试。",
        "重构一下 `«path»`，让 `«cls»` 不要直接访问 «dep»。",
        "CI 报错：`«error»`，修一下。",
        "好的，提交吧。",
        "你为什么改了 `«path»`？这部分跟这次无关，改回去。",
        "类型检查又报错了，清理一下。",
        "接下来看 `«cls»`。一样的流程：先读代码，再告诉我哪里有风险。",
        "帮我再检查一下 `«test_path»`，我觉得有个测试断言写错了。",
        "我觉得不对——同一个 key 绝对不应该调用两次 `«method»`。",
        "把 `«method»` 改个更清楚的名字，调用的地方也一起改。",
        "开 PR 之前还差什么？",
        "跑一下 linter，只修它报的问题，别的不要动。",
        "在重试逻辑周围加点日志，方便我们在生产环境排查。",
        "用整个测试集跑一遍，不要只跑那一个文件。",
        "我把 main 合进这个分支了，全部重新跑一遍。",
        "很好。`«path»` 也照这样处理。",
        "用两句话解释一下 `«cls»` 是干什么的。",
    ),
}

USER_OPENERS = {
    "en": ("", "", "", "Thanks. ", "Ok. ", "Hmm. ", "Nice. ", "Wait. ", "One more thing: "),
    "zh": ("", "", "", "谢谢。", "好的。", "嗯。", "不错。", "等一下。", "还有一件事："),
}

ERRORS = (
    "AssertionError: assert 0 == 3",
    "TypeError: Cannot read properties of undefined (reading 'status')",
    "KeyError: 'tenant_id'",
    "error TS2345: Argument of type 'string | undefined' is not assignable",
    "Failed: DID NOT RAISE <class 'ValueError'>",
    "E501 Line too long (117 > 100)",
)

# Short text an assistant writes before its tool calls, by stage of the turn.
ASSISTANT_PRE = {
    "en": {
        "explore": (
            "Let me look at `«path»` first.",
            "I'll start by reading the module and its tests.",
            "Let me run the tests to see where we are.",
            "Searching for the callers of `«method»`.",
            "Let me check how `«cls»` is constructed elsewhere.",
            "That error is in `«path»`. Let me check the surrounding code.",
        ),
        "modify": (
            "The failure comes from `«method»`: the comparison is inverted. Fixing it.",
            "I'll make the change in `«path»` and add a test for it.",
            "Found it. `«method»` doesn't handle the «status» case.",
            "Updating the test to match the new behaviour.",
        ),
        "verify": (
            "Now the tests again.",
            "Running the checks.",
            "Checking the diff before committing.",
            "Let me make sure nothing else broke.",
        ),
    },
    "zh": {
        "explore": (
            "先看一下 `«path»`。",
            "我先读一下这个模块和它的测试。",
            "先跑一下测试，看看现状。",
            "搜索一下 `«method»` 的调用方。",
            "看看其他地方是怎么构造 `«cls»` 的。",
            "这个错误在 `«path»` 里，我看看上下文。",
        ),
        "modify": (
            "失败来自 `«method»`：比较条件写反了，我来修。",
            "我在 `«path»` 里改一下，并加一个测试。",
            "找到了。`«method»` 没有处理 «status» 的情况。",
            "更新测试，让它符合新的行为。",
        ),
        "verify": (
            "再跑一次测试。",
            "跑一下检查。",
            "提交前先看一下 diff。",
            "确认一下其他地方没有被改坏。",
        ),
    },
}

FINAL_OPENERS = {
    "en": (
        "Done.",
        "Fixed.",
        "Here's what I found.",
        "All green now.",
        "Summary of the changes:",
        "I've made the change.",
        "Short version: the bug was in `«method»`.",
    ),
    "zh": (
        "完成了。",
        "已修复。",
        "下面是我的发现。",
        "现在全部通过了。",
        "改动总结：",
        "已经改好了。",
        "简单说：问题出在 `«method»`。",
    ),
}

FINAL_POINTS = {
    "en": (
        "`«method»` now checks the cache before calling the «dep», so a retry is a no-op.",
        "The retry loop in `«path»` used `<` where it needed `<=`, so it gave up one attempt "
        "early.",
        "Added «n» tests in `«test_path»`, including the empty-input case.",
        "`«cls»` no longer imports the «dep» directly; it gets it through the constructor.",
        "Type errors are gone: `«method»` returns `«Rec» | None` now and callers handle it.",
        "The flaky test was relying on dict ordering; it now sorts before comparing.",
        "I left `«path»` alone since it's outside the scope of this change.",
        "The failing test asserted the old behaviour; I updated it to match the spec.",
        "Logging now includes the «noun» id and the attempt number.",
    ),
    "zh": (
        "`«method»` 现在会先查缓存再调用 «dep»，所以重试不会有副作用。",
        "`«path»` 里的重试循环把 `<=` 写成了 `<`，少重试了一次。",
        "在 `«test_path»` 里加了 «n» 个测试，包括输入为空的情况。",
        "`«cls»` 不再直接 import «dep»，改为通过构造函数传入。",
        "类型错误已经没有了：`«method»` 现在返回 `«Rec» | None`，调用方都做了处理。",
        "那个不稳定的测试依赖了字典顺序，现在先排序再比较。",
        "`«path»` 我没有动，因为它不在这次改动的范围里。",
        "失败的测试断言的是旧行为，我按规格更新了它。",
        "日志里现在带上了«noun» id 和重试次数。",
    ),
}

FINAL_BLOCKED = {
    "en": (
        "Not done yet: the checks still fail after my change.",
        "I'm stuck on one failure.",
        "Partial progress.",
    ),
    "zh": ("还没完成：改完之后检查仍然不通过。", "卡在一个失败上了。", "有部分进展。"),
}

BLOCKED_CLOSERS = {
    "en": (
        "One check is still failing; I need a decision from you before going on.",
        "The remaining failure looks unrelated to this change. Should I dig into it or leave it?",
        "I'd rather not guess here: do you want the old behaviour kept or the test changed?",
    ),
    "zh": (
        "还有一个检查没通过，我需要你拍板才能继续。",
        "剩下的失败看起来和这次改动无关。要我深入查一下，还是先放着？",
        "这里我不想瞎猜：是保留旧行为，还是改测试？",
    ),
}

# The first turn usually ends with findings and a plan rather than a fix.
PLAN_OPENERS = {
    "en": ("Here's what I found and how I'd approach it.", "I've read through the code. Plan:"),
    "zh": ("这是我的发现和打算的做法。", "代码我看完了。计划如下："),
}

PLAN_STEPS = {
    "en": (
        "Write a failing test for `«method»` that reproduces the problem.",
        "Move the retry logic out of `«cls»` into a small helper.",
        "Make `«method»` check the cache before calling the «dep».",
        "Run the whole suite and the type checker after each step.",
        "Leave `«path»`'s public signatures as they are.",
        "Add logging with the «noun» id so we can trace it in production.",
    ),
    "zh": (
        "先给 `«method»` 写一个能复现问题的失败测试。",
        "把重试逻辑从 `«cls»` 里挪到一个小的工具函数中。",
        "让 `«method»` 在调用 «dep» 之前先查缓存。",
        "每一步之后都跑完整测试和类型检查。",
        "`«path»` 的公共签名保持不变。",
        "加上带«noun» id 的日志，方便在生产环境追踪。",
    ),
}

PLAN_CLOSERS = {
    "en": ("Shall I start with step 1?", "OK to go ahead?"),
    "zh": ("要我从第 1 步开始吗？", "可以开始了吗？"),
}

FINAL_CLOSERS = {
    "en": (
        "`«testcmd»` passes («n» tests).",
        "Want me to commit this?",
        "Next I'd look at `«cls»`, which has the same pattern.",
        "Nothing else changed.",
        "",
        "",
    ),
    "zh": (
        "`«testcmd»` 全部通过（«n» 个测试）。",
        "需要我提交吗？",
        "下一步我建议看看 `«cls»`，它也有同样的问题。",
        "其他地方都没有改动。",
        "",
        "",
    ),
}

THINKING = {
    "en": (
        "The user wants «goal_short». Before editing I should check how `«cls»` uses the «dep»; "
        "if the cache is filled in two places the fix has to cover both.",
        "The test failure says the total is off. `«method»` skips «status» items but the fixture "
        "marks them differently — I need to read the fixture before assuming the code is wrong.",
        "Two options: patch `«method»` in place, or move the retry into a helper. The helper is "
        "cleaner but touches more files; the user asked to keep the change small, so in place.",
        "I should not forget the constraints the user gave earlier. Let me re-check which files "
        "I am allowed to modify before touching `«path»`.",
        "Running the whole suite takes longer but the last change touched shared code, so a "
        "single file is not enough evidence.",
        "The diff looks right. One more look at the error path: if `«method»` raises, the lock "
        "is released by the context manager, so no deadlock.",
    ),
    "zh": (
        "用户想要的是«goal_short»。改之前要确认 `«cls»` 是怎么用 «dep» 的，"
        "如果缓存在两个地方被写入，修复要同时覆盖。",
        "测试说总数不对。`«method»` 会跳过 «status» 状态的条目，"
        "但 fixture 里的标记可能不一样——先读 fixture 再下结论。",
        "两个方案：直接改 `«method»`，或者把重试挪到一个工具函数里。"
        "后者更干净但改动面更大，用户要求改动尽量小，所以就地修改。",
        "Let me re-check the constraints the user gave earlier before touching `«path»`.",
        "整个测试集跑得慢一些，但上一个改动动了共享代码，只跑一个文件不够。",
        "diff 看起来没问题。再看一眼错误路径：如果 `«method»` 抛异常，"
        "锁会由 with 语句释放，不会死锁。",
    ),
}

# Answers to turns that need no tools (a question, a correction, a go-ahead).
ANSWERS = {
    "en": (
        "`«cls»` is the «role» for «noun»s: it owns their cache and is the only place that "
        "writes them back. Callers go through `«method»` and never touch the «dep» directly.",
        "Understood, I won't touch it.",
        "You're right, that change was outside the scope. I'll leave `«path»` as it was from "
        "now on.",
        "Good point. The safer order is to write the test first, then change `«method»`; I'll "
        "do it that way.",
        "Before the PR: the type checker, one flaky test in `«test_path»`, and the changelog "
        "entry. Everything else is done.",
        "Noted.",
    ),
    "zh": (
        "`«cls»` 是«noun»的 «role»：它持有缓存，也是唯一负责回写的地方。"
        "调用方都走 `«method»`，不会直接碰 «dep»。",
        "明白，我不会动它。",
        "你说得对，那个改动超出了范围。之后我不会再动 `«path»`。",
        "有道理。更稳妥的顺序是先写测试，再改 `«method»`，我就按这个来。",
        "开 PR 之前还差：类型检查、`«test_path»` 里一个不稳定的测试，以及 changelog。"
        "其他都完成了。",
        "收到。",
    ),
}

GOAL_SHORT = {
    "en": ("the fix to stay minimal", "retries to be safe", "the tests to stay green"),
    "zh": ("改动尽量小", "重试要安全", "测试保持通过"),
}

CUSTOM_MESSAGES = {
    "en": (
        ("git-status", "Branch «branch» is «n» commits ahead of origin; «m» files modified."),
        ("todo-reminder", 'Open todos: «n». Oldest: "cover «method» with tests".'),
        ("ci-status", "CI for «sha»: «n» passed, «m» failed (job «job»)."),
    ),
    "zh": (
        ("git-status", "分支 «branch» 比 origin 超前 «n» 个提交，有 «m» 个文件被修改。"),
        ("todo-reminder", "未完成的待办：«n» 项。最早的一项：“给 «method» 补测试”。"),
        ("ci-status", "提交 «sha» 的 CI：«n» 个通过，«m» 个失败（任务 «job»）。"),
    ),
}

SESSION_NAMES = {
    "en": ("«noun» idempotency fix", "retry cleanup in «cls»", "«project»: «noun» bug hunt"),
    "zh": ("修复«noun»幂等问题", "«cls» 重试逻辑清理", "«project»：排查«noun»问题"),
}

LABELS = ("before-refactor", "tests-green", "checkpoint", "bisect-start", "good-state", "wip")
