"""Dutch extraction rules (see :mod:`synopsis.state.rules`). Patterns see lower case.

Dutch is mostly typed in plain ASCII, so without this module its messages read as
English and their requests, rules and corrections went unseen."""

from __future__ import annotations

from synopsis.state.rules import Rule

DETECT = (
    r"\b(?:de|het|een|en|niet|wel|ik|je|jij|wij|dat|die|dit|deze|voor|met|van|op|naar|ook|"
    r"nog|maar|als|moet|moeten|mag|kun|kunt|graag|alsjeblieft|alstublieft|nooit|altijd|"
    r"alleen|geen|zonder|eigenlijk|toch|nee|oké|prima|laten|zou|wil|gewoon|heb|hebben|"
    r"bedankt|dank|waarom|hoe|wat|waar|nu|eerst|liever|daarna|ervoor|hier|daar|mijn|"
    r"jouw|onze|zijn|wordt|werkt|gebruik|hooguit|hoogstens|maximaal|minimaal|minstens)\b"
)
"""Dutch function words (several shared with German, French or Spanish; English ones such as
"we" left out): the records apply where one is. A tie in :func:`words_of_languages` goes to
the module read first, so "de", "je" and "die" alone do not make French or German Dutch."""

_TOKEN = r"[^\s,.;:!?]+"
_ART = r"(?:de |het |een )?"
_IMPERATIVE = (
    r"raak|verander|wijzig|verwijder|gebruik|installeer|push|commit|maak|voeg|overschrijf|"
    r"schrijf|verplaats|draai|pas|zet|doe|run|deploy|merge|upgrade"
)

RULES: tuple[Rule, ...] = (
    Rule(
        "never-always-nl",
        "rule",
        r"\b(?:nooit|altijd|steeds)\b|\b(?:moet|moeten|mag niet|mogen niet|hoeft niet|verboden|"
        r"in geen geval|onder geen beding|absoluut niet|zorg (?:er ?voor )?dat|vermijd)\b|"
        r"\b(?:je|jij|u|jullie|we|wij) (?:mag|mogen)\b[^.!?\n]{0,40}?\bniet\b",
        matches=("Deploy nooit op vrijdag.", "We moeten niet met de database kutten.",
                 "Jullie mogen het wachtwoord echt niet loggen."),
        misses=("De server draait in Utrecht.",),
    ),
    Rule(
        "dont-nl",
        "rule",
        # "Geen X", "Niet pushen naar main", "Verwijder … niet"
        rf"^(?:en |maar |alsjeblieft |graag )?geen\b(?! (?:idee|probleem|zorgen|dank)\b)|"
        rf"^(?:en |maar |alsjeblieft |graag )?niet\s+(?:{_ART}\w+\s+)?\w+en\b|"
        rf"\b(?:{_IMPERATIVE})\b(?:[^.!?\n]|\.(?=\w)){{0,40}}?\bniet\b(?! (?:meer|goed|zo)\b)",
        matches=("Geen extra pakketten installeren.", "Niet pushen naar main.",
                 "Verwijder de map build niet."),
        misses=("Geen idee waarom.", "Het laden lukt niet."),
    ),
    Rule(
        "ask-first-nl",
        "rule",
        r"\bvraag (?:het )?(?:eerst )?(?:me|mij|ons)\b|\bvraag (?:eerst|vooraf)\b|"
        r"\bzonder (?:overleg|toestemming|te vragen|(?:het )?(?:mij |ons )?eerst te vragen)\b|"
        r"\beerst (?:vragen|overleggen)\b|\b(?:overleg|praat|spreek|check) (?:het )?eerst met "
        r"(?:me|mij|ons)\b",
        matches=("Vraag mij voor je iets weggooit.", "Niets mergen zonder toestemming.",
                 "Overleg eerst met ons voordat je iets deployt."),
        misses=("Hij vroeg me gisteren iets.",),
    ),
    Rule(
        "obligation-on-a-thing-nl",
        "requirement",
        # "de tabel moet …": said of the thing being built, not "je moet", "we moeten"
        r"\b(?!(?:je|jij|u|jullie|we|wij|ik|men|ook|altijd|nooit|en|maar|graag|dat|het)\b)"
        # (nor "nu moeten we …": the verb before its subject, which is then a person)
        r"[^\W\d_]+\s+(?P<cue>moet|moeten)\b(?!\s+(?:je|jij|u|jullie|we|wij|ik|men)\b)|"
        r"\bzorg (?:er ?voor )?dat\b",
        matches=("De lijst moet op naam gesorteerd zijn.",
                 "Beide vensters moeten te sluiten zijn."),
        misses=("Je moet eerst de tests draaien.", "We moeten het vragen.",
                "Vandaag moet je de cache legen."),
    ),
    Rule(
        "limit-nl",
        "rule",
        r"\b(?:hoogstens|hooguit|maximaal|ten hoogste|minimaal|minstens|ten minste|tenminste|"
        r"niet meer dan|niet boven)\b",
        matches=("Hooguit vijf pogingen per minuut.", "Het budget blijft minimaal onder de 200."),
        misses=("De server heeft 16 GB.",),
    ),
    Rule(
        "only-and-preference-nl",
        "rule",
        r"\b(?:gebruik|neem)\b[^.!?\n]{0,30}?\b(?:alleen|uitsluitend|enkel)\b|"
        r"^(?:alleen|uitsluitend|enkel)\b|"
        r"\b(?:antwoord|schrijf|praat)(?: graag| alsjeblieft)?(?: altijd)? in het "
        r"(?:nederlands|engels)\b|\bliever\b|\bik (?:geef de voorkeur|prefereer)\b|"
        r"\bik wil\b[^.!?\n]{0,40}?\b(?:houden|behouden|laten staan|laten zoals)\b|"
        r"\bik wil (?:echt )?(?:niet|niets|niks|geen)\b",
        matches=("Reageer liever kort.", "Neem uitsluitend pakketten van PyPI.",
                 "Ik wil graag gewoon alles op deze laptop houden.",
                 "Ik wil geen nieuwe tabellen in het schema."),
        misses=("Ik wilde alleen weten hoe het gaat.",),
    ),
    Rule(
        "said-of-oneself-nl",
        "not-rule",
        r"\b(?:(?:ik|we|wij|hij|zij|ze|het|men)\s+(?:heb|hebben|heeft|had|hadden|ben|was|waren)|"
        r"(?:heb|hebben|heeft|had|hadden|ben|was|waren)\s+(?:ik|we|wij|hij|zij|ze|het|men))\s+"
        r"(?:\w+\s+){0,3}(?P<cue>nooit|altijd)\b",
        matches=("Zo'n melding had ik nog nooit.", "We hebben altijd geluk gehad."),
        misses=("Commit nooit secrets.",),
    ),
    Rule(
        "how-it-is-nl",
        "not-rule",
        r"\b(?:is|zijn|was|waren|wordt|loopt|duurt|gaat|werkt|draait|hangt|faalt)\s+"
        r"(?:\w+\s+){0,2}(?P<cue>altijd|nooit)\b",
        matches=("De pipeline faalt op vrijdag altijd.",),
        misses=("Schrijf altijd eerst een test.",),
    ),
    Rule(
        "asks-leave-nl",
        "not-rule",
        # "Moet ik …?", "Mag ik …?": a question, not an obligation
        r"^(?P<cue>moet|moeten|mag|mogen) (?:ik|we|wij|jij|je)\b[^.!\n]*\?",
        matches=("Moet ik de cache legen?",),
        misses=("Je moet de cache legen.",),
    ),
    Rule(
        "correction-nl",
        "correction",
        r"\b(?:eigenlijk|correctie|sorry|excuses|ik bedoelde|ik bedoel|ik heb me vergist|"
        r"toch maar|toch liever|in plaats daarvan|nu is|nu zijn)\b|^nee\b",
        matches=("Eigenlijk is het poort 8081.", "Nee, het zijn er 14."),
        misses=("Het is poort 8081.",),
    ),
    Rule(
        "old-value-nl",
        "old-marker",
        rf"(?:\bniet|\bin plaats van|\bi\.p\.v\.|\bipv|\ben niet)\s+{_ART}$",
        matches=("Poort 8081, niet ", "uv in plaats van "),
        misses=("Poort ",),
    ),
    Rule(
        "moved-to-nl",
        "update",
        r"\b(?:verplaatst|verschoven|veranderd|gewijzigd|omgezet|aangepast|verplaats|verschuif|"
        r"verander|wijzig)\b[^.!?\n]{0,30}?\b(?:naar|in|tot)\b|"
        r"\b(?:naar|op|in) [^.!?\n]{1,30}? (?:verplaatst|verschoven|veranderd|gewijzigd|"
        r"omgezet)\b|\bin plaats van\b|\bi\.p\.v\.|\bipv\b|\beigenlijk\b|\bcorrectie\b|\bhernoem\b",
        matches=("De release is naar dinsdag verschoven.", "Verander de kleur naar groen.",
                 "Neem yarn in plaats van npm."),
        misses=("De release is op dinsdag.",),
    ),
    Rule(
        "instead-of-nl",
        "replace",
        rf"(?P<new>{_TOKEN})\s+(?:in plaats van|i\.p\.v\.|ipv)\s+{_ART}(?P<old>{_TOKEN})",
        matches=("Neem yarn in plaats van npm.",),
        misses=("Neem yarn.",),
    ),
    Rule(
        "instead-of-old-take-new-nl",
        "substitute",
        rf"\bin plaats van\s+{_ART}(?P<old>{_TOKEN}),?\s+(?:neem|gebruik|noem (?:het|hem|ze))\s+"
        rf"{_ART}(?P<new>{_TOKEN})|"
        rf"\b(?:neem|gebruik)\s+(?:liever\s+)?{_ART}(?P<new2>{_TOKEN})\s+(?:in plaats van|"
        rf"i\.p\.v\.|ipv)\s+{_ART}(?P<old2>{_TOKEN})|"
        rf"\bhernoem\s+{_ART}(?:\w+\s+)?(?P<old3>{_TOKEN})\s+(?:naar|tot|in)\s+(?P<new3>{_TOKEN})",
        matches=("In plaats van npm, gebruik pnpm.", "Gebruik pnpm i.p.v. npm.",
                 "Hernoem de map tmp_x naar final_x."),
        misses=("In plaats van te wachten, doe het nu.",),
    ),
    Rule(
        "not-old-but-new-nl",
        "replace",
        rf"\bniet\s+{_ART}(?P<old>{_TOKEN}),?\s+maar\s+{_ART}(?P<new>{_TOKEN})",
        matches=("Niet woensdag, maar donderdag.",),
        misses=("Niet woensdag.",),
    ),
    Rule(
        "new-not-old-nl",
        "replace",
        rf"(?P<new>{_TOKEN}),\s+(?:en\s+)?niet\s+{_ART}(?P<old>{_TOKEN})",
        matches=("De poort wordt 8081, niet 8080.",),
        misses=("De poort wordt 8081.",),
    ),
    Rule(
        "stays-nl",
        "keep",
        r"\b(?:blijft (?:hetzelfde|gelijk|zo|ongewijzigd|zoals (?:het|hij|ze) is|staan)|"
        r"ongewijzigd|verandert niet)\b",
        matches=("De terugvlucht blijft hetzelfde.",),
        misses=("De terugvlucht verandert.",),
    ),
    Rule(
        "no-nl",
        "no",
        r"^(?:nee|neen|liever niet|nog niet|niet doen|laat maar|beter niet)(?!\w)",
        matches=("Nee, laat het zo.", "Liever niet."),
        misses=("Neem die maar.",),
    ),
    Rule(
        "yes-nl",
        "yes",
        r"^(?:ja|jazeker|jawel|oké|doe maar|doe dat|ga je gang|akkoord|klopt|precies)(?!\w)|"
        r"^(?:prima|goed|top|perfect)(?=\s*(?:[,.!]|$))",
        matches=("Ja, doe dat.", "Prima.", "Doe maar."),
        misses=("Goed idee om te wachten?", "Prima di tutto, niente push."),
    ),
    Rule(
        "proposal-nl",
        "proposal",
        r"\b(?:ik stel voor|ik zou (?:voorstellen|aanraden)|ik raad (?:je )?aan|zal ik|"
        r"wil je dat ik|zullen we|ik kan ook|wat dacht je van)\b",
        matches=("Ik stel voor de logica te verplaatsen.", "Zal ik dat doen?"),
        misses=("Ik heb de logica verplaatst.",),
    ),
    Rule(
        "still-to-do-nl",
        "pending",
        r"\b(?:nog te doen|staat nog open|nog niet (?:af|klaar|gedaan|getest|geïmplementeerd)|"
        r"(?:de )?volgende stap|hierna komt|moet nog|moeten nog)\b",
        matches=("Het inloggen moet nog getest worden.", "De volgende stap is de deploy."),
        misses=("Alles is getest.",),
    ),
    Rule(
        "request-nl",
        "request",
        # a question to the agent, an imperative at the start, or a wish about its work
        r"^(?:(?:ok|oké|oke|goed|dan|nu|en|nog|prima|top)[,.!:]?\s+)*"
        r"(?:kun je|kan je|kunt u|kun jij|wil je|wilt u|zou je|zou jij|zou u|laten we|"
        r"ik wil (?:graag )?dat|ik zou graag|maak|voeg|verwijder|haal|pas|verander|wijzig|"
        r"herstel|repareer|controleer|bekijk|kijk|schrijf|implementeer|werk|migreer|voer|"
        r"leg|toon|laat|zoek|configureer|installeer|genereer|ruim|hernoem|verplaats|zet|"
        r"gebruik|ga|zorg)\b|\balsjeblieft\b|\balstublieft\b|\bgraag\b",
        matches=("Kun je de knoppen kleiner maken?", "Laten we nu doorgaan tot stap 5.",
                 "Haal de banner van de startpagina.", "Ik wil dat het rapport als PDF komt."),
        misses=("De startpagina heeft geen banner meer.", "Het rapport komt als PDF."),
    ),
    Rule(
        "reports-done-nl",
        "done",
        r"\b(?:ik heb|we hebben|heb ik|hebben we)\b[^.!?\n]{0,60}?\b[a-z]*ge[a-z]{3,}(?:d|t)\b|"
        r"\b(?:is|zijn) (?:\w+ ){0,2}(?:aangepast|toegevoegd|verwijderd|bijgewerkt|opgelost|"
        r"aangemaakt|geïmplementeerd|voltooid)\b",
        matches=("Ik heb de netwerkmodule toegevoegd.", "Het bestand is verwijderd."),
        misses=("Ik ga de module toevoegen.", "Wil je dat ik de module toevoeg?"),
    ),
    Rule(
        "user-choice-nl",
        "choice",
        r"\b(?:optie|keuze)\s+[a-z0-9]\b|\b(?:we gaan voor|ik kies|laten we (?:gaan )?voor)\b",
        matches=("We gaan voor Postgres.", "Optie B graag."),
        misses=("Welke optie raad je aan?",),
    ),
    Rule(
        "says-broken-nl",
        "broken",
        r"\b(?:werkt (?:nog steeds |nog altijd |alweer )?niet|doet het (?:nog steeds )?niet|"
        r"gaat (?:nog steeds )?mis|nog steeds (?:kapot|fout|een fout|dezelfde fout)|is kapot|"
        r"krijg (?:nog steeds |weer )?een fout)\b",
        matches=("De deploy werkt nog steeds niet.", "Ik krijg weer een fout bij het opstarten."),
        misses=("Alles werkt nu.", "Verander de poort niet."),
    ),
    Rule(
        "plans-next-nl",
        "plan",
        r"^\W*(?:(?:nu|eerst|daarna|dan|vervolgens)[,:]?\s+)*"
        r"(?:ik ga|ik zal|laat me|laat ik|we gaan|ik moet)\b",
        matches=("Ik ga de tabel aanmaken die al gepland was.", "Eerst laat ik de logs zien."),
        misses=("Ik heb de tabel aangemaakt.", "De tabel is klaar, ik ga hem nakijken."),
    ),
)  # fmt: skip
