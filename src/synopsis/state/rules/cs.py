"""Czech extraction rules (see :mod:`synopsis.state.rules`). Patterns see lower case."""

from __future__ import annotations

from synopsis.state.rules import Rule

_NEG_IMPERATIVE = r"ne\w+(?:ej|uj|ij|ň|ž|š|ejte|ujte|ijte|ňte|žte|šte|ete)"
"""A negated imperative: "nesahej", "nepushuj", "neměň", "nemaž", "nepiš"."""

DETECT = (
    rf"\b(?:{_NEG_IMPERATIVE}|nic|bude|oprava|je|jsou|ne|nikdy|vždy|vždycky|prosím|se|že|ale|jak|jen|jenom|také|taky|mě|mi|si|"
    r"já|ty|tam|tady|díky|ano|jo|už|ještě|nebo|když|aby|abys|budeš|musíš|nesmíš|tak|teď|"
    r"místo|vlastně|dobře|jasně|zeptej|piš|dej|udělej|pak|soubor|soubory)\b|[ěščřžůýťďňáéíú]"
)
"""Czech words that English does not use (and ě, š, č, ř …): the records apply where one is."""

_TOKEN = r"[^\s,.;:!?]+"
_START = r"(?:^|[,;:]\s*|\ba\s+|\bale\s+|\bprosím,?\s+|\bhlavně\s+)"
RULES: tuple[Rule, ...] = (
    Rule(
        "never-always-cs",
        "rule",
        r"\b(?:nikdy|vždy|vždycky|pokaždé|musíš|musíte|musí|nesmíš|nesmíte|nesmí|je zakázáno|"
        r"zakázáno|povinně|nezapomeň|ujisti se|dbej na|vyhni se|vyhýbej se)\b",
        matches=("Nikdy nemaž produkční data.", "Vždy piš testy.", "Musíš použít pnpm."),
        misses=("Server běží v Praze.",),
    ),
    Rule(
        "dont-cs",
        "rule",
        # at the start of its clause, or last: "Do té složky nesahej."
        rf"{_START}{_NEG_IMPERATIVE}\b|\b{_NEG_IMPERATIVE}[.!]*$",
        matches=("Prosím, nesahej na konfiguraci.", "Nepushuj do mainu.",
                 "Na produkční databázi nesahej."),
        misses=("Nefunguje to.", "Nevím proč."),
    ),
    Rule(
        "ask-first-cs",
        "rule",
        r"\bzeptej(?:te)? se (?:mě|nás)\b|\bbez (?:mého|mýho) (?:souhlasu|svolení|potvrzení)\b|"
        r"\bnejdřív se (?:mě )?zeptej\b|\bptej se mě\b|\b(?:se )?(?:mě|mne) (?:budeš |"
        r"vždy |nejdřív )?"
        r"(?:ptát|zeptáš)\b",
        matches=("Než něco smažeš, zeptej se mě.", "Nic nemerguj bez mého souhlasu."),
        misses=("Ptal se na deploy.",),
    ),
    Rule(
        "limit-cs",
        "rule",
        r"\b(?:maximálně|nejvýše|nejvíc|minimálně|alespoň|aspoň|nejméně|ne více než|méně než|"
        r"nesmí přesáhnout|nepřekroč)\b",
        matches=("Maximálně dva požadavky za sekundu.", "Aspoň 80 % pokrytí."),
        misses=("Server má 32 GB.",),
    ),
    Rule(
        "only-style-and-language-cs",
        "rule",
        r"\b(?:pouze|výhradně)\b|\b(?:odpovídej|odpověz|piš|mluv)(?: vždy| prosím)? (?:česky|"
        r"anglicky|v češtině|v angličtině|slovensky)\b|\bpreferuj[iu]\b|\bradši\b|"
        r"\b(?:krok po kroku|postupně)\b",
        matches=("Odpovídej česky.", "Používej pouze standardní knihovnu.", "Dělejme to postupně."),
        misses=("Píše česky?",),
    ),
    Rule(
        "said-of-what-was-cs",
        "not-rule",
        r"(?P<cue>nikdy|vždy|vždycky)\s+(?:jsem|jsme|jsi|jste|se mi|mi|to|tam)\b",
        matches=("Nikdy jsem takovou chybu neviděl.", "Vždycky to tak bylo."),
        misses=("Nikdy nemaž produkční data.",),
    ),
    Rule(
        "how-it-is-cs",
        "not-rule",
        r"(?P<cue>vždy|vždycky|nikdy)\s+(?:\w+\s+){0,2}\w+(?:uje|ují|á|í)\b",
        matches=("Server vždycky ráno startuje pomalu.",),
        misses=("Vždy piš testy.",),
    ),
    Rule(
        "correction-cs",
        "correction",
        r"\b(?:vlastně|oprava|pardon|promiň|spletl jsem se|spletla jsem se|ve skutečnosti|nakonec|"
        r"teď je|místo)\b",
        matches=("Vlastně je port 5433.", "Oprava: bude nás 12."),
        misses=("Port je 5433.",),
    ),
    Rule(
        "old-value-cs",
        "old-marker",
        r"(?:\bne|\bmísto|\bnamísto|\ba ne)\s+$",
        matches=("port je 5433, ne ", "místo "),
        misses=("port je ",),
    ),
    Rule(
        "moved-to-cs",
        "update",
        r"\b(?:přesunul[aiy]?|přesunuli|přesuň|změnil[aiy]?|změň|posunul[aiy]?|posuň|"
        r"přehodil[aiy]?|přepni|vyměň|nahraď)\b[^.!?\n]{0,30}?\b(?:na|do|za)\b|\bmísto\b|"
        r"\bnamísto\b|\bvlastně\b|\boprava\b",
        matches=("Schůzku jsme přesunuli na pátek.", "Místo npm použij pnpm."),
        misses=("Schůzka je v pátek.",),
    ),
    Rule(
        "instead-of-cs",
        "replace",
        rf"\b(?:místo|namísto)\s+(?P<old>{_TOKEN})\s+(?:použij|dej|vezmi|použijeme|bude|je)\s+"
        rf"(?P<new>{_TOKEN})",
        matches=("Místo npm použij pnpm.",),
        misses=("Použij pnpm.",),
    ),
    Rule(
        "new-not-old-cs",
        "replace",
        rf"(?P<new>{_TOKEN}),\s+(?:a\s+)?ne\s+(?P<old>{_TOKEN})",
        matches=("Port je 5433, ne 5432.",),
        misses=("Port je 5433.",),
    ),
    Rule(
        "stays-cs",
        "keep",
        r"\b(?:zůstává|zůstane (?:stejn[ýáé]|beze změny|jak je)|beze změny|"
        r"nech(?: to)? (?:tak|jak je))\b",
        matches=("Datum návratu zůstává.",),
        misses=("Datum se mění.",),
    ),
    Rule(
        "no-cs",
        "no",
        r"^(?:ne|nee|zatím ne|ještě ne|radši ne|nech to být)(?!\w)",
        matches=("Ne, nech to tak.", "zatím ne"),
        misses=("Nejde to.",),
    ),
    Rule(
        "yes-cs",
        "yes",
        r"^(?:jasně|jasne|dobře|dobre|souhlasím|platí|pokračuj|udělej to|klidně)(?!\w)",
        matches=("Jasně, pokračuj.", "Dobře."),
        misses=("Dobrý den, mám dotaz.",),
    ),
    Rule(
        "proposal-cs",
        "proposal",
        r"\b(?:navrhuji|navrhuju|doporučuji|doporučuju|chceš,? abych|chcete,? abych|mohl bych|"
        r"mohla bych|co kdybych)\b",
        matches=("Navrhuji přesunout logiku do hooku.", "Chceš, abych to udělal?"),
        misses=("Přesunul jsem logiku.",),
    ),
    Rule(
        "still-to-do-cs",
        "pending",
        r"\b(?:ještě (?:je třeba|musíme|musím|zbývá|chybí|potřebujeme)|zbývá|zbývají|další krok|"
        r"dalším krokem|ještě není)\b",
        matches=("Ještě musíme otestovat login.", "Dalším krokem je nasazení."),
        misses=("Všechno je otestované.",),
    ),
    Rule(
        "request-cs",
        "request",
        # a question to the agent, an imperative at the start, or a wish about its work
        r"^(?:(?:ok|tak|a|pak|teď|ještě|dobře)[,.!:]?\s+)*"
        r"(?:můžeš|mohl(?:a)? bys|mohli byste|potřebuj[ui],? abys|chci,? abys|chtěl(?:a)? bych|"
        r"udělej|vytvoř|přidej|oprav|zkontroluj|podívej|koukni|změň|smaž|odstraň|odeber|přesuň|"
        r"dej|napiš|implementuj|aktualizuj|spusť|otestuj|vysvětli|ukaž|najdi|nastav|nainstaluj|"
        r"vygeneruj|pomoz|vyčisti|přejmenuj"
        # any other verb by its imperative ending, first in the sentence ("zkontrolujte",
        # "pojďme", "dělejme": let's)
        r"|\w{2,}(?:ej|uj|ij|ejte|ujte|ijte|ejme|ujme|ijme|ďme|dme))(?!\w)|\bprosím\b",
        matches=("Koukni prosím na ten cron.", "Odeber banner z úvodní stránky.",
                 "Chci, abys report exportoval do PDF.", "Pojďme to projít krok po kroku."),
        misses=("Úvodní stránka už banner nemá.", "Report se exportuje do PDF."),
    ),
    Rule(
        "narrated-always-never-cs",
        "not-rule",
        # "vždycky"/"nikdy" with a past tense ("vždycky to fungovalo"): what used to be
        r"\b(?P<cue>vždy|vždycky|nikdy)\s+(?:(?:to|se|mi|ti|si|nám)\s+)?\w+(?:l|la|lo|li|ly)\b",
        matches=("U nás to vždycky běželo bez problémů.",),
        misses=("Nikdy nepushuj přímo do mainu.", "Vždycky spusť testy."),
    ),
    Rule(
        "reports-done-cs",
        "done",
        r"\b[a-záčďéěíňóřšťúůýž]{3,}(?:al|il|el|ul)[aiy]?\s+jsem\b|"
        r"\b(?:jsem|jsme)\s+[a-záčďéěíňóřšťúůýž]{3,}(?:al|il|el|ul)[aiy]?\b|"
        r"\b(?:byl[aoiy]?)\s+[a-záčďéěíňóřšťúůýž]{3,}(?:án|en|et)[aoiy]?\b",
        matches=("Přidal jsem novou stránku.", "Soubor byl upraven.",
                 "Jsme opravili styl tlačítka."),
        misses=("Přidám novou stránku.", "Mám přidat novou stránku?"),
    ),
    Rule(
        "user-choice-cs",
        "choice",
        r"\b(?:varianta|možnost)\s+[a-z0-9]\b|\b(?:použijeme|zvolíme|vybírám|radši)\b|"
        r"\bdej tam\b|\btam\b.{0,30}\bdej\b",
        matches=("Použijeme Tailwind.", "Zatím tam dej jen text."),
        misses=("Kterou možnost doporučuješ?", "Přečetl jsem možnosti."),
    ),
)  # fmt: skip
