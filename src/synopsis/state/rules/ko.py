"""Korean extraction rules (see :mod:`synopsis.state.rules`). Patterns see lower case.

Korean puts its particles and verb endings after the word, so the patterns look for
endings ("…지 마세요", "…면 안 돼요") rather than for words between spaces."""

from __future__ import annotations

from synopsis.state.rules import Rule

DETECT = r"[\uac00-\ud7a3]+"
"""A word in Hangul syllables: the records apply where one is."""

_ASKING = r"(?:세요|십시오|해야|하자|마(?=[.!,\s]|$)|말|할 것|해 ?줘|해 ?주|시오|도록)"
"""Endings that ask something of the listener (a request, an obligation)."""
_VALUE = r"[^\s,.;:!?]+?"

RULES: tuple[Rule, ...] = (
    Rule(
        "never-always-ko",
        "rule",
        r"절대(?:로)?|항상|언제나|반드시|무조건|꼭|(?<![\uac00-\ud7a3])늘(?=\s)|필수|야\s*(?:합니다|해요|한다|해(?=[.!,\s]|$)|돼요|됩니다|된다)",
        matches=("항상 한국어로 답해 주세요.", "테스트는 반드시 먼저 작성해야 합니다.",
                 "커밋 전에 린트를 돌려야 해요."),
        misses=("서버는 서울에 있어요.",),
    ),
    Rule(
        "dont-ko",
        "rule",
        r"지\s*(?:마세요|마십시오|말아|마라|마(?=[.!,\s]|$)|말고|말 것|않도록)|"
        r"면\s*안\s*(?:돼|되|됩니다)|"
        r"금지",
        matches=("설정 파일은 건드리지 마.", "main에 직접 푸시하면 안 돼요.", "강제 푸시 금지."),
        misses=("잘 안 돼요.", "그건 모르겠어요."),
    ),
    Rule(
        "ask-first-ko",
        "rule",
        r"(?:먼저|미리)\s*(?:물어|확인|허락|상의)|물어보고|물어봐|(?:확인|허락|승인)(?:을)?\s*받고|"
        r"(?:저|나)(?:한테|에게)\s*(?:먼저\s*)?(?:물어|확인)",
        matches=("파일을 지우기 전에 먼저 물어봐 주세요.", "배포는 승인 받고 해."),
        misses=("그가 물었다.",),
    ),
    Rule(
        "limit-ko",
        "rule",
        r"최대|최소|\d\s*[^\s\d]{0,4}\s*(?:이하|이내|미만)|넘(?:지\s*않|으면\s*안|기지\s*마)|초과하지",
        matches=("요청은 초당 최대 두 번.", "응답은 200ms 이내로.",
                 "예산은 30만 원을 넘으면 안 돼요."),
        misses=("서버 메모리는 32GB예요.",),
    ),
    Rule(
        "only-and-language-ko",
        "rule",
        r"만\s*(?:사용|써|쓰)|(?:한국어|영어|일본어)로\s*(?:답|대답|답변|작성|써)|선호해|선호합니다",
        matches=("표준 라이브러리만 사용해.", "영어로 답변해 주세요.", "저는 pnpm을 선호해요."),
        misses=("만나서 반가워요.",),
    ),
    Rule(
        "how-it-is-ko",
        "not-rule",
        rf"(?P<cue>항상|(?<![\uac00-\ud7a3])늘(?=\s)|언제나)(?![^.!?\n]*{_ASKING})",
        matches=("서버가 항상 아침에 느려요.", "이 테스트는 늘 실패해요."),
        misses=("항상 한국어로 답해 주세요.",),
    ),
    Rule(
        "correction-ko",
        "correction",
        r"사실은|사실|정정|잘못 말|아니라|대신|이제는|바꿔서",
        matches=("사실 포트는 9090이에요.", "정정할게요, 12명이에요."),
        misses=("포트는 9090이에요.",),
    ),
    Rule(
        "moved-to-ko",
        "update",
        r"(?:으로|로)\s*(?:옮겼|옮기|변경|바꿨|바꿔|바뀌|미뤘|미루|연기|당겼|수정)|대신|아니라|정정",
        matches=("회의를 금요일로 옮겼어요.", "npm 대신 yarn을 쓰세요."),
        misses=("회의는 금요일이에요.",),
    ),
    Rule(
        "not-old-but-new-ko",
        "replace",
        rf"(?P<old>{_VALUE})(?:이|가)?\s+아니(?:라|고)\s+(?P<new>{_VALUE})"
        r"(?:이에요|예요|입니다|이야|야|으로|로|을|를|요)?(?=[\s,.!?]|$)",
        matches=("포트는 8080이 아니라 9090이에요.",),
        misses=("포트는 9090이에요.",),
    ),
    Rule(
        "instead-of-ko",
        "replace",
        rf"(?P<old>{_VALUE})\s*대신(?:에)?\s+(?P<new>{_VALUE})(?:을|를|으로|로)?(?=[\s,.!?]|$)",
        matches=("npm 대신 yarn을 쓰세요.",),
        misses=("yarn을 쓰세요.",),
    ),
    Rule(
        "stays-ko",
        "keep",
        r"그대로|변경 없|바뀌지 않|유지",
        matches=("돌아오는 날짜는 그대로예요.",),
        misses=("날짜가 바뀌었어요.",),
    ),
    Rule(
        "no-ko",
        "no",
        r"^(?:아니(?:요|오)?|아뇨|싫어|됐어|하지 마)(?![\uac00-\ud7a3])",
        matches=("아니요, 그대로 두세요.", "아뇨"),
        misses=("아니라고요?",),
    ),
    Rule(
        "yes-ko",
        "yes",
        r"^(?:예|응|좋아요|그래|그렇게 해|진행해|부탁해|오케이)(?![\uac00-\ud7a3])",
        matches=("응, 진행해.", "좋아요!"),
        misses=("응답이 없어요.",),
    ),
    Rule(
        "proposal-ko",
        "proposal",
        r"할까요|드릴까요|볼까요|하시겠어요|추천(?:해|합니다|드려)|제안(?:해|합니다|드려)|권장|원하시면",
        matches=("로직을 훅으로 옮길까요? 그렇게 할까요?", "캐시를 추가하는 걸 추천합니다."),
        misses=("로직을 훅으로 옮겼어요.",),
    ),
    Rule(
        "still-to-do-ko",
        "pending",
        r"아직\s*(?:안|못|남|해야)|남은 (?:작업|일|단계)|다음 단계|해야 할 (?:일|작업)",
        matches=("로그인 테스트는 아직 안 했어요.", "다음 단계는 배포예요."),
        misses=("테스트를 다 했어요.",),
    ),
    Rule(
        "request-ko",
        "request",
        # the endings that ask the listener for something ("…해 주세요", "…해줘", "…줄래?")
        r"주세요|주십시오|줘(?:요)?(?=[\s.!?~]|$)|줄래|줄 수 있|주실 수|주시겠|"
        r"부탁(?:해|합니다|드려)|"
        r"하세요(?=[\s.!?~]|$)|해\s?봐",
        matches=("크론 좀 봐 줘.", "홈 화면 배너를 없애 주세요.", "보고서를 PDF로 뽑아 줄래?"),
        misses=("홈 화면에는 이제 배너가 없어요.", "보고서는 PDF로 나와요."),
    ),
    Rule(
        "reports-done-ko",
        "done",
        r"(?:완료|완성|생성|추가|수정|삭제|변경|복사|적용|설치|작성|저장|이동|구현|업데이트|해결)"
        r"(?:\s?완료)?(?:했|하였|되었|됐)(?:습니다|어요|다)",
        matches=("보고서 작성을 완료했습니다.", "설정 파일이 수정되었습니다.",
                 "문서가 생성 완료되었습니다."),
        misses=("보고서를 작성하겠습니다.", "설정 파일을 수정할까요?"),
    ),
    Rule(
        "user-choice-ko",
        "choice",
        r"하기로|(?:으|)로 (?:하자|가자)|진행(?:할| 할)? 예정|"
        r"(?:확정|선택|결정)(?:할|하자|했|하겠)",
        matches=("웹 앱으로 가자.", "범위는 이렇게 확정할게."),
        misses=("어떤 방식으로 할까요?", "선택지를 보여줘."),
    ),
    Rule(
        "says-broken-ko",
        "broken",
        r"(?:작동|동작)하지 않|(?:에러|오류)가 (?:나|발생|떠)|"
        r"여전히 (?:에러|오류|안 ?돼)|안 ?(?:돼요|됩니다|되네)",
        matches=("로그인이 여전히 안 돼요.", "저장할 때 오류가 발생해."),
        misses=("이제 잘 작동합니다.", "오류 처리를 추가해 줘."),
    ),
)  # fmt: skip
