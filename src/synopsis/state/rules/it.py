"""Italian extraction rules (see :mod:`synopsis.state.rules`). Patterns see lower case."""

from __future__ import annotations

from synopsis.state.rules import Rule

DETECT = (
    r"\b(?:il|lo|gli|della|delle|dei|del|che|con|non|è|sono|anche|molto|più|"
    r"questo|questa|quello|quella|grazie|sì|perché|quando|dove|devi|puoi|usa|chiedimi|niente|"
    r"nulla|ho|hai|abbiamo|fare|già|alla|alle|al|nel|nella|una|uno|di|da|ci|si|mi|ti|ora|"
    r"adesso|anzi|invece|prima|meglio|facciamo|bisogna|scrivimi|rispondi|preferisco|lascia|perdere|va|bene|procedi|voglio|vorrei|ogni|certo|certamente|fallo|vai|cancellare|toccare|usare|spostato|spostata)\b|"
    r"[àèìòù]"
)
"""Italian words that English does not use (and its accents): the records apply where one is."""

_TOKEN = r"[^\s,.;:!?]+"
_START = r"(?:^|[,;:]\s*|\be\s+|\bma\s+|per favore,?\s+|ti prego,?\s+)"

_AMOUNT = (
    r"(?:\d|\b(?:un|uno|una|due|tre|quattro|cinque|sei|"
    r"sette|otto|nove|dieci|venti|trenta|cento|mille)\b)"
)
_BOUND = r"(?:al massimo|massimo|al minimo|minimo|almeno|meno di)"
"""A bound on an amount: a limit only with the amount said next to it (:data:`_AMOUNT`)."""

RULES: tuple[Rule, ...] = (
    Rule(
        "never-always-it",
        "rule",
        rf"{_START}non\s+(?:(?:lo|la|li|le|mi|ci|gli)\s+)?\w+re\s+mai\b|{_START}(?:sempre|mai)\b|"
        r"^\w+\s+sempre\b|\b(?:devi|dovete|bisogna|è obbligatorio|è vietato|vietato|assicurati|"
        r"evita(?:te)?|non si (?:deve|può)|non puoi|non devi)\b",
        matches=("Non toccare mai la produzione.", "Rispondi sempre in italiano.",
                 "Bisogna scrivere i test."),
        misses=("Il deploy è sempre lento.", "Non ho mai visto questo."),
    ),
    Rule(
        "dont-it",
        "rule",
        rf"{_START}non\s+(?:(?:lo|la|li|le|mi|ci|gli)\s+)?\w+(?:are|ere|ire)(?:lo|la|li|le)?\b|"
        r"^(?:e\s+)?(?:niente|nessun[ao]?)\s+\w",
        matches=("Per favore, non usare jQuery.", "Niente dipendenze nuove."),
        misses=("Non funziona.", "Non so perché."),
    ),
    Rule(
        "ask-first-it",
        "rule",
        r"\bchiedimi\b|\bchiedi(?:mi)? prima\b|\bsenti(?:mi)? prima\b|"
        r"\bsenza (?:chiedermi|chiedere|il mio (?:ok|permesso|consenso)|avvisarmi)\b",
        matches=("Chiedimi prima di fare il merge.", "Nessun push senza il mio ok."),
        misses=("Mi ha chiesto il file.",),
    ),
    Rule(
        "limit-it",
        "rule",
        # "massimo", "almeno" limit an amount said next to them; alone they say "the most"
        rf"{_AMOUNT}[^.!?\n]{{0,30}}?\b{_BOUND}\b|\b{_BOUND}\b[^.!?\n]{{0,30}}?{_AMOUNT}|"
        r"\b(?:non più di|non deve superare|non superare|sotto i|entro)\b",
        matches=("Al massimo due richieste al secondo.", "Entro venerdì.",
                 "Tre tentativi al massimo, poi fermati."),
        misses=("Il server ha 32 GB.", "Abbiamo dato il massimo su questo rilascio."),
    ),
    Rule(
        "only-and-language-it",
        "rule",
        r"\b(?:usa|utilizza|scrivi|usate) (?:solo|soltanto|solamente|unicamente)\b|"
        r"\b(?:solo|soltanto|unicamente) (?:con|in|la|il|le|i|tramite)\b|"
        r"\b(?:rispondi|scrivi|parla)(?:mi)? (?:sempre )?in (?:italiano|inglese|tedesco)\b|"
        r"\b(?:preferisco|preferirei)\b",
        matches=("Usa solo la libreria standard.", "Scrivimi in italiano.", "Preferisco pnpm."),
        misses=("Ho parlato con lui.",),
    ),
    Rule(
        "said-of-oneself-it",
        "not-rule",
        r"\b(?:non\s+)?(?:ho|hai|ha|abbiamo|avete|hanno|avevo|sono|è|era|siamo|sei)\s+"
        r"(?:\w+\s+)?(?P<cue>mai|sempre)\b",
        matches=("Non ho mai usato Vite.", "Il deploy è sempre lento."),
        misses=("Non toccare mai la produzione.",),
    ),
    Rule(
        "correction-it",
        "correction",
        r"\b(?:anzi|in realtà|scusa|correzione|mi sono sbagliat[oa]|alla fine|ora è|adesso è|"
        r"meglio)\b",
        matches=("Anzi, la porta è 5433.", "Alla fine siamo in 9."),
        misses=("La porta è 5433.",),
    ),
    Rule(
        "old-value-it",
        "old-marker",
        r"(?:\bnon|\binvece (?:di|che)|\bal posto d(?:i|el|ella)|\be non)\s+"
        r"(?:il |la |lo |i |le |alle |alla |al )?$",
        matches=("è 5433, non ", "alle 15 invece che alle "),
        misses=("è ",),
    ),
    Rule(
        "moved-to-it",
        "update",
        r"\b(?:spostat[oa]|spostiamo|sposta|rimandat[oa]|anticipat[oa]|cambiat[oa]|cambiamo|"
        r"passiamo|aggiornat[oa])\b[^.!?\n]{0,30}?\b(?:a|al|alla|alle|in|su|per)\b|"
        r"\binvece (?:di|che)\b|\bal posto d(?:i|el|ella)\b|\banzi\b|\bin realtà\b",
        matches=("Abbiamo spostato la demo a giovedì.", "Usa Redis al posto di Memcached."),
        misses=("La demo è giovedì.",),
    ),
    Rule(
        "instead-of-it",
        "replace",
        rf"(?P<new>{_TOKEN})\s+(?:invece (?:di|che)|al posto d(?:i|el|ella))\s+"
        rf"(?:alle |il |la |lo )?(?P<old>{_TOKEN})",
        matches=("Usa Redis invece di Memcached.",),
        misses=("Usa Redis.",),
    ),
    Rule(
        "not-old-but-new-it",
        "replace",
        rf"\bnon\s+(?:è\s+)?(?:il |la |lo )?(?P<old>{_TOKEN}),?\s+ma\s+(?:il |la |lo )?"
        rf"(?P<new>{_TOKEN})",
        matches=("Non martedì, ma giovedì.",),
        misses=("Non martedì.",),
    ),
    Rule(
        "new-not-old-it",
        "replace",
        rf"(?P<new>{_TOKEN}),\s+(?:e\s+)?non\s+(?:il |la )?(?P<old>{_TOKEN})",
        matches=("La porta è 5433, non 5432.",),
        misses=("La porta è 5433.",),
    ),
    Rule(
        "stays-it",
        "keep",
        r"\b(?:resta (?:uguale|invariat[oa]|così|com['’]è)|rimane (?:uguale|invariat[oa]|così)|"
        r"non cambia|invariat[oa])\b",
        matches=("La data di ritorno resta uguale.",),
        misses=("La data cambia.",),
    ),
    Rule(
        "no-it",
        "no",
        r"^(?:non ancora|lascia perdere|per ora no|meglio di no|assolutamente no)(?!\w)",
        matches=("Lascia perdere.", "per ora no"),
        misses=("Nessun problema.",),
    ),
    Rule(
        "yes-it",
        "yes",
        r"^(?:va bene|vai|procedi|perfetto|d['’]accordo|certo|certamente|fallo)(?!\w)",
        matches=("Va bene, procedi.", "Certo."),
        misses=("Vanno bene tutte e due?",),
    ),
    Rule(
        "proposal-it",
        "proposal",
        r"\b(?:ti (?:suggerisco|propongo|consiglio)|suggerisco|propongo|vuoi che|preferisci che|"
        r"potrei)\b",
        matches=("Ti suggerisco di spostare la logica.", "Vuoi che lo faccia?"),
        misses=("Ho spostato la logica.",),
    ),
    Rule(
        "still-to-do-it",
        "pending",
        r"\b(?:resta da|rimane da|manca(?:no)? ancora|ancora da (?:fare|implementare|testare)|"
        r"prossimo passo|passo successivo)\b",
        matches=("Resta da testare il login.", "Il prossimo passo è il deploy."),
        misses=("È tutto testato.",),
    ),
    Rule(
        "request-it",
        "request",
        # a question to the agent, an imperative at the start, or a wish about its work
        r"^(?:(?:ok|allora|e|poi|ora|adesso|anche|bene)[,.!:]?\s+)*"
        r"(?:(?:mi )?(?:puoi|potresti)|ti chiedo di|vorrei che|ho bisogno che|fai|fammi|crea|"
        r"aggiungi|correggi|sistema|controlla|verifica|guarda|cambia|modifica|elimina|togli|"
        r"rimuovi|sposta|metti|scrivi|implementa|aggiorna|migra|esegui|lancia|prova|spiega|"
        r"mostra|cerca|configura|installa|genera|aiutami|pulisci|rinomina|voglio|vorrei|"
        # "let's …": the first person plural that proposes the next piece of work
        r"facciamo|procediamo|passiamo|proviamo|vediamo|iniziamo|cominciamo|continuiamo|"
        r"andiamo avanti|sistemiamo|aggiungiamo|togliamo|cambiamo|usiamo|creiamo|rifacciamo)\b|"
        r"\bper (?:favore|piacere)\b",
        matches=("Mi puoi dare un'occhiata al cron?", "Togli il banner dalla home.",
                 "Vorrei che il report uscisse in PDF.", "Ok, passiamo alla pagina di login.",
                 "Voglio usare Redis per la cache."),
        misses=("La home non ha più il banner.", "Il report esce in PDF."),
    ),
    Rule(
        "narrated-always-never-it",
        "not-rule",
        # "mai"/"sempre" with a participle or a past tense ("mai visto", "sempre funzionato"):
        # what has or has not happened
        r"\b(?P<cue>mai|sempre)\s+(?:(?:mi|ti|ci|si|gli|le|lo|la)\s+)?(?:stato|stata|fatto|detto|"
        r"visto|vista|visti|sentito|[a-z]+(?:ato|uto|ito|ata|uta|ita|ava|eva|iva))\b",
        matches=("Mai vista una cosa del genere.", "Qui è sempre andato tutto liscio."),
        misses=("Non fare mai push su main.", "Rispondi sempre in italiano."),
    ),
    Rule(
        "idiomatic-order-it",
        "rule",
        # "lascia stare", "mi raccomando", "vanno scritti" (must be written), "prima di ogni push"
        r"\blascia(?:te)? (?:stare|perdere|in pace)\b|\bmi raccomando\b|"
        r"\bvanno\s+(?:\w+\s+)?\w+(?:ati|iti|uti|tti|ate|ite|ute|tte|si|se)\b|\bprima di ogni\b|"
        r"\bogni volta che\b",
        matches=("Lascia perdere la cartella legacy.", "I file di log vanno ruotati ogni notte.",
                 "Esegui il linter prima di ogni commit."),
        misses=("Ho lasciato il file lì.", "Vanno bene così."),
    ),
    Rule(
        "reports-done-it",
        "done",
        r"\b(?:ho|abbiamo)\s+(?:(?:già|anche|ora|appena)\s+)?[a-zà-ù]{2,}(?:ato|ito|uto|sso|tto|sto|nto|rto|lto)\b|"
        r"\b(?:è|sono)\s+stat[oaie]\s+[a-zà-ù]{3,}(?:at|it|ut|ss|tt)[oaie]\b|"
        r"\b(?:con successo|correttamente|completato|fatto!)",
        matches=("Ho aggiornato il file di configurazione.", "Il test è stato corretto.",
                 "Le email sono partite correttamente."),
        misses=("Devo ancora aggiornare il file.", "Vuoi che aggiorni il file?"),
    ),
    Rule(
        "user-choice-it",
        "choice",
        r"\bopzione\s+[a-z0-9]\b|\b(?:usiamo|scegliamo|andiamo con|procediamo con|teniamo)\b",
        matches=("Opzione A, grazie.", "Usiamo Redis, è più veloce."),
        misses=("Quale opzione consigli?", "Ho letto le opzioni."),
    ),
    Rule(
        "says-broken-it",
        "broken",
        r"\bnon (?:funziona|va|parte|carica|compare|arriva|vedo (?:nulla|niente))\b|"
        r"\b(?:ancora|sempre) (?:lo stesso )?errore\b|\bdà (?:ancora )?errore\b",
        matches=("Il login non funziona ancora.", "Non vedo niente nella casella."),
        misses=("Adesso funziona tutto.", "Non vedo l'ora di provarlo."),
    ),
    Rule(
        "plans-next-it",
        "plan",
        r"^\W*(?:(?:ora|adesso|prima|poi|quindi)[,:]?\s+)*"
        r"(?:devo|dobbiamo|vado a|sto per|lasciami|procedo a)\b",
        matches=("Devo cancellare la cache che è stata generata.",
                 "Ora procedo a riavviare il server."),
        misses=("Ho cancellato la cache.", "La cache è stata cancellata, devo verificarla."),
    ),
)  # fmt: skip
