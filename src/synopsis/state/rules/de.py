"""German extraction rules (see :mod:`synopsis.state.rules`). Patterns see lower case."""

from __future__ import annotations

from synopsis.state.rules import Rule

DETECT = (
    r"\b(?:der|das|und|ist|nicht|niemals|immer|bitte|ein|eine|einen|einem|mit|für|auf|"
    r"ich|du|wir|sie|es|den|dem|des|zu|von|auch|aber|noch|schon|kein|keine|keinen|muss|musst|"
    r"darf|sollst|frag|mich|danke|ja|nein|oder|wenn|dass|bevor|jetzt|lieber|nur|eigentlich|"
    r"sondern|statt|anstatt|genau|gerne|gern|klar|passt|lass|mach|antworte|verwende|benutze|"
    r"nimm|ändere|lösche|fass|benenne|umbenennen)\b|[äöüß]"
)
"""German words that English does not use (and ä, ö, ü, ß): the records apply where one is."""

_TOKEN = r"[^\s,.;:!?]+"
_ART = r"(?:der |die |das |den |dem |des )?"
_IMPERATIVE = (
    r"fass|rühr|ändere?|änder|lösch|lösche|benutz|benutze|verwende|nutze?|installier|"
    r"installiere|push|pushe|committe|mach|mache|füg|füge|entfern|entferne|überschreib|"
    r"überschreibe|veränder|verändere|schreib|schreibe|erstell|erstelle|verschieb|verschiebe"
)

RULES: tuple[Rule, ...] = (
    Rule(
        "never-always-de",
        "rule",
        r"\b(?:niemals|nie|stets|immer)\b|\b(?:du musst|ihr müsst|sie müssen|du darfst|darf nicht|"
        r"dürfen nicht|muss|müssen|unbedingt|auf keinen fall|verboten|stelle sicher|stell sicher|"
        r"achte darauf|vermeide)\b",
        matches=("Pushe niemals direkt auf main.", "Du musst vorher die Tests laufen lassen.",
                 "Auf keinen Fall die Datenbank anfassen."),
        misses=("Der Server läuft in Frankfurt.",),
    ),
    Rule(
        "dont-de",
        "rule",
        rf"^(?:und |aber |bitte )?(?:kein|keine|keinen|keinerlei)\b(?! (?:ahnung|problem|sorge|"
        rf"idee|ursache)\b)|\b(?:{_IMPERATIVE})\b(?:[^.!?\n]|\.(?=\w)){{0,40}}?\bnicht\b",
        matches=("Keine neuen Abhängigkeiten.", "Fass die Konfiguration nicht an.",
                 "Lösch die config.yaml nicht."),
        misses=("Keine Ahnung, warum.", "Das klappt nicht."),
    ),
    Rule(
        "ask-first-de",
        "rule",
        r"\bfrag(?:e)? (?:mich|uns)\b|\bfrag vorher\b|\bvorher (?:fragen|nachfragen|rückfragen)\b|"
        r"\bohne (?:rücksprache|nachzufragen|zu fragen|mich zu fragen|meine zustimmung)\b|"
        r"\bnur nach rücksprache\b",
        matches=("Frag mich, bevor du etwas löschst.", "Nichts pushen ohne Rücksprache."),
        misses=("Er hat mich gefragt.",),
    ),
    Rule(
        "obligation-on-a-thing-de",
        "requirement",
        # "der Export muss …": said of the thing being built, not "du musst", "Sie müssen"
        r"\b(?!(?:du|ihr|sie|wir|ich|man|auch|immer|nie|niemals|und|aber|bitte)\b)[^\W\d_]+\s+"
        r"(?P<cue>muss|müssen)\b|\b(?:stelle? sicher|stell sicher|unbedingt)\b",
        matches=("Die Tabelle muss nach Datum sortiert sein.",
                 "Beide Dialoge müssen schließbar sein."),
        misses=("Du musst vorher fragen.", "Sie müssen die Tests laufen lassen."),
    ),
    Rule(
        "limit-de",
        "rule",
        r"\b(?:höchstens|maximal|mindestens|wenigstens|nicht mehr als|weniger als|nicht über|"
        r"nicht überschreiten)\b",
        matches=("Höchstens zwei Anfragen pro Sekunde.",
                 "Das Budget darf 500 Euro nicht überschreiten."),
        misses=("Der Server hat 32 GB.",),
    ),
    Rule(
        "only-and-language-de",
        "rule",
        r"\b(?:verwende|benutze|nutze|nimm)\b[^.!?\n]{0,30}?\b(?:nur|ausschließlich)\b|"
        r"\b(?:nur|ausschließlich) (?:mit|über)\b|\b(?:antworte|schreibe?|sprich)(?: bitte)?"
        r"(?: immer)? (?:auf|in) (?:deutsch|englisch)\b|\bich (?:bevorzuge|möchte lieber|hätte "
        r"lieber)\b|\blieber\b",
        matches=("Antworte auf Deutsch.", "Verwende nur die Standardbibliothek.",
                 "Ich bevorzuge pnpm."),
        misses=("Ich wollte nur fragen, wie es läuft.",),
    ),
    Rule(
        "said-of-oneself-de",
        "not-rule",
        # (also with the object first and the verb second: "so haben wir es immer gemacht")
        r"\b(?:(?:ich|wir|er|es|man|sie)\s+(?:habe|haben|hat|hatte|hatten|bin|war|waren)|"
        r"(?:habe|haben|hat|hatte|hatten|bin|war|waren)\s+(?:ich|wir|er|es|man|sie))\s+"
        r"(?:\w+\s+){0,3}(?P<cue>nie|niemals|immer)\b",
        matches=("Ich habe das noch nie gesehen.", "Wir hatten immer Glück.",
                 "So einen Fehler hatten wir nie."),
        misses=("Pushe niemals direkt auf main.",),
    ),
    Rule(
        "how-it-is-de",
        "not-rule",
        r"\b(?:ist|sind|war|waren|wird|läuft|dauert|geht|klappt|hängt)\s+(?:\w+\s+)?"
        r"(?P<cue>immer|nie|niemals)\b",
        matches=("Der Build ist immer am Montag langsam.",),
        misses=("Schreibe immer Tests.",),
    ),
    Rule(
        "correction-de",
        "correction",
        r"\b(?:eigentlich|korrektur|sorry|entschuldigung|ich habe mich vertan|ich meinte|"
        r"doch lieber|stattdessen|jetzt ist|jetzt sind|nun ist)\b",
        matches=("Eigentlich ist es Port 3001.", "Korrektur: wir sind 12."),
        misses=("Es ist Port 3001.",),
    ),
    Rule(
        "old-value-de",
        "old-marker",
        rf"(?:\bnicht|\bstatt|\banstatt|\banstelle von|\bund nicht)\s+{_ART}$",
        matches=("Port 3001, nicht ", "Poetry statt "),
        misses=("Port ",),
    ),
    Rule(
        "moved-to-de",
        "update",
        r"\b(?:verschoben|verlegt|geändert|umgestellt|gewechselt|vorgezogen|verschieben|ändern|"
        r"wechseln|wechsle)\b[^.!?\n]{0,30}?\b(?:auf|zu|nach|in)\b|\bauf [^.!?\n]{1,30}? "
        r"(?:verschoben|verlegt|geändert|umgestellt|gewechselt|vorgezogen)\b|"
        r"\b(?:statt|anstatt|anstelle)\b|\beigentlich\b|\bkorrektur\b|\bbenenne\b|\bumbenennen\b",
        matches=("Wir haben die Demo auf Freitag verschoben.", "Nimm Poetry statt pip."),
        misses=("Die Demo ist am Freitag.",),
    ),
    Rule(
        "instead-of-de",
        "replace",
        rf"(?P<new>{_TOKEN})\s+(?:statt|anstatt|anstelle von)\s+{_ART}(?P<old>{_TOKEN})",
        matches=("Nimm Poetry statt pip.",),
        misses=("Nimm Poetry.",),
    ),
    Rule(
        "instead-of-old-take-new-de",
        "substitute",
        rf"\b(?:statt|anstatt|anstelle von)\s+{_ART}(?P<old>{_TOKEN}),?\s+(?:nimm|nehmt|verwende|"
        rf"benutze|nenn(?:e)? (?:es|ihn|sie))\s+{_ART}(?P<new>{_TOKEN})|"
        rf"\b(?:nimm|nehmt|verwende|benutze)\s+{_ART}(?P<new2>{_TOKEN})\s+(?:statt|anstatt|"
        rf"anstelle von)\s+{_ART}(?P<old2>{_TOKEN})",
        matches=("Statt pip, nimm uv.", "Anstatt tmp_a nenn es final_a.", "Nimm uv statt pip."),
        misses=("Statt zu warten, mach es jetzt.",),
    ),
    Rule(
        "rename-old-to-new-de",
        "substitute",
        rf"\bbenenne\s+{_ART}(?:\w+\s+)?(?P<old>{_TOKEN})\s+in\s+(?P<new>{_TOKEN})\s+um\b|"
        rf"(?P<old2>{_TOKEN})\s+in\s+(?P<new2>{_TOKEN})\s+umbenennen\b",
        matches=("Benenne den Ordner out_a in out_b um.", "Bitte out_a in out_b umbenennen."),
        misses=("Benenne es später um.",),
    ),
    Rule(
        "not-old-but-new-de",
        "replace",
        rf"\bnicht\s+{_ART}(?P<old>{_TOKEN}),?\s+sondern\s+{_ART}(?P<new>{_TOKEN})",
        matches=("Nicht Dienstag, sondern Donnerstag.",),
        misses=("Nicht Dienstag.",),
    ),
    Rule(
        "new-not-old-de",
        "replace",
        rf"(?P<new>{_TOKEN}),\s+(?:und\s+)?nicht\s+{_ART}(?P<old>{_TOKEN})",
        matches=("Der Port ist 5433, nicht 5432.",),
        misses=("Der Port ist 5433.",),
    ),
    Rule(
        "stays-de",
        "keep",
        r"\b(?:bleibt (?:gleich|unverändert|so|wie (?:es|sie|er) ist|bestehen)|unverändert|"
        r"ändert sich nicht)\b",
        matches=("Der Rückflug bleibt gleich.",),
        misses=("Der Rückflug ändert sich.",),
    ),
    Rule(
        "no-de",
        "no",
        r"^(?:nein|nö|lieber nicht|noch nicht|lass (?:es|das)|bitte nicht)(?!\w)",
        matches=("Nein, lass es so.", "Lieber nicht."),
        misses=("Nehmen wir das.",),
    ),
    Rule(
        "yes-de",
        "yes",
        r"^(?:jawohl|genau|passt|klar|gerne|gern|mach das|mach es|einverstanden|in ordnung)(?!\w)",
        matches=("Genau, mach das.", "Passt."),
        misses=("Klappt nicht.",),
    ),
    Rule(
        "proposal-de",
        "proposal",
        r"\b(?:ich (?:schlage|würde) (?:vor|empfehlen|vorschlagen)|ich empfehle|soll ich|"
        r"möchtest du, dass|willst du, dass|sollen wir|ich könnte|wie wäre es)\b",
        matches=("Ich schlage vor, die Logik zu verschieben.", "Soll ich das machen?"),
        misses=("Ich habe die Logik verschoben.",),
    ),
    Rule(
        "still-to-do-de",
        "pending",
        r"\b(?:noch (?:zu tun|offen|ausstehend|nicht (?:erledigt|fertig|implementiert|getestet))|"
        r"als nächstes|nächster schritt|der nächste schritt|muss noch|müssen noch|"
        r"steht noch aus)\b",
        matches=("Der Login muss noch getestet werden.", "Als Nächstes kommt das Deployment."),
        misses=("Alles ist getestet.",),
    ),
    Rule(
        "request-de",
        "request",
        # a question to the agent, an imperative at the start, or a wish about its work
        r"^(?:(?:ok|okay|also|und|dann|jetzt|noch|gut)[,.!:]?\s+)*"
        r"(?:kannst du|könntest du|würdest du|kann(?:st)? (?:ich|du) bitte|"
        r"ich (?:möchte|hätte gern|"
        r"brauche|will),? dass|ich hätte gern|mach|mache|erstelle|füge|behebe|repariere|"
        r"korrigiere|prüfe|überprüfe|schau|ändere|lösche|entferne|verschiebe|schreib|schreibe|"
        r"implementiere|aktualisiere|migriere|führe|starte|teste|erkläre|zeig|zeige|such|suche|"
        r"konfiguriere|installiere|generiere|hilf|räum|räume|benenne)\b|\bbitte\b",
        matches=("Kannst du dir den Cronjob ansehen?", "Entferne das Banner von der Startseite.",
                 "Ich möchte, dass der Bericht als PDF kommt."),
        misses=("Die Startseite hat kein Banner mehr.", "Der Bericht kommt als PDF."),
    ),
    Rule(
        "idiomatic-order-de",
        "rule",
        # "Finger weg von", "lass … in Ruhe", a step at every point of the work ("vor jedem Push")
        r"\bfinger weg\b|\blass die finger von\b|\blass\b[^.!?\n]{1,40}?\bin ruhe\b|"
        r"\b(?:vor|nach|bei) jede[mnrs]?\b|\bjedes mal,? wenn\b",
        matches=("Bitte Finger weg vom Zahlungsmodul.", "Lass die Migrationen bitte in Ruhe.",
                 "Nach jedem Merge das Changelog ergänzen."),
        misses=("Ich habe mir den Finger verletzt.", "Vor dem Meeting war alles gut."),
    ),
    Rule(
        "plans-next-de",
        "plan",
        r"^\W*(?:(?:jetzt|nun|zuerst|als nächstes|dann)[,:]?\s+)*"
        r"(?:ich werde|ich muss|ich möchte|lass(?:t)? mich|wir werden|wir müssen)\b",
        matches=("Ich werde die Tabelle anlegen, die bereits geplant wurde.",
                 "Als nächstes lass mich die Logs prüfen."),
        misses=("Ich habe die Tabelle angelegt.",
                "Die Tabelle wurde angelegt, ich werde sie prüfen."),
    ),
)  # fmt: skip
