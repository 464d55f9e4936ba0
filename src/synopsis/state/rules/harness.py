"""Who wrote a user-role text: records of a harness' own text and of pasted terminal
output (see :mod:`synopsis.state.rules` for the record format; patterns see lower case).

An agent harness writes into user turns too — nudges about the model's tool protocol,
tool results, environment reports, reminders — and people paste terminal output into
what they type. None of it is the user's instruction. These records describe the
*classes* of such text by their shape, so that a harness we never read is caught as
well as the ones we did:

* ``automated`` — a text that declares itself automated or written by the system, or
  disclaims the user's authorship ("this is an automated message", "not sent by the
  user"): the whole stretch of the message it stands in is the harness';
* ``protocol`` — a sentence addressed to the model about its own tools or turn-taking,
  speaking of the user in the third person ("if you have completed the user's task, use
  the … tool", "you did not use a tool in your previous response"): its paragraph is the
  harness';
* ``tool-result`` — the line that heads a tool's result a harness returns in a user turn
  (``[read_file for 'a.py'] Result:``): the result runs to the end of its stretch;
* ``output-line`` — a line shaped like terminal or log output (a shell prompt, a stack
  frame, a log line, a code frame of a compiler error …): a run of them is one pasted
  block;
* ``output-failure`` — in pasted output, a line that says something failed; one that
  names the error or its code (``error-name``) stands for the block before others.

Line shapes are language-neutral (programs print them the same whatever the user's
language); the wordings of a harness are English and Chinese here.
"""

from __future__ import annotations

from synopsis.state.rules import Rule

_USER3 = (
    r"\bthe user(?:'s|s')?\b(?! (?:should|can|could|will|would|must|may|might|sees?|gets?|"
    r"clicks?|types?|enters?|opens?|logs?|signs?|wants?|needs?)\b)"
)
"""The user named in the third person, as a harness speaks of them to the model."""
_PROTOCOL_WORDS = (
    r"\b(?:(?:use|call|using|calling|invoke|invoking) (?:the |a |this |that |any )?"
    r"(?:[\w-]+ )?tool|tool[ _-]?(?:use|call|result)s?|function calls?|[a-z]+_[a-z_]+ tool|"
    r"(?:your|the|this) (?:previous |last |next )(?:response|reply|turn)|"
    r"conversationally|this operation|attempt completion)\b"
)
"""What a harness tells the model about: calling its tools, its own turns, the operation
it asked to run. Words an app's specification uses too ("the task list", "respond to the
user") are none of these."""

RULES: tuple[Rule, ...] = (
    # --- a text that says it was not typed by the user --------------------------------------
    Rule(
        "declares-itself-automated",
        "automated",
        r"\b(?:this|it) is an? (?:automated|automatic|auto-generated|system(?:-generated)?|"
        r"generated) (?:message|reminder|notice|note|notification|response|prompt)\b|"
        r"\bthis (?:message|reminder|note|notice|text|prompt) (?:was|is|has been) "
        r"(?:automatically |auto-)?(?:generated|sent|added|inserted|injected|appended)"
        r"(?: automatically| by (?:the )?(?:system|harness|tool|extension|ide|cli|editor|"
        r"agent|client))\b|\bdo not (?:respond|reply) to (?:it|this|these|them)"
        r"(?: messages?)? (?:conversationally|directly)\b",
        matches=(
            "(This is an automated message, so do not respond to it conversationally.)",
            "This reminder was inserted by the extension; act on it silently.",
            "Note: this is a system-generated notice about your context window.",
        ),
        misses=(
            "This is an automated test suite, please keep it green.",
            "Send an automated message to the channel when the deploy ends.",
        ),
    ),
    Rule(
        "disclaims-the-users-authorship",
        "automated",
        r"\bnot (?:actually |really )?(?:sent|written|typed|said) by the user(?=[.,;:!)]|\s*$)|"
        r"\bprovided by the (?:system|harness|ide|editor|extension)\b|"
        r"\bwe are setting up the context for (?:our|this|the) (?:chat|session|conversation)\b",
        matches=(
            "The following is an ephemeral message not actually sent by the user.",
            "Context provided by the IDE: the open tabs follow.",
            "This is the Foo CLI. We are setting up the context for our chat.",
        ),
        misses=(
            "The invoice was not sent by the user service.",
            "The data is provided by the vendor API.",
        ),
    ),
    Rule(
        "declares-itself-automated-zh",
        "automated",
        r"(?:这|此)是一?(?:条|个|则)?(?:自动(?:生成的?)?|系统(?:生成的?)?)(?:消息|提醒|通知|提示)|"
        r"(?:不是|并非)用户(?:发送|输入|写)的|请勿(?:直接)?回复(?:此|这条)(?:消息|提醒)",
        matches=("（这是一条自动消息，请勿直接回复此消息。）", "以下内容并非用户发送的。"),
        misses=("帮我写一个自动发消息的脚本。", "用户发送的消息要存到数据库。"),
    ),
    # --- the model's own protocol, told about the user in the third person ------------------
    Rule(
        "third-person-user-and-the-models-protocol",
        "protocol",
        rf"{_USER3}[^.!?\n]{{0,120}}?{_PROTOCOL_WORDS}|{_PROTOCOL_WORDS}[^.!?\n]{{0,120}}?"
        rf"{_USER3}|{_USER3} (?:has|have) (?:provided|given|sent) (?:you )?(?:feedback|an answer|"
        r"a response)\b",
        matches=(
            "If you have completed the user's task, use the attempt_completion tool.",
            "The user has provided feedback on the results. Consider their input to "
            "continue the task.",
            "The user denied this operation.",
            "Before calling a tool, restate the user's question in one line.",
        ),
        misses=(
            "When the user clicks save, the form should be validated.",
            "Show the user a toast if the upload fails.",
            "The user should see the current task in the sidebar.",
            "Show the user a toast when the task list fails; respond to the user in 2 s.",
            "The user_id column uses the session_token type.",
        ),
    ),
    Rule(
        "nudge-about-tool-use",
        "protocol",
        r"\byou did not use a tool\b|\bretry with a tool\b|\b(?:a|one) tool (?:call|use) is "
        r"required\b|\bdo not return an empty response\b|\buse (?:the|a) [a-z]+_[a-z_]+ tool\b|"
        r"\byour previous response (?:did not|didn't|was|contained)\b",
        matches=(
            "[ERROR] You did not use a tool in your previous response! Please retry.",
            "Reminder: Do not return an empty response when a tool call is required.",
            "If you need more detail, use the ask_followup_question tool.",
        ),
        misses=(
            "Why did you use the sed tool for that?",
            "Use the read tool, not cat.",
        ),
    ),
    Rule(
        "third-person-user-and-the-models-protocol-zh",
        "protocol",
        r"用户的(?:任务|请求|问题|反馈)[^。！？\n]{0,40}(?:工具|回复|回答|调用)|"
        r"(?:请|需要)?(?:使用|调用)\s*[a-z]+_[a-z_]+\s*工具|你(?:上一次|之前)的回复(?:中)?没有(?:使用|调用)工具",
        matches=(
            "如果你已经完成了用户的任务，请调用 attempt_completion 工具。",
            "你上一次的回复没有使用工具，请重试。",
        ),
        misses=("用户的任务列表要按时间排序。", "这个工具很好用。"),
    ),
    # --- a tool's result a harness returns in a user turn -----------------------------------
    Rule(
        "bracketed-tool-result-header",
        "tool-result",
        r"(?m:^[ \t]*\[[a-z][\w.:-]*(?: for [^\]\n]{0,400})?\] ?"
        r"(?:result|output|error)s?:?[ \t]*$)",
        matches=(
            "[execute_command for 'npm test'] Result:",
            "[read_file for 'src/app.ts'] Result:",
            "[attempt_completion] Result:",
            "[search_files for 'TODO' in '*.py'] Output:",
            "The command ran.\n[write_to_file for 'a.md'] Result:\nThe content was saved.",
        ),
        misses=(
            "[Kalibrieren] button still shows",
            "[id=qeDSbw] Result: we saw it",
            "see [the docs] result page",
        ),
    ),
    # --- terminal and log output ------------------------------------------------------------
    Rule(
        "shell-prompt",
        "output-line",
        r"^\s*(?:(?:➜|\$|%|❯|λ)\s+\S|ps [a-z]:\\\S*>|[a-z]:\\[^<>\n]*>\S?|"
        r"[\w.-]+@[\w.-]+:[^\n$#]*[$#] ?\S?)",
        matches=(
            "$ npm run build",
            r"C:\Apps\shop>npm run dev",
            r"PS C:\work> dir",
            "dana@box:~/src$ make",
            "➜  app git:(main) yarn",
        ),
        misses=("# Heading", "$5 is the fee", "I want to use C:\\ drive", "> I will use Redis."),
    ),
    Rule(
        "stack-frame",
        "output-line",
        r"^\s*(?:at (?:async |new )?[^\s(]+ \(.*\)\s*\{?|at \(?[^\s()]+:\d+(?::\d+)?\)?|"
        r"at <\w+>.*|at [\w -]+ \{|file \"[^\"]+\", line \d+.*|"
        r"traceback \(most recent call last\):|"
        r"caused by:.*|\.\.\. \d+ more|#\d+ 0x[0-9a-f]+ .*|--> \S+:\d+(?::\d+)?)$",
        matches=(
            "    at async query (src/lib/db.ts:13:15)",
            '  File "app.py", line 4, in <module>',
            "Traceback (most recent call last):",
            "Caused by:",
        ),
        misses=("at least keep the old one", "Look at the file again"),
    ),
    Rule(
        "error-header",
        "output-line",
        r"^\s*(?:uncaught |unhandled )?(?:[\w$]+\.)*[\w$]*(?:error|exception)(?: \[[\w.-]+\])?:"
        r"(?: .*)?$|^\s*(?:error|warning|fatal|panic|err!)(?:\[[\w-]+\])?:? .*$|"
        r"^\s*(?:hint|remote|note|help|caused by): .*$|"
        r"^\s*\S+\.[a-z0-9]+[:(]\d+(?:[:,]\d+)?\)?:? .*$|^\s*error [a-z]+\d+:.*$",
        matches=(
            "TypeError: Cannot read properties of null (reading 'x')",
            "Error: listen EADDRINUSE: address already in use :::9002",
            "src/app.ts:12:5 - error TS2322: Type 'string' is not assignable",
            "error[E0308]: mismatched types",
            "warning: unused variable `x`",
        ),
        misses=("Errors like that should be logged.", "The error is in the parser."),
    ),
    Rule(
        "npm-or-package-manager-line",
        "output-line",
        r"^\s*(?:npm|pnpm|yarn|pip|cargo|go|gradle|mvn) (?:err!|(?:warn|notice|error|info)\b)|"
        r"^\s*> [\w@./-]+@\d[\w.-]* [\w:-]+$|^\s*> (?:next|vite|node|tsc|jest|vitest|"
        r"webpack|eslint|react-scripts|nodemon|ts-node) ",
        matches=("npm warn deprecated inflight@1.0.6", "> shop@0.1.0 dev", "> next dev -p 3000"),
        misses=("npm is the package manager we use", "> I think we should wait"),
    ),
    Rule(
        "test-runner-line",
        "output-line",
        # a test runner's report: a test's mark and its name ("✕ should not allow …", "● …"),
        # a file's verdict ("FAIL src/user.test.ts"): the test names are no one's rules
        r"^\s*(?:[✓✔✕✗✘×●○]|√|\[(?:pass|fail|ok)\])\s+\S|"
        r"^\s*(?:pass|fail)\s+\S+\.(?:test|spec)\.[a-z]+\b",
        matches=(
            "  ✕ should not allow duplicate emails (5 ms)",
            "FAIL src/user.test.ts",
            "  ● Signup › should reject an empty name",
        ),
        misses=("Fail fast, please.", "• a bullet of mine"),
    ),
    Rule(
        "code-frame-line",
        "output-line",
        r"^(?:\s+>?|>)\s*\d{1,6} \|(?: .*)?$|^\d{1,6} \|(?: {2}.*)?$|^\s*\|\s+[\^-]+",
        matches=(
            "  12 |   const start = Date.now();",
            "> 13 |   const res = await q();",
            "     |   ^^^^",
            "38 |     let total = finish(order);",
            "  7 | return x",
        ),
        misses=("1 | 2 | 3 are the options", "| name | value |"),
    ),
    Rule(
        "log-line",
        "output-line",
        r"^\s*\[[\w .:/-]{1,30}\] .*|^\s*\[?\d{4}-\d\d-\d\d[t ]\d\d:\d\d|^\s*\d\d:\d\d:\d\d\b|"
        r"^\s*(?:get|post|put|patch|delete|head|options) /\S* \d{3}\b|^.*\[\w+=[^\]\n]*\]\s*$|"
        r"^\s*(?:[-*]\s+)?\w[\w .-]{0,30}:\s{3,}\S|^.*\bexit (?:code|status) -?\d+\b|"
        r"^.*\S {3,}\S",
        matches=(
            "[theme] Detected dark mode",
            "2026-01-03 10:42:11 INFO start",
            " GET /api/auth/session 200 in 66ms",
            "aws_s3_bucket.media: Refreshing state... [id=media-7]",
            "- Local:         http://localhost:3000",
            "Command failed with exit code 1.",
        ),
        misses=("Der Knopf [Kalibrieren] bleibt", "Meet at 10:30 tomorrow?", "Local: yes"),
    ),
    Rule(
        "structured-value-line",
        "output-line",
        r"^\s+[\w$]+: (?:'[^'\n]*'|\"[^\"\n]*\"|-?\d[\d.]*|true|false|null|undefined|\{|\[)"
        r"[,;]?\s*$|^\s*[{}\[\]()<>]+[,;]?\s*$|^.* \{$|^\s*\{\s*\"[^\"\n]+\"\s*:.*|^\s*\[\s*\{.*",
        matches=(
            "  code: 'EADDRINUSE',",
            "  errno: -4091,",
            "}",
            "at new Promise (x) {",
            '{"level":"info","msg":"up"}',
        ),
        misses=("code: please review", "Ports: 3000 and 3001"),
    ),
    Rule(
        "status-mark-or-drawing",
        "output-line",
        r"^\s*[✓✔✗✘⨯▲△⚠●○◆▶►❯·↳]\s|^\s*[│├└┌┃╰╭]|^\s*[─━═]{3,}|^.*[⠁-⣿↑↓→]|"
        r"^\s*(?:\^+|-{4,}|={4,})\s*$|^\s*['\"]?~?/[^/\s]+/\S*(?:\s.*)?$",
        matches=(
            "✓ Ready in 486ms",
            "├───config.yaml",
            "  └─ ƒ getIncidents() in 565ms",
            "-----",
            "/home/dana/app/src/x.ts:4",
        ),
        misses=("- keep it simple", "* use postgres"),
    ),
    Rule(
        "lone-token",
        "output-line",
        r"^\s*[^\s.,!?。！？，、]{1,40}\s*$",
        matches=("all", "node_modules", "y"),
        misses=("Yes.", "use pnpm", "还是 404"),
    ),
    # --- a summary of the conversation before this one, written by the harness -------------
    Rule(
        "summary-of-the-earlier-conversation",
        "earlier-summary",
        r"^\s*(?:this|the) (?:session|conversation|chat) (?:is being|was|has been|is) "
        r"continued from an? (?:previous|earlier|prior) (?:conversation|session)|"
        r"^\s*(?:the|our) (?:previous |earlier |prior )?conversation (?:is|was|has been) "
        r"summari[sz]ed below\b",
        matches=(
            "This chat was continued from an earlier session that hit the context limit.",
            "Our earlier conversation is summarised below, pick it up from there.",
        ),
        misses=(
            "Write a summary of the meeting notes.",
            "The conversation about pricing continued after lunch.",
            "Can you tell me how this session was continued from an earlier session?",
        ),
    ),
    Rule(
        "state-snapshot-of-the-earlier-conversation",
        "earlier-summary",
        r"^\s*<(?:state_snapshot|conversation_summary|previous_summary|session_summary)>",
        matches=("<state_snapshot>\n  <overall_goal>Ship the importer</overall_goal>",),
        misses=("<summary>Quarterly totals</summary>", "Take a state snapshot of the VM."),
    ),
    # --- the line that stands for a pasted block --------------------------------------------
    Rule(
        "says-it-failed",
        "output-failure",
        r"\b(?:error|errors|exception|failed|failure|fatal|panic|denied|refused|"
        r"not recognized|not found|cannot|can't|unable to|no such file|timed out|"
        r"segmentation fault)\b|错误|失败|异常|找不到",
        matches=(
            "Error: read ECONNRESET",
            "'x' is not recognized as a command",
            "找不到模块“next-intl/link”",
        ),
        misses=("Ready in 486ms", "GET / 200 in 3.3s"),
    ),
    Rule(
        "names-the-error",
        "error-name",
        r"(?:\b[\w$]*(?:error|exception)\b(?: \[[\w.-]+\])?:|\be(?:addrinuse|connreset|"
        r"connrefused|acces|perm|noent|notfound|timedout)\b|\berror (?:ts|cs|e)\d+\b|"
        r"\berror\[e\d+\])",
        matches=(
            "Database Insert Failed: Error: read ECONNRESET",
            "Subscription error: Error [TurbopackInternalError]: failed to create",
            "src/a.ts(3,1): error TS7006: Parameter 'r' implicitly has an 'any' type.",
        ),
        misses=("the deploy failed again", "no errors found"),
    ),
    Rule(
        "question-tool-answers",
        "tool-answer",
        r"\bansw?er(?:ed|s)?\b[^\n\"]{0,60}?[:：]\s*"
        r"(?P<pairs>(?:\"[^\"\n]{2,400}\"\s*=\s*\"[^\"\n]{1,400}\"[,;.\s]*)+)",
        matches=(
            'The user answered the questions: "Which port?"="8080", "Keep the cache?"="No".',
            'Answers received: "Ship it today or Monday?"="Monday"',
        ),
        misses=('config = "a" and "b"="c" in the ini', "I answered: yes"),
    ),
    Rule(
        "user-answer-line",
        "tool-answer",
        r"(?m:^\W*(?:the )?user(?:'s)? (?:answer(?:ed)?|response|responded|replied|selected|"
        r"picked|chose)(?: with)?\s*[:：]\s*(?P<answer>\S[^\n]{0,400}))",
        matches=("User selected: the second layout", "The user's answer: keep both copies"),
        misses=("The user selected a file in the tree.", "Answer: 42"),
    ),
    Rule(
        "rejection-reason",
        "tool-answer",
        r"(?:reason for (?:the |this )?(?:rejection|denial)|provided the following (?:feedback|"
        r"reason|comment)s?)[^:：\n]{0,40}[:：]\s*(?:<feedback>\s*)?(?P<answer>[^<\n]*\w[^<\n]{0,400})",
        matches=(
            "The tool use was rejected. The user provided the following reason for the "
            "rejection:  name the table orders_v2",
            "The user denied this operation and provided the following feedback:\n"
            "<feedback>\nput it under docs/ instead\n</feedback>",
        ),
        misses=("The tool use was rejected.", "Give a reason for the change: none"),
    ),
)
