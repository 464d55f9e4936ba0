"""Turkish extraction rules (see :mod:`synopsis.state.rules`). Patterns see lower case.

Turkish puts negation and obligation into suffixes ("dokunma", "yazmalısın"), and its
"not" follows the value ("5432 değil"): the patterns look for those endings."""

from __future__ import annotations

from synopsis.state.rules import Rule

_DONT = (
    r"dokunma|silme|yapma|değiştirme|ekleme|kullanma|gönderme|atma|yükleme|kaldırma|"
    r"oluşturma|çalıştırma|dokunmayın|silmeyin|yapmayın|değiştirmeyin|eklemeyin|kullanmayın|"
    r"göndermeyin|yüklemeyin|kaldırmayın|elleme|ellemeyin|bozma|bozmayın"
)
"""Negated imperatives ("don't touch", "don't delete" …), second person and polite."""
DETECT = (
    rf"\b(?:{_DONT}|ve|bir|bu|şu|için|ile|değil|ama|çok|daha|her|hiç|asla|lütfen|bana|ben|"
    r"sen|biz|mi|mı|mu|mü|da|de|ya|evet|hayır|tamam|teşekkürler|sakın|yerine|aslında|sonra|"
    r"önce|olur|peki|sadece|yalnızca|en|tercih|ederim|gerek|yok)\b|[çğıöşü]"
)
"""Turkish words that English does not use (and ç, ğ, ı, ş …): the records apply where one is."""

_TOKEN = r"[^\s,.;:!?]+"

RULES: tuple[Rule, ...] = (
    Rule(
        "never-always-must-tr",
        "rule",
        r"\b(?:asla|hiçbir zaman|her zaman|daima|mutlaka|kesinlikle|sakın|yasak(?:tır)?|zorunlu)\b|"
        r"\w+(?:malısın|melisin|malısınız|melisiniz|malı|meli)\b",
        matches=("Asla main dalına push yapma.", "Her fonksiyona test yazmalısın.",
                 "Üretim veritabanına elle yazmak yasaktır."),
        misses=("Sunucu İstanbul'da.",),
    ),
    Rule(
        "dont-tr",
        "rule",
        rf"\b(?:{_DONT})\b",
        matches=("Yapılandırma dosyasına dokunma.", "Lütfen tabloları silmeyin."),
        misses=("Bu bir uygulama.",),
    ),
    Rule(
        "ask-first-tr",
        "rule",
        r"\b(?:bana sor|önce (?:bana )?sor|bana danış|onayımı al|onayım olmadan|"
        r"izin(?:imi)? (?:al|iste)|"
        r"sormadan)\b",
        matches=("Bir şey silmeden önce bana sor.", "Onayım olmadan merge etme."),
        misses=("Bana soru sordu mu?",),
    ),
    Rule(
        "limit-tr",
        "rule",
        r"\b(?:en fazla|en az|maksimum|minimum|azami|asgari|geçmemeli|geçmesin|aşmamalı|aşmasın)\b",
        matches=("Saniyede en fazla iki istek.", "Bütçe 500 doları aşmasın."),
        misses=("Sunucuda 32 GB bellek var.",),
    ),
    Rule(
        "only-and-language-tr",
        "rule",
        r"\b(?:sadece|yalnızca)\b|\b(?:türkçe|ingilizce)\s+(?:cevap|yanıt|yaz)\w*\b|"
        r"\btercih ederim\b",
        matches=("Türkçe cevap ver.", "Sadece standart kütüphaneyi kullan.",
                 "pnpm'i tercih ederim."),
        misses=("Türkiye'de yaşıyor.",),
    ),
    Rule(
        "obligation-on-a-thing-tr",
        "requirement",
        # the third-person "-malı/-meli" ("menü açılmalı": the menu must open) and the
        # emphasis on a step ("mutlaka ekle"); not "-malısın" (you must), nor "asla"/"yasak"
        # and the "sadece" (only) of such a requirement ("sadece yatay ilerlemelidir")
        r"\w+(?:malı|meli)(?:dır|dir)?\b|\b(?:kesinlikle|mutlaka|zorunlu(?: olarak)?)\b|"
        r"\b(?:sadece|yalnızca)\b(?=[^.!?\n]*(?:malı|meli)(?:dır|dir)?\b)",
        matches=("Kaydet düğmesi sayfanın altında durmalı.",
                 "Tablo her satırda toplamı göstermeli.", "Bu alanı mutlaka doldur.",
                 "Menü sadece yöneticilere görünmelidir."),
        misses=("Testleri her zaman yazmalısın.", "Ana dala asla push yapma.",
                "Sadece standart kütüphaneyi kullan."),
    ),
    Rule(
        "not-only-tr",
        "not-rule",
        # "sadece … değil" (not only …), "sadece … yetmez" (… alone is not enough): the
        # "only" of a correlative or of a judgement, no limit
        r"\b(?P<cue>sadece|yalnızca)\b[^.!?\n]{0,40}?\b(?:değil|yetmez|yetmiyor|yeterli değil)\b",
        matches=("Sadece hız değil, bellek kullanımı da önemli.",
                 "Sadece logu okumak yetmez, testi de çalıştır."),
        misses=("Sadece standart kütüphaneyi kullan.",),
    ),
    Rule(
        "how-it-is-tr",
        "not-rule",
        r"(?P<cue>her zaman|hep|hiç|asla)\s+(?:\w+\s+){0,2}\w+(?:dı|di|du|dü|tı|ti|tu|tü|medim|"
        r"madım|yor)\w*\b",
        matches=("Sunucu her zaman yavaş açılıyor.",),
        misses=("Her zaman Türkçe cevap ver.",),
    ),
    Rule(
        "correction-tr",
        "correction",
        r"\b(?:aslında|düzeltme|pardon|özür dilerim|yanlış söyledim|artık)\b",
        matches=("Aslında port 5433.", "Düzeltme: 12 kişiyiz."),
        misses=("Port 5433.",),
    ),
    Rule(
        "moved-to-tr",
        "update",
        r"\b(?:aldık|aldım|taşıdık|taşıdım|taşıdı|ertele\w*|öne çek\w*|değiştir\w*|"
        r"geçtik|geçelim)\b|\byerine\b|\baslında\b|\bdüzeltme\b|,\s*\S+\s+değil\b",
        matches=("Toplantıyı cumaya aldık.", "npm yerine pnpm kullan."),
        misses=("Toplantı cuma günü.",),
    ),
    Rule(
        "instead-of-tr",
        "replace",
        rf"(?P<old>{_TOKEN})\s+yerine\s+(?P<new>{_TOKEN})",
        matches=("npm yerine pnpm kullan.",),
        misses=("pnpm kullan.",),
    ),
    Rule(
        "new-not-old-tr",
        "replace",
        rf"(?P<new>{_TOKEN}),\s+(?P<old>{_TOKEN})\s+değil\b",
        matches=("Port 5433, 5432 değil.",),
        misses=("Port 5433.",),
    ),
    Rule(
        "stays-tr",
        "keep",
        r"\b(?:aynı kalıyor|aynı kalsın|değişmiyor|olduğu gibi kalsın|aynen kalsın)\b",
        matches=("Dönüş tarihi aynı kalıyor.",),
        misses=("Tarih değişti.",),
    ),
    Rule(
        "no-tr",
        "no",
        r"^(?:hayır|yok|gerek yok|şimdilik hayır|henüz değil|istemiyorum)(?!\w)",
        matches=("Hayır, böyle kalsın.", "gerek yok"),
        misses=("Hayırlı olsun.",),
    ),
    Rule(
        "yes-tr",
        "yes",
        r"^(?:tamam|olur|peki|tabii|tabi|aynen|devam et)(?!\w)",
        matches=("Tamam, devam et.", "Olur."),
        misses=("Olursa ne olur?",),
    ),
    Rule(
        "proposal-tr",
        "proposal",
        r"\b(?:öneririm|öneriyorum|tavsiye ederim|ister misin|ister misiniz|\w+(?:ayım|eyim) mi)\b",
        matches=("Mantığı bir hook'a taşımayı öneririm.", "Bunu düzelteyim mi?"),
        misses=("Mantığı taşıdım.",),
    ),
    Rule(
        "still-to-do-tr",
        "pending",
        r"\b(?:hâlâ|hala|henüz) (?:\w+\s+)?(?:gerekiyor|lazım|yapılmadı|bitmedi|tamamlanmadı)\b|"
        r"\b(?:sıradaki adım|bir sonraki adım|kalan işler|kalan adımlar)\b",
        matches=("Giriş testi henüz yapılmadı.", "Bir sonraki adım dağıtım."),
        misses=("Her şey test edildi.",),
    ),
    Rule(
        "request-tr",
        "request",
        # "…abilir misin?", "lütfen", a wish ("…istiyorum"), or an imperative ending the sentence
        r"\blütfen\b|[ae]bilir\s?(?:mi|mı)(?:sin|sın|siniz|sınız)\b|\bister misin\b|"
        r"(?:n[iıuü]|[iıuü]) istiyorum\b|"
        r"(?:^|\s)(?:yap|ekle|düzelt|oluştur|kontrol et|bak|değiştir|sil|kaldır|taşı|koy|yaz|"
        r"güncelle|çalıştır|test et|açıkla|göster|bul|ayarla|kur|temizle)(?:ın|in)?[.!]*$",
        matches=("Cron'a bir bakabilir misin?", "Ana sayfadaki banner'ı kaldır.",
                 "Raporun PDF olarak çıkmasını istiyorum."),
        misses=("Ana sayfada artık banner yok.", "Rapor PDF olarak çıkıyor."),
    ),
    Rule(
        "write-in-a-language-tr",
        "rule",
        # the language to write or answer in ("Türkçe cevap ver", "İngilizce yaz")
        r"\b\w+(?:ce|ca|çe|ça)\s+(?:yaz|yazın|cevap ver|cevapla|konuş)\b",
        matches=("Bana hep Türkçe cevap ver.", "Raporları Almanca yaz."),
        misses=("Dosyayı hızlıca yazdım.",),
    ),
    # --- updates: an apology that corrects (updates helper) --------------------------------
    Rule(
        "mistake-or-apology-tr",
        "update",
        r"^\W*(?:pardon|özür dilerim|kusura bakma)\b\s*[,.!:;—-]|\b(?:yanlış söyledim|"
        r"yanlış yazdım|demek istedim)\b",
        matches=("Pardon, toplantı saat 15:30.", "Yanlış yazdım, 8 kişiyiz."),
        misses=("Kusura bakma geç kaldım ve teşekkürler",),
    ),
    Rule(
        "says-broken-tr",
        "broken",
        # a third-person negative of what the work does ("çalışmıyor", "açılmıyor",
        # "görünmüyordu"), a crash or freeze, an error it gives, or one that is still there
        r"[a-zçğıöşü]{2,}(?:mıyor|miyor|muyor|müyor)(?:du|lar)?\b|"
        r"\b(?:çöktü|çöküyor|kilitlendi|donuyor|dondu)\b|"
        r"\bhata (?:veriyor|verdi|alıyorum|aldım)\b|\b(?:hâlâ|hala|yine) (?:aynı )?hata\b",
        matches=("Kaydet butonu çalışmıyor.", "Ayarlar penceresi açılmıyordu.",
                 "Dosyayı açınca uygulama çöktü.", "Girişte hâlâ hata var."),
        misses=("Artık her şey çalışıyor.", "Bunu bilmiyorum.", "Hata mesajını Türkçe yaz."),
    ),
)  # fmt: skip
