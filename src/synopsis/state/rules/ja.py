"""Japanese extraction rules (see :mod:`synopsis.state.rules`). Patterns see lower case.

Japanese writes no spaces and puts its particles and endings after the word: the
patterns look for endings ("…しないでください", "…すること") and set phrases. The
Chinese records also read Japanese text (both write kanji); these apply where there is
kana."""

from __future__ import annotations

from synopsis.state.rules import Rule

DETECT = r"[\u3041-\u3096\u30a1-\u30fa\u30fc]+"
"""A run of hiragana or katakana: the records apply where one is."""

_ASKING = r"(?:ください|下さい|こと|して|しろ|べき|なさい|ように|ましょう)"
_VALUE = r"[0-9a-z][\w.:/-]*|[\u30a1-\u30fa\u30fc]+|[\u4e00-\u9fff]+"
"""A value as written in Japanese: a run of Latin letters and digits, of katakana or of kanji
(the particle before it is not part of it)."""

RULES: tuple[Rule, ...] = (
    Rule(
        "never-always-ja",
        "rule",
        r"絶対(?:に)?|必ず|常に|いつも|決して|必須|べき(?:です|だ)?(?=[。、！\s]|$)|"
        r"なければ(?:なりません|ならない|いけない|いけません)|なきゃ",
        matches=("常に日本語で答えてください。", "テストは必ず先に書いてください。",
                 "コミット前にリントを通さなければなりません。"),
        misses=("サーバーは東京にあります。",),
    ),
    Rule(
        "dont-ja",
        "rule",
        r"ないで(?:ください|下さい|ね|くれ)?(?=[。、！\s]|$)|ないこと|てはいけない|てはいけません|"
        r"ちゃ(?:だめ|ダメ)|じゃ(?:だめ|ダメ)|しないように|禁止",
        matches=("設定ファイルは触らないで。", "mainに直接プッシュしないこと。",
                 "強制プッシュは禁止です。"),
        misses=("よくわからないです。",),
    ),
    Rule(
        "ask-first-ja",
        "rule",
        r"(?:前に|先に|事前に)[^。\n]{0,10}(?:確認|相談|聞いて|許可)|確認して(?:から|ください)|"
        r"相談して(?:から|ください)|許可を(?:取|得|もら)",
        matches=("削除する前に確認してください。", "マージは許可を取ってから。"),
        misses=("昨日確認しました。",),
    ),
    Rule(
        "limit-ja",
        "rule",
        # 以下 / 以上 bound the amount before them ("5MB以下"); after a word they are "the
        # following" / "the above" ("以下のエラー", "以上の内容")
        r"(?:\d|[一二三四五六七八九十百千万])[^\s。、！？]{0,6}?(?:以内|以下|未満|以上)|"
        r"上限|最大|最小|超えない|超えないで",
        matches=("レスポンスは200ミリ秒以内にしてください。", "ファイルは10MB未満にして。",
                 "待ち時間は三十分以下で。"),
        misses=("以上です。", "以下のエラーを直してください。", "以上の点を確認しました。"),
    ),
    Rule(
        "only-and-language-ja",
        "rule",
        r"だけ(?:を)?使|のみ(?:を)?使|(?:日本語|英語|中国語)で(?:返|答|書|回答)|を使(?:います|う)"
        r"(?=[。、\s]|$)|を優先|のほうが(?:いい|良い)",
        matches=("標準ライブラリだけ使ってください。", "英語で回答してください。",
                 "DBはSupabaseを使います。"),
        misses=("使い方がわかりません。",),
    ),
    Rule(
        "how-it-is-ja",
        "not-rule",
        rf"(?P<cue>いつも|常に)(?![^。！？\n]*{_ASKING})",
        matches=("サーバーはいつも朝に遅くなります。",),
        misses=("常に日本語で答えてください。",),
    ),
    Rule(
        "kanji-read-as-chinese-ja",
        "not-rule",
        # 不要な (unneeded), 一定の (a certain), 保持する (to hold): Japanese words that the
        # Chinese rule words (不要 "don't", 一定 "must", 保持 "keep") would read as rules
        r"(?P<cue>不要|一定|保持|優先)(?=な|の|に|で|です|だ|する|され|して|しない|度|順位)",
        matches=("不要なファイルを整理しました。", "一定の間隔でポーリングします。"),
        misses=("不要",),
    ),
    Rule(
        "correction-ja",
        "correction",
        r"実は|訂正|間違(?:え|い)|ではなく|じゃなく|やっぱり|やはり|代わりに|に変更",
        matches=("実は、ポートは5433です。", "やっぱり12人です。"),
        misses=("ポートは5433です。",),
    ),
    Rule(
        "changed-to-ja",
        "update",
        r"に変更|に変え|に移動|に延期|に前倒し|ではなく|じゃなく|代わりに|訂正|やっぱり",
        matches=("リリースを金曜日に変更しました。", "npmの代わりにpnpmを使って。"),
        misses=("リリースは金曜日です。",),
    ),
    Rule(
        "not-old-but-new-ja",
        "replace",
        rf"(?P<old>{_VALUE})(?:では|じゃ)なく(?:て)?、?\s*(?P<new>{_VALUE})(?=です|だ|を|に|で)",
        matches=("ポートは5432ではなく5433です。",),
        misses=("ポートは5433です。",),
    ),
    Rule(
        "instead-of-ja",
        "replace",
        rf"(?P<old>{_VALUE})の代わりに、?\s*(?P<new>{_VALUE})(?=を|に|で)",
        matches=("npmの代わりにpnpmを使って。",),
        misses=("pnpmを使って。",),
    ),
    Rule(
        "stays-ja",
        "keep",
        r"そのまま|変更なし|変えない|変わらない|現状維持",
        matches=("帰りの日程はそのままです。",),
        misses=("日程が変わりました。",),
    ),
    Rule(
        "no-ja",
        "no",
        r"^(?:いいえ|いや|だめ|ダメ|やめて|結構です)(?![\u3041-\u3096\u30a1-\u30fa])",
        matches=("いいえ、そのままで。", "やめて"),
        misses=("いやらしい",),
    ),
    Rule(
        "yes-ja",
        "yes",
        r"^(?:(?:うん|ええ|オッケー|いいよ|いいです|それで|進めて|やって)(?![\u3041-\u3096])|了解|承知)",
        matches=("うん、進めて。", "了解です。"),
        misses=("ええと、何でしたっけ？",),
    ),
    Rule(
        "proposal-ja",
        "proposal",
        r"しましょうか|しますか|いかがでしょうか|おすすめ|推奨|提案|した方が|ましょうか",
        matches=("ロジックをフックに移しましょうか。", "キャッシュの追加を提案します。"),
        misses=("ロジックをフックに移しました。",),
    ),
    Rule(
        "still-to-do-ja",
        "pending",
        r"まだ(?:未|できて|終わって|残|して(?:い)?ない)|残り(?:の)?(?:作業|タスク)|残っている|"
        r"次の(?:ステップ|作業)|未実装|未対応",
        matches=("ログインのテストはまだしていない。", "次のステップはデプロイです。"),
        misses=("テストは全部終わりました。",),
    ),
    Rule(
        "request-ja",
        "request",
        # the forms that ask the listener for something ("…てください", "…てもらえますか",
        # a sentence that ends on its て-form: "直して。")
        r"ください|下さい|てほしい|て欲しい|てもら(?:え|いたい)|ていただ(?:け|きたい)|お願い|"
        r"てくれ(?:る|ない|ませんか)?|ませんか|[てで](?:ね|よ)?[。！!]*$",
        matches=("クーロンを見てもらえますか。", "トップのバナーを消して。",
                 "レポートはPDFで出してほしいです。"),
        misses=("トップにはもうバナーがありません。", "レポートはPDFで出ます。"),
    ),
    Rule(
        "in-this-form-please-ja",
        "rule",
        # how the work is to be written: "…でお願いします" ("in English, please")
        r"(?:語|形式|フォーマット|表記|敬語)でお願い",
        matches=("返事は日本語でお願いします。",),
        misses=("確認をお願いします。",),
    ),
)  # fmt: skip
