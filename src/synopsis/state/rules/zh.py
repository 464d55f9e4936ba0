"""Chinese extraction rules (see :mod:`synopsis.state.rules`)."""

from __future__ import annotations

from synopsis.state.rules import Rule

_CN_DIGIT = r"[\d一二两三四五六七八九十百千]"

RULES: tuple[Rule, ...] = (
    Rule(
        "continue-where-left-off-zh",
        "harness",
        r"(?:请)?(?:从|接着)(?:我们)?(?:上次|之前|刚才)(?:中断|停下|离开)?的地方继续|继续之前的对话",
        matches=("请从我们上次中断的地方继续，不要提问。",),
        misses=("我们上次去的地方很好。",),
    ),
    Rule(
        "ask-first-zh",
        "rule",
        r"先问我|先问一下我|问过我|经过我同意|先跟我确认|别自己做主|不要自己做主|不要擅自|别擅自",
        matches=("超了先问我，别自己做主。",),
        misses=("他问我要不要咖啡。",),
    ),
    Rule(
        "limit-zh",
        "rule",
        r"封顶|上限|不能超|超了|不高于|不低于|不晚于|不早于|之内",
        matches=("总价封顶两千。", "三天之内要到。"),
        misses=("今天天气不错。",),
    ),
    Rule(
        "only-on-zh",
        "rule",
        r"仅限|只能|只要|只收|只接受|只走",
        matches=("仅限周末上门。",),
        misses=("这是一只猫。",),
    ),
    Rule(
        "authoritative-zh",
        "rule",
        r"以[^，。；,;]{1,12}为准",
        matches=("价格以合同为准。",),
        misses=("我们准备出发了。",),
    ),
    Rule(
        "leave-alone-zh",
        "rule",
        r"不用动|不要动|别碰|不要碰|保持原样|维持原样|照旧|原封不动",
        matches=("那个文件不用动。", "配置保持原样就行。"),
        misses=("他动作很快。",),
    ),
    Rule(
        "requirement-label-zh",
        "rule",
        r"^(?:要求|规则|规矩|约束|限制|条件|注意事项)\s*[:：]\s*\S",
        matches=("要求：上午出发，两小时以内。",),
        misses=("这个要求很合理。",),
    ),
    Rule(
        "use-this-term-zh",
        "rule",
        r"用\s*[「“『\"][^」”』\"]{1,20}[」”』\"]",
        matches=("报表里的单位用「千克」。",),
        misses=("我用了一下午。",),
    ),
    Rule(
        "all-of-them-zh",
        "rule",
        r"(?:所有|全部|每个|每次|每份)[^，。；！？]{1,12}(?:请|都要|都得|一律|必须|都用|都按)",
        matches=("所有发票请开公司抬头。", "每份合同都要盖章。"),
        misses=("所有人都来了。",),
    ),
    Rule(
        "want-kind-zh",
        "rule",
        r"^[\u4e00-\u9fff]{1,4}要[^，。；！？的]{1,12}的(?=[，。；！？]|$)",
        matches=("座位要靠过道的，谢谢。",),
        misses=("这是我要买的东西。",),
    ),
    Rule(
        "address-zh",
        "specific",
        r"[\u4e00-\u9fff]{1,10}(?:省|市|区|县|镇|乡|路|街|大道|弄|胡同|小区|大厦|广场|园区|栋|幢|单元)",
        matches=("我住在南山区科技园附近。", "新的是张江路 368 弄 5 号 1201。"),
        misses=("我不吃辣。",),
    ),
    Rule(
        "number-with-unit-zh",
        "specific",
        rf"{_CN_DIGIT}+(?:\.\d+)?\s*(?:个人|人|位|间|晚|天|小时|分钟|元|块|万|千|岁|座|台|件|张|"
        r"号楼|楼|层|室|份|箱|公斤|斤|米|GB|TB|个点|%)",
        matches=("就我们 4 个人。", "保留 14 天。", "总预算 12000 元。"),
        misses=("我们明天见。",),
    ),
    Rule(
        "time-or-day-zh",
        "specific",
        rf"(?:上午|下午|晚上|凌晨|中午|早上|傍晚){_CN_DIGIT}{{0,3}}\s*点?|{_CN_DIGIT}{{1,2}}\s*点|"
        rf"\d{{1,2}}\s*[:：]\s*\d{{2}}|[周星期礼拜]{{1,2}}[一二三四五六日天]|"
        rf"{_CN_DIGIT}{{1,2}}\s*月\s*{_CN_DIGIT}{{1,3}}\s*[日号]?|{_CN_DIGIT}{{1,3}}\s*号(?!楼)",
        matches=("改到周六凌晨 2 点。", "改成 22 号吧。", "下周三下午。"),
        misses=("我不吃辣。",),
    ),
    Rule(
        "relation-or-role-zh",
        "specific",
        r"我(?:妈|爸|姐|哥|弟|妹|老婆|老公|老板|同事|领导|朋友|家)|收件人|联系人|负责人",
        matches=("改寄到我姐家。", "收件人林静。"),
        misses=("大家好。",),
    ),
    Rule(
        "change-to-zh",
        "update",
        r"改(?:成|为|到|挂|寄到?|签|用)|换成|换到|挪到|推到|推迟|提前|顺延|往后推|调整(?:为|到|成)|"
        r"变成|定下来是|最后定|更正|写错了|按新的|不是.{0,16}而?是|加到|降到|升到|升级到|调到|涨到|"
        r"等等|等一下|等下|算了|再让|按.{0,8}报",
        matches=("评审改到下周三下午吧。", "地址写错了，改成新的。", "最后定下来是 15 个人。",
                 "等一下，人数是 9 个。"),
        misses=("我们改天再聊。", "这个改动很好。"),
    ),
    Rule(
        "value-stays-zh",
        "keep",
        r"不变|照旧|保持原样|不用动|还是原来",
        matches=("返程时间不变。",),
        misses=("变化很大。",),
    ),
    Rule(
        "undid-last-commit-zh",
        "undo",
        r"我(?:已经|刚才?|刚刚)?\s*把?\s*(?:上一个|上次|刚才的|最后一个|那个)?\s*(?:提交|commit)\s*给?\s*"
        r"(?:回退|撤销|撤回|重置|reset)\s*了|我(?:已经|刚才?|刚刚)?\s*(?:回退|撤销|撤回|重置|reset)\s*了\s*"
        r"(?:上一个|上次|刚才的|最后一个|那个)?\s*(?:提交|commit)",
        matches=("我已经把上一个提交撤销了，重新来。", "我刚 reset 了那个 commit"),
        misses=("请撤销上一个提交。", "提交之前先回退配置。"),
    ),
    Rule(
        "rewrote-history-zh",
        "rewrite",
        r"我(?:已经|刚才?|刚刚)?\s*(?:rebase|变基|squash|压缩)\s*了|"
        r"我(?:已经|刚才?|刚刚)?\s*把?\s*(?:提交|commit|历史)\s*都?\s*(?:rebase|变基|squash|压缩)\s*了",
        matches=("我刚 rebase 了一下，提交号都变了。", "我把提交都压缩了"),
        misses=("要不要 rebase？", "请把提交压缩一下。"),
    ),
)  # fmt: skip
