"""Chinese extraction rules (see :mod:`synopsis.state.rules`)."""

from __future__ import annotations

from synopsis.state.rules import Rule

_CN_DIGIT = r"[\d一二两三四五六七八九十百千]"
_TOKEN = r"[^\s,.;:!?，。；、]+"
"""One value as written in a replacement ("不是 X，是 Y"): up to a space or a stop."""

RULES: tuple[Rule, ...] = (
    Rule(
        "continue-where-left-off-zh",
        "harness",
        r"(?:请)?(?:从|接着)(?:我们)?(?:上次|之前|刚才)(?:中断|停下|离开)?的地方继续|继续之前的对话",
        matches=("请从我们上次中断的地方继续，不要提问。",),
        misses=("我们上次去的地方很好。",),
    ),
    Rule(
        "verdict-on-your-work-zh",
        "evaluation",
        r"你(?:的)?(?:实现|做|设计|写|完成|搭建|构建|整理|重构)(?:了|的)[^。！\n]{0,40}?"
        r"(?:很|非常|相当|特别|十分)?(?:棒|好|不错|出色|优秀|扎实|完善|清晰|漂亮)|"
        r"(?:做|写|设计|实现|完成)得(?:很|非常|相当|特别|十分)?(?:好|棒|不错|出色|漂亮)|"
        r"(?:整体评价|总体评价|优点|亮点|不足之处|改进建议|结论)\s*[：:]",
        matches=("你实现了非常棒的技能评分系统。", "这部分写得很好。", "**整体评价：**"),
        misses=("你写的不对，重来。", "好的，我来实现。"),
    ),
    Rule(
        "you-are-the-role-zh",
        "role-framing",
        r"^(?:#+\s*)?你是一(?:名|个|位)[^。\n]{0,20}(?:专家|工程师|开发者|助手|分析师|顾问|架构师)|"
        r"^你的任务是",
        matches=("你是一名资深的后端工程师。", "你的任务是审查这个仓库。"),
        misses=("你是对的，继续吧。",),
    ),
    Rule(
        "points-back-at-the-paste-zh",
        "refers-to-paste",
        r"以上|上面(?:的|这|那|是)|(?:这|那)(?:个|份|些|段)?(?:评审|评价|意见|反馈|回复|回答|建议)|"
        r"(?:他|她|它|对方|另一个模型|别的模型)(?:说|给|提)的",
        matches=("以上是另一个模型的评审意见，你看看对不对。", "按这份反馈改，但是数据库别动。"),
        misses=("好的，继续吧。", "这个函数太长了。"),
    ),
    Rule(
        "labelled-task-zh",
        "task-label",
        r"^(?:[#*>\s-]*)(?:\*\*)?(?:你的|本次|主要)?(?:任务|目标|需求)(?:\*\*)?\s*[:：]\s*\S",
        matches=("任务：整理本周的工单。", "**目标：** 把定时任务迁走"),
        misses=("这个任务失败了。",),
    ),
    Rule(
        "ask-first-zh",
        "rule",
        r"先问我|先问一下我|问过我|经过我同意|先跟我确认|别自己做主|不要自己做主|不要擅自|别擅自",
        matches=("超了先问我，别自己做主。", "改接口之前先跟我确认。"),
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
        matches=("要求：上午出发，两小时以内。", "规则：周末上门。"),
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
        "one-at-a-time-zh",
        "rule",
        r"一步一步|一步步|逐步(?:来|进行|做|改)|一个一个(?:来|改|做)|分步(?:来|做|进行)",
        matches=("我们一步一步来，每步做完等我确认。",),
        misses=("第一步已经做完了。",),
    ),
    Rule(
        "answer-in-a-language-zh",
        "rule",
        r"用(?:英文|中文|英语|日语|日文|德语|简体中文|繁体中文)(?:来)?(?:回答|回复|回|写|交流)",
        matches=("以后都用中文回答。",),
        misses=("这份文档是英文的。",),
    ),
    Rule(
        "without-exception-zh",
        "rule",
        # 一概 as 一律: "without exception" ("一概按紧急处理"); not 一概而论 (to generalise)
        r"一概(?!而论)",
        matches=("凡是提到退款的，一概转给财务。",),
        misses=("这事不能一概而论。",),
    ),
    Rule(
        "as-long-as-zh",
        "not-rule",
        # 只要 of "as long as / whenever" (只要是…, 只要 X，就 Y), not 只 (only) nor 只要 of
        # "only want" (只要靠窗的); 不只 is "not only"
        r"只要是|只要(?=[^。！？!?\n]*[，,][^。！？!?\n]*(?:就|便|都|即可|则))|不只",
        matches=("只要接口返回超时，就把任务标成失败。", "不只首页，详情页也慢。",
                 "只要是周末的订单，先别发货"),
        misses=("只用官方 SDK。", "只要靠窗的座位。"),
    ),
    Rule(
        "inferring-must-zh",
        "not-rule",
        # 一定 of a guess ("那一定很累吧"), not of a requirement ("一定要带护照")
        r"一定(?!要|得|不要|别|不能|记得|先|只)(?:很|挺|特别|超级?|非常|是|会)?[^，。！？；\n]{0,10}?"
        r"(?:吧|啊|呀|了吧|坏了)(?=[。！？!?，,]|$)",
        matches=("那一定很累吧！", "你一定饿坏了。", "这趟旅行一定很好玩吧"),
        misses=("一定要带护照啊。", "一定先问我。", "周五前一定交。"),
    ),
    Rule(
        "habit-or-thanks-zh",
        "not-rule",
        # 总是/永远/一直 in thanks or praise of a habit ("谢谢你总是这么耐心")
        r"谢谢(?:你|您)?(?:总是|一直|永远|每次都)|(?:你|您)(?:总是|永远)(?:这么|那么|很)"
        r"(?:好|棒|贴心|耐心|靠谱|细心)|(?:我|我们)(?:永远|总是|一直)(?:在|支持|爱)",
        matches=("谢谢你总是这么耐心。", "你总是这么贴心！", "我永远支持你。"),
        misses=("总是先跑测试。", "永远不要直接推 main。"),
    ),
    Rule(
        "care-and-wishes-zh",
        "not-rule",
        # a friend's care and wishes shaped like orders ("一定要好好休息", "千万别累着",
        # "祝你…"): nobody is asked to do anything
        r"祝(?:你|您|大家|你们)[^。！？!?\n]*|"
        r"(?:(?:一定|千万|务必|记得)(?:要|得)?)?(?:好好|多)?(?:休息|照顾(?:好)?自己|保重(?:身体)?|"
        r"注意身体|放松一下|开开心心)|"
        r"(?:一定|千万)?别(?:太|那么|把自己)?(?:累着?|辛苦|担心|熬夜|难过|伤心|紧张|着急|客气|"
        r"想太多|灰心|放弃)",
        matches=("周末一定要好好休息哦！", "祝你面试顺利，千万别紧张。", "你也别太辛苦了。"),
        misses=("周末别发版。", "千万别动生产库。", "一定要先备份。"),
    ),
    Rule(
        "reported-saying-zh",
        "not-rule",
        # what family, teachers or others say or taught ("我妈总说要早睡", "老师以前让我们…"):
        # their words, reported (a boss's or client's word on the work is not in this list)
        r"(?:他|她|他们|她们|我(?:妈|爸|奶奶|爷爷|姥姥|外婆|姥爷|外公|爸妈|父母|老婆|老公)|"
        r"妈妈|爸爸|老师|医生|长辈|老人|别人)(?:也|就)?(?:总是|老是|总|一直|以前|从小|经常|常常|常){0,2}"
        r"(?:说|讲|告诉|教|叫|让|劝|嘱咐|提醒)[^。！？!?\n]*",
        matches=("我妈总是说要早睡早起。", "老师以前一直让我们每天必须背课文。"),
        misses=("不要让他们看到。", "老板说必须周五前交。"),
    ),
    Rule(
        "how-others-are-zh",
        "not-rule",
        # 总是 / 永远 / 从来 of how someone or some place is ("他们家总是很热闹", "那家店永远
        # 排长队"): a description; a rule about it keeps its own negation ("那个接口永远不能改")
        r"(?:他|她)们?[\u4e00-\u9fff]{0,2}?(?P<cue>总是|老是|永远|一直|从来)"
        r"(?!不要|不能|别|不许|不准|都要|要)|"
        r"(?:那|这)(?:家|个|里|边|些)[\u4e00-\u9fff]{0,6}?(?:总是|老是|永远|一直|从来)"
        r"(?!不要|不能|别|不许|不准|都要|要|不动)",
        matches=("他们家总是很热闹。", "那家店永远排长队。", "她从来不迟到。"),
        misses=("那个接口永远不能改。", "永远不要直接推 main。", "这个文件一直不要动。"),
    ),
    Rule(
        "how-things-stand-zh",
        "not-rule",
        # 只 in how something stands now ("分支已经冻结了，只收 P0", "目前只支持 Chrome"): a
        # description of what is, not a limit the user sets
        r"(?:已经|目前|现在|暂时|如今)[^。！？\n]{0,24}?(?P<cue>只)(?:收|接受|支持|剩|开放|接|认)",
        matches=("那个分支中午已经冻结了，只收紧急修复。", "这个插件目前只支持 Chrome。"),
        misses=("只收现金。", "以后只用 pnpm。"),
    ),
    Rule(
        "merely-zh",
        "not-rule",
        # 只 in "只是" (merely), "只好" (had to), "不只" (not only), and 只有 … 有 of what
        # there is ("只有周五有鸡腿"): a description, no limit set
        r"只是|只好|不只|(?P<cue>只有)[^，。！？,!?]{1,8}?才?有(?![人权])",
        matches=("我只是随便问问。", "哈哈，食堂只有周五有鸡腿。", "下雨了，只好改天。"),
        misses=("只用公司邮箱发。", "只有管理员才能删。"),
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
        r"改(?:成|为|到|挂|寄到?|签|用|名)|重命名|更名|换成|换到|挪到|推到|推迟|提前|顺延|往后推|调整(?:为|到|成)|"
        r"变成|定下来是|最后定|更正|写错了|按新的|不是.{0,16}而?是|加到|降到|升到|升级到|调到|涨到|"
        r"等等|等一下|等下|算了|再让|按.{0,8}报",
        matches=("评审改到下周三下午吧。", "地址写错了，改成新的。", "最后定下来是 15 个人。",
                 "等一下，人数是 9 个。"),
        misses=("我们改天再聊。", "这个改动很好。"),
    ),
    Rule(
        "correction-change-zh",
        "correction",
        r"改成|改为|换成|改到|改一下|改用|调整|重新",
        matches=("集合时间改到 7 点。", "酒店换成靠近车站的那家。"),
        misses=("集合时间是 7 点。",),
    ),
    Rule(
        "correction-self-zh",
        "correction",
        r"更正|其实|不是|而是|应该是|错了",
        matches=("更正一下，是 12 号。", "房号应该是 1203。", "我刚才说错了，是周五。"),
        misses=("房号是 1203。",),
    ),
    Rule(
        "correction-now-zh",
        "correction",
        r"现在",
        matches=("现在预算是 3000。",),
        misses=("预算是 3000。",),
    ),
    Rule(
        "old-value-marker-zh",
        "old-marker",
        r"(?:不是|把|原来|原先|而不是)\s*(?:[^\s,.;:!?，。；]+\s+){0,2}$",
        matches=("人数不是", "原来的 ", "请把"),
        misses=("人数是", "不是这样，大概 "),
    ),
    Rule(
        "not-old-but-new-zh",
        "replace",
        rf"不是\s*(?P<old>{_TOKEN}?)\s*[，,]\s*(?:而)?是\s*(?P<new>{_TOKEN})",
        matches=("不是顺丰，是京东。",),
        misses=("是京东。",),
    ),
    Rule(
        "change-old-into-new-zh",
        "substitute",
        rf"把\s*(?P<old>{_TOKEN}?)\s*(?:改成|换成|改为|替换成|换为|改名为|改名成|重命名为|重命名成|"
        rf"更名为)\s*(?P<new>{_TOKEN})",
        matches=("把酒店改成民宿。",),
        misses=("酒店改天再说。",),
    ),
    Rule(
        "name-renamed-zh",
        "substitute",
        # a name written in Latin letters, renamed without 把: "old_data 改名为 new_data"
        r"(?P<old>[a-z0-9_][a-z0-9_./-]*)\s*(?:改名为|改名成|重命名为|重命名成|更名为|改叫)\s*"
        r"(?P<new>[a-z0-9_][a-z0-9_./-]*)",
        matches=("目录 old_data 改名为 new_data。", "表名 t_user 重命名为 t_member"),
        misses=("目录改名为新的。",),
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
    Rule(
        "plans-next-zh",
        "plan",
        r"^\W*(?:(?:现在|接下来|然后|首先|好的?|那么)[，,]?\s*)*(?:我|我们)(?:会|来|需要|要|得|准备|打算|先)",
        matches=("接下来我需要把生成的文件加入忽略列表。", "我来修改配置，已经确认过路径了。"),
        misses=("我已经修改了配置。", "配置已更新，我会继续观察。",
                "我们将脚本移到了 tools 目录。"),
    ),
    # --- updates: a prohibition and the message that lifts it (updates helper) --------------
    Rule(
        "mistake-or-apology-zh",
        "update",
        r"^\W*(?:不好意思|抱歉|对不起)\s*[，,。：:!！]|说错了|打错了|我的错|搞错了",
        matches=("不好意思，是 8 个人。", "我说错了，是周五。"),
        misses=("不好意思打扰了，谢谢。",),
    ),
    Rule(
        "do-not-act-zh",
        "prohibit",
        r"(?:先不要|先别|不要|别|不准|不许|暂时不)\s*(?P<act>(?:运行|执行|推送|部署|合并|提交|删除|"
        r"发布|安装|升级|重启|发送|迁移|上线|改动?|动)[^，。；！？,.;!?\n]{0,12})",
        matches=("先不要推送到 main。", "别运行迁移脚本", "暂时不部署生产环境"),
        misses=("不要紧。", "别担心。"),
    ),
    Rule(
        "allowed-now-zh",
        "lift",
        r"现在|可以了|可以(?:开始|去|执行|运行|推送|部署|发布)|开始吧|执行吧|去吧",
        matches=("现在推送到 main 吧。", "可以运行迁移脚本了"),
        misses=("先等等。",),
    ),
    Rule(
        "now-adjust-zh",
        "update",
        r"调整一下|重新调整|改一下|换个(?:方式|办法|思路|做法)",
        matches=("测试效果不佳，现在调整一下，写在第一行。", "换个方式，按日期排序。"),
        misses=("效果不错。",),
    ),
    Rule(
        "says-broken-zh",
        "broken",
        # what the work should have changed and did not ("并没有更新", "没变化"), a result
        # still wrong ("还是不行", "还是报错"), a crash or a blank screen
        r"(?:并|还|也)?没(?:有)?(?:更新|变化|改变|变|成功|显示|出来|保存|写入|收到)|"
        r"(?:还是|仍然|依然|依旧)(?:不行|不对|没|报错|失败|一样|错)|崩溃|闪退|卡死|白屏",
        matches=("我点了保存，表格并没有更新", "改完之后还是报错", "一打开就闪退",
                 "页面依然没显示"),
        misses=("表格已经更新了", "没问题，继续", "还是用原来的方案吧"),
    ),
)  # fmt: skip
