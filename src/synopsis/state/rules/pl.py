"""Polish extraction rules (see :mod:`synopsis.state.rules`). Patterns see lower case."""

from __future__ import annotations

from synopsis.state.rules import Rule

_NEG_IMPERATIVE = r"nie\s+\w+(?:aj|uj|ij|j|ń|ż|ś|cie|ajcie|ujcie)"
"""A negated imperative: "nie ruszaj", "nie pushuj", "nie zmieniaj", "nie usuwaj"."""
DETECT = (
    rf"\b(?:{_NEG_IMPERATIVE}|nie|jest|są|się|że|ale|jak|tylko|też|mnie|mi|ja|ty|tam|tu|"
    r"dzięki|tak|już|jeszcze|albo|lub|kiedy|żeby|zawsze|nigdy|musisz|proszę|zapytaj|zamiast|"
    r"właściwie|dobra|dobrze|jasne|zrób|używaj|użyj|plik|pliki|na|po|dla|co|bez|zostaje)\b|[ąęłńśźżó]"
)
"""Polish words that English does not use (and ą, ę, ł, ś …): the records apply where one is."""

_TOKEN = r"[^\s,.;:!?]+"
_START = r"(?:^|[,;:]\s*|\bi\s+|\bale\s+|\bproszę,?\s+|\btylko\s+)"

RULES: tuple[Rule, ...] = (
    Rule(
        "never-always-pl",
        "rule",
        r"\b(?:nigdy|zawsze|musisz|musicie|musi|trzeba|należy|nie wolno|nie możesz|zabronione|"
        r"obowiązkowo|koniecznie|pamiętaj|upewnij się|unikaj)\b",
        matches=("Zawsze pisz testy.", "Musisz użyć pnpm.", "Nie wolno ruszać produkcji."),
        misses=("Serwer stoi w Warszawie.",),
    ),
    Rule(
        "dont-pl",
        "rule",
        # at the start of its clause, or last: "Tej gałęzi nie usuwaj."
        rf"{_START}{_NEG_IMPERATIVE}\b|\b{_NEG_IMPERATIVE}[.!]*$",
        matches=("Proszę, nie ruszaj konfiguracji.", "Nie usuwajcie gałęzi.",
                 "Bazy produkcyjnej nie ruszaj."),
        misses=("Nie działa.", "Nie wiem dlaczego."),
    ),
    Rule(
        "ask-first-pl",
        "rule",
        r"\bzapytaj(?:cie)? (?:mnie|nas)\b|\bbez (?:mojej|mojego) (?:zgody|akceptacji|"
        r"potwierdzenia|wiedzy)\b|\bnajpierw (?:mnie )?zapytaj\b|\bpytaj mnie\b",
        matches=("Zapytaj mnie, zanim coś usuniesz.", "Nic nie merguj bez mojej zgody."),
        misses=("Pytał o deploy.",),
    ),
    Rule(
        "limit-pl",
        "rule",
        r"\b(?:maksymalnie|najwyżej|co najwyżej|minimalnie|co najmniej|przynajmniej|nie więcej niż|"
        r"mniej niż|nie może przekroczyć|nie przekraczaj)\b",
        matches=("Maksymalnie dwa zapytania na sekundę.", "Co najmniej 80% pokrycia."),
        misses=("Serwer ma 32 GB.",),
    ),
    Rule(
        "only-and-language-pl",
        "rule",
        r"\b(?:używaj|użyj|korzystaj z)\b[^.!?\n]{0,30}?\btylko\b|\btylko (?:przez|w|z|na)\b|"
        r"\b(?:odpowiadaj|odpowiedz|pisz|mów)(?: zawsze| proszę)? po (?:polsku|angielsku)\b|"
        r"\bwolę\b|\bwolałbym\b|\bwolałabym\b",
        matches=("Odpowiadaj po polsku.", "Używaj tylko biblioteki standardowej.", "Wolę pnpm."),
        misses=("Pisze po polsku?",),
    ),
    Rule(
        "said-of-what-was-pl",
        "not-rule",
        r"(?P<cue>nigdy|zawsze)\s+(?:\w+\s+){0,2}(?:nie\s+)?(?!nie\b)\w+(?:łem|łam|łeś|łaś|ło|ła|ły|li|"
        r"liśmy|łyśmy|a|i|e|uje|ują)\b",
        matches=("Nigdy wcześniej nie widziałem takiego błędu.", "Serwer zawsze wolno startuje."),
        misses=("Zawsze pisz testy.",),
    ),
    Rule(
        "correction-pl",
        "correction",
        r"\b(?:właściwie|poprawka|sorry|przepraszam|pomyliłem się|pomyliłam się|tak naprawdę|"
        r"jednak|teraz jest|zamiast)\b",
        matches=("Właściwie port to 5433.", "Poprawka: będzie nas 12."),
        misses=("Port to 5433.",),
    ),
    Rule(
        "old-value-pl",
        "old-marker",
        r"(?:\bnie|\bzamiast|\ba nie)\s+$",
        matches=("port to 5433, nie ", "zamiast "),
        misses=("port to ",),
    ),
    Rule(
        "moved-to-pl",
        "update",
        r"\b(?:przenieśliśmy|przeniosłem|przeniosłam|przenieś|przesunęliśmy|przesuń|zmieniłem|"
        r"zmieniłam|zmieniliśmy|zmień|zamień|przełącz)\b[^.!?\n]{0,30}?\b(?:na|do|w)\b|"
        r"\bzamiast\b|\bwłaściwie\b|\bpoprawka\b",
        matches=("Przenieśliśmy spotkanie na piątek.", "Zamiast npm użyj pnpm."),
        misses=("Spotkanie jest w piątek.",),
    ),
    Rule(
        "instead-of-pl",
        "replace",
        rf"\bzamiast\s+(?P<old>{_TOKEN})\s+(?:użyj|daj|weź|użyjemy|będzie)\s+(?P<new>{_TOKEN})",
        matches=("Zamiast npm użyj pnpm.",),
        misses=("Użyj pnpm.",),
    ),
    Rule(
        "new-not-old-pl",
        "replace",
        rf"(?P<new>{_TOKEN}),\s+(?:a\s+)?nie\s+(?P<old>{_TOKEN})",
        matches=("Port to 5433, nie 5432.",),
        misses=("Port to 5433.",),
    ),
    Rule(
        "stays-pl",
        "keep",
        r"\b(?:zostaje (?:bez zmian|tak samo|jak jest)|bez zmian|zostaw (?:tak|jak jest)|"
        r"nie zmienia się)\b",
        matches=("Data powrotu zostaje bez zmian.",),
        misses=("Data się zmienia.",),
    ),
    Rule(
        "no-pl",
        "no",
        r"^(?:nie|jeszcze nie|na razie nie|lepiej nie|zostaw to)(?!\w)",
        matches=("Nie, zostaw tak.", "na razie nie"),
        misses=("Niestety działa.",),
    ),
    Rule(
        "yes-pl",
        "yes",
        r"^(?:dobra|dobrze|jasne|zgoda|pewnie|śmiało|działaj|zrób to|rób)(?!\w)",
        matches=("Dobra, rób.", "Jasne."),
        misses=("Dobry pomysł?",),
    ),
    Rule(
        "proposal-pl",
        "proposal",
        r"\b(?:proponuję|sugeruję|polecam|czy mam|chcesz,? żebym|chcesz,? abym|mógłbym|mogłabym|"
        r"może (?:warto|lepiej))\b",
        matches=("Proponuję przenieść logikę do hooka.", "Chcesz, żebym to zrobił?"),
        misses=("Przeniosłem logikę.",),
    ),
    Rule(
        "still-to-do-pl",
        "pending",
        r"\b(?:jeszcze (?:trzeba|musimy|muszę|zostało|brakuje)|zostało (?:jeszcze|do zrobienia)|"
        r"następny krok|kolejny krok|następnym krokiem|do zrobienia)\b",
        matches=("Jeszcze trzeba przetestować logowanie.", "Następny krok to wdrożenie."),
        misses=("Wszystko przetestowane.",),
    ),
    Rule(
        "request-pl",
        "request",
        # a question to the agent, an imperative at the start, or a wish about its work
        r"^(?:(?:ok|dobra|no|i|a|teraz|jeszcze|potem)[,.!:]?\s+)*"
        r"(?:(?:czy )?(?:możesz|mógłbyś|mogłabyś|mógłby pan)|potrzebuję,? żebyś|chcę,? żebyś|"
        r"zrób|stwórz|utwórz|dodaj|napraw|popraw|sprawdź|zobacz|zerknij|zmień|usuń|przenieś|"
        r"wrzuć|napisz|zaimplementuj|zaktualizuj|uruchom|przetestuj|wyjaśnij|pokaż|znajdź|"
        r"skonfiguruj|zainstaluj|wygeneruj|pomóż|wyczyść)(?!\w)|\bproszę\b",
        matches=("Zerknij na tego crona.", "Usuń baner ze strony głównej.",
                 "Chcę, żebyś eksportował raport do PDF."),
        misses=("Strona główna nie ma już banera.", "Raport eksportuje się do PDF."),
    ),
    Rule(
        "says-broken-pl",
        "broken",
        r"\bnie (?:działa|dziala|ładuje się|wyświetla się|pokazuje się|uruchamia się|"
        r"startuje|zapisuje się)\b|\b(?:wciąż|nadal|dalej) (?:jest )?(?:błąd|nie)\b|"
        r"\b(?:wywala się|sypie się|crashuje|zawiesza się)\b",
        matches=("Logowanie nie działa.", "Nadal jest błąd przy zapisie.",
                 "Aplikacja wywala się po kliknięciu."),
        misses=("Teraz wszystko działa.", "Nie zmieniaj portu."),
    ),
)  # fmt: skip
