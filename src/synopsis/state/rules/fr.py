"""French extraction rules (see :mod:`synopsis.state.rules`). Patterns see lower case."""

from __future__ import annotations

from synopsis.state.rules import Rule

DETECT = (
    r"\b(?:le|les|des|une|du|est|sont|avec|pour|dans|sur|pas|ne|jamais|toujours|mais|très|"
    r"aussi|ça|cela|ceci|fichier|merci|oui|je|tu|nous|vous|il|elle|au|aux|qui|que|quoi|faut|"
    r"dois|peux|moi|mon|ma|mes|ton|ta|tes|ce|cette|ces|et|ou|où|plus|rien|déjà|encore|"
    r"plutôt|fait|demande|utilise|renomme|renommer|renommez|"
    r"finalement|sera|vas|allez|parfait|volontiers|entendu|bon|n['’]\w+|d['’]\w+|l['’]\w+|c['’]est|qu['’]\w+)\b|[àâçèêëîïôûùœ]"
)
"""French words that English does not use (and its accents): the records apply where one is."""

_TOKEN = r"[^\s,.;:!?]+"
_START = r"(?:^|[,;:]\s*|\bet\s+|\bmais\s+|s['’]il te plaît,?\s+|stp,?\s+|surtout\s+)"
"""Where an imperative stands: at the start of its clause (no subject before it)."""

_AMOUNT = (
    r"(?:\d|\b(?:un|une|deux|trois|quatre|cinq|six|"
    r"sept|huit|neuf|dix|vingt|trente|cent|mille)\b)"
)
_BOUND = r"(?:au maximum|au plus|au moins|au minimum|maximum|minimum|moins de)"
"""A bound on an amount: a limit only with the amount said next to it (:data:`_AMOUNT`)."""

RULES: tuple[Rule, ...] = (
    Rule(
        "never-always-fr",
        "rule",
        rf"{_START}(?:ne\s+|n['’])\s*(?:(?:le|la|les|lui|me|m['’]|y|en)\s*)?\w+\s+jamais\b|"
        rf"{_START}(?:toujours|jamais)\b|\b(?:il faut|tu dois|vous devez|il est interdit|"
        r"interdit de|interdiction de|obligatoire|assure-toi|assurez-vous|veille à|évite[zs]?)\b",
        matches=("Ne touche jamais au schéma.", "Il faut tester chaque commit.",
                 "Toujours en anglais, les messages de commit."),
        misses=("Je n'ai jamais vu ça.", "Le build est toujours lent."),
    ),
    Rule(
        "dont-fr",
        "rule",
        rf"{_START}(?:ne\s+|n['’])\s*(?:(?:le|la|les|lui|me|m['’]|y|en)\s*)?\w+[^.!?\n]{{0,4}}?"
        r"\b(?:pas|rien|plus|aucun|aucune)\b|^(?:et\s+)?(?:pas de|aucun|aucune)\s+\w",
        matches=("N'utilise pas de regex ici.", "Pas de nouvelles dépendances."),
        misses=("Je ne sais pas.", "Ça ne marche pas chez moi."),
    ),
    Rule(
        "ask-first-fr",
        "rule",
        r"\bdemande[zs]?[- ]moi\b|\bdemande-nous\b|\bconsulte[zs]?-moi\b|\bpréviens-moi\b|"
        r"\bsans (?:me demander|mon accord|ma permission|me prévenir)\b",
        matches=("Demande-moi avant de pousser.", "Rien sans mon accord."),
        misses=("Il m'a demandé le fichier.",),
    ),
    Rule(
        "limit-fr",
        "rule",
        # "au plus", "maximum" limit an amount said next to them ("trois appels au maximum");
        # alone they say "as much as" ("automatiser au plus la chose")
        rf"{_AMOUNT}[^.!?\n]{{0,30}}?\b{_BOUND}\b|\b{_BOUND}\b[^.!?\n]{{0,30}}?{_AMOUNT}|"
        r"\b(?:au plus tard|pas plus de|ne (?:doit|peut) pas dépasser|ne dépasse pas|"
        r"en dessous de|doit rester (?:sous|en dessous|inférieur))\b",
        matches=("Trois appels au maximum par minute.", "Le lot ne doit pas dépasser 50 Mo.",
                 "Au minimum 2 relecteurs par demande de fusion."),
        misses=("Le serveur a 16 Go.", "Il faut profiter au maximum de la journée.",
                "On veut automatiser au plus le déploiement."),
    ),
    Rule(
        "only-and-language-fr",
        "rule",
        r"\b(?:utilise|prends|écris|écrivez|utilisez) (?:uniquement|seulement)\b|"
        r"\b(?:uniquement|seulement) (?:en|avec|des?|le|la|les|sur|via)\b|"
        r"\b(?:réponds|répondez|écris|écrivez|parle)(?:-moi)? (?:toujours |uniquement )?en "
        r"(?:français|anglais|allemand|espagnol)\b|\bje (?:préfère|préférerais)\b|"
        r"\bde préférence\b",
        matches=("Réponds en français.", "Uniquement avec la lib standard.", "Je préfère Vitest."),
        misses=("Je parle un peu anglais.",),
    ),
    Rule(
        "said-of-oneself-fr",
        "not-rule",
        r"(?:\bje\s+|\bj['’]|\bon\s+|\bnous\s+|\bil\s+|\belle\s+|\bils\s+|\bça\s+|\bce\s+|"
        r"\best\s+)(?:ne\s+|n['’])?\s*(?:\w+\s+){0,2}(?P<cue>jamais|toujours)\b",
        matches=("Je n'ai jamais compris ce module.", "Ça plante toujours."),
        misses=("Ne touche jamais au schéma.",),
    ),
    Rule(
        "correction-fr",
        "correction",
        r"\b(?:en fait|finalement|pardon|désolé|correction|je me suis trompé|plutôt|au final|"
        r"maintenant c['’]est)\b",
        matches=("En fait, c'est le port 8081.", "Finalement on sera 14."),
        misses=("C'est le port 8081.",),
    ),
    Rule(
        "old-value-fr",
        "old-marker",
        r"(?:\bpas|\bau lieu d(?:e|u|es)|\bà la place d(?:e|u|es)|\bet non|\bplutôt que)"
        r"\s*(?:le |la |les |l['’])?$",
        matches=("c'est 8081, pas ", "Redis au lieu de "),
        misses=("c'est ",),
    ),
    Rule(
        "moved-to-fr",
        "update",
        r"\b(?:déplacé|décalé|reporté|avancé|repoussé|changé|passé|passons|modifié|"
        r"déplace|décale|change)\b[^.!?\n]{0,30}?\b(?:à|au|en|pour|vers)\b|"
        r"\bau lieu d(?:e|u|es)\b|\bà la place d(?:e|u|es)\b|\ben fait\b|\bfinalement\b|"
        r"\bcorrection\b|\bplutôt que\b|\brenomme[rz]?\b",
        matches=("On a décalé la démo à jeudi.", "Redis au lieu de Memcached."),
        misses=("La démo est jeudi.",),
    ),
    Rule(
        "instead-of-fr",
        "replace",
        rf"(?P<new>{_TOKEN})\s+(?:au lieu|à la place) d(?:e |u |es |['’])\s*(?:la |le |l['’])?"
        rf"(?P<old>{_TOKEN})",
        matches=("Prends Redis au lieu de Memcached.",),
        misses=("Prends Redis.",),
    ),
    Rule(
        "new-rather-than-old-fr",
        "substitute",
        rf"(?P<new>{_TOKEN})\s+plutôt que\s+(?:le |la |les |l['’]|d['’]|de )?(?P<old>{_TOKEN})|"
        rf"\bau lieu d(?:e |u |es |['’])\s*(?P<old2>{_TOKEN}),?\s+(?:utilise|prends|mets|"
        rf"appelle-le|appelle-la|nomme-le|nomme-la)\s+(?:le |la |l['’])?(?P<new2>{_TOKEN})|"
        rf"\b(?:utilise|prends|mets)\s+(?:le |la |l['’])?(?P<new3>{_TOKEN})\s+(?:au lieu|à la "
        rf"place) d(?:e |u |es |['’])\s*(?:la |le |l['’])?(?P<old3>{_TOKEN})",
        matches=("Prends pnpm plutôt que npm.", "Au lieu de tmp_a, appelle-le final_a.",
                 "Utilise pnpm au lieu de npm."),
        misses=("Plutôt que d'attendre, fais-le.",),
    ),
    Rule(
        "rename-old-to-new-fr",
        "substitute",
        rf"\brenomme[rz]?\s+(?:le |la |les |l['’])?(?:\w+\s+)?(?P<old>{_TOKEN})\s+en\s+"
        rf"(?P<new>{_TOKEN})",
        matches=("Renomme le dossier out_a en out_b.",),
        misses=("Renomme-le plus tard.",),
    ),
    Rule(
        "not-old-but-new-fr",
        "replace",
        rf"\b(?:ce n['’]est )?pas\s+(?:le |la |les |l['’])?(?P<old>{_TOKEN}),?\s+mais\s+"
        rf"(?:le |la |les |l['’])?(?P<new>{_TOKEN})",
        matches=("Pas mardi, mais jeudi.",),
        misses=("Pas mardi.",),
    ),
    Rule(
        "new-not-old-fr",
        "replace",
        rf"(?P<new>{_TOKEN}),\s+(?:et\s+non|pas)\s+(?:le |la )?(?P<old>{_TOKEN})",
        matches=("Le port est 5433, pas 5432.",),
        misses=("Le port est 5433.",),
    ),
    Rule(
        "stays-fr",
        "keep",
        r"\b(?:reste (?:le même|la même|inchangée?|pareil|comme avant)|ne change pas|inchangée?|"
        r"on garde)\b",
        matches=("La date de retour reste la même.",),
        misses=("La date change.",),
    ),
    Rule(
        "no-fr",
        "no",
        r"^(?:non|pas maintenant|pas encore|laisse tomber|surtout pas)(?!\w)",
        matches=("Non, laisse comme ça.", "pas maintenant"),
        misses=("Nous verrons.",),
    ),
    Rule(
        "yes-fr",
        "yes",
        r"^(?:vas-y|allez-y|ça marche|c['’]est bon|parfait|volontiers|bien sûr|entendu)(?!\w)",
        matches=("Vas-y.", "C'est bon pour moi."),
        misses=("Ça ne marche pas.",),
    ),
    Rule(
        "proposal-fr",
        "proposal",
        r"\b(?:je (?:te |vous )?(?:propose|suggère|recommande)|veux-tu que|voulez-vous que|"
        r"tu veux que|souhaitez-vous que|on pourrait)\b",
        matches=("Je propose de déplacer la logique.", "Tu veux que je le fasse ?"),
        misses=("J'ai déplacé la logique.",),
    ),
    Rule(
        "still-to-do-fr",
        "pending",
        r"\b(?:il reste à|il reste encore|il faut encore|reste à faire|encore à faire|prochaine "
        r"étape|étape suivante|pas encore (?:fait|terminé|implémenté|testé))\b",
        matches=("Il reste à tester le login.", "Prochaine étape : le déploiement."),
        misses=("Tout est testé.",),
    ),
    Rule(
        "request-fr",
        "request",
        # a question to the agent, an imperative at the start, or a wish about its work
        r"^(?:(?:ok|bon|alors|et|aussi|ensuite|maintenant|bien)[,.!:]?\s+)*"
        r"(?:peux-tu|pourrais-tu|tu peux|tu pourrais|est-ce que tu (?:peux|pourrais)|pouvez-vous|"
        r"pourriez-vous|merci de|il faut que tu|je (?:veux|voudrais) que|"
        r"j['’]aimerais (?:que|bien)|"
        # (the accents are optional: people type "cree", "enleve", "deplace")
        r"fais|fais-moi|cr[ée]e|ajoute|corrige|r[ée]pare|v[ée]rifie|regarde|change|modifie|"
        r"supprime|enl[èe]ve|retire|d[ée]place|mets|[ée]cris|impl[ée]mente|migre|lance|teste|"
        r"explique|montre|cherche|configure|installe|g[ée]n[èe]re|aide-moi|nettoie|renomme|"
        r"efface|applique|relance|refais|remets|utilise|adapte|termine|je veux|j['’]aimerais|"
        # "let's …": the first person plural that proposes the next piece of work
        r"faisons|commençons|commencons|passons|continuons|essayons|allons-y|reprenons|"
        r"ajoutons|changeons|voyons|testons|on passe à|on passe a)\b|"
        r"\bs['’]il (?:te|vous) pla[iî]t\b|"
        r"\bstp\b|\bsvp\b",
        matches=("Tu peux jeter un œil au cron ?", "Retire la bannière de l'accueil.",
                 "Je voudrais que le rapport sorte en PDF.",
                 "Bon, passons aux tests d'intégration.",
                 "Essayons avec la version 2 du SDK.", "Applique la migration sur la base de test.",
                 "enleve le lien du footer"),
        misses=("L'accueil n'a plus de bannière.", "Le rapport sort en PDF."),
    ),
    Rule(
        "keep-it-so-fr",
        "rule",
        # a polite order to keep things as they are ("merci de garder …"), the impersonal
        # "on ne touche pas à …", a step before every point of the work ("avant chaque push")
        r"\bmerci de (?:ne (?:pas|jamais)|garder|conserver|laisser|rester|toujours|continuer à)\b|"
        r"(?:^|[,:;]\s*)on ne (?!(?:sait|comprend|voit|trouve|peut|connaît)\b)[a-zàâçéèêëîïôûù]+"
        r"\s+(?:pas|jamais|rien|plus)\b|\bavant (?:chaque|tout)\b|\bà chaque fois que\b",
        matches=("Merci de laisser les migrations telles quelles.",
                 "Bon, on ne supprime rien dans ce dossier.", "Lance les tests avant chaque push."),
        misses=("On ne sait pas pourquoi ça plante.", "Merci de ta réponse."),
    ),
    Rule(
        "reports-done-fr",
        "done",
        r"(?:\bj'|\bj’|\bnous\s+|\bon\s+)(?:ai|avons|a)\s+(?:(?:déjà|aussi|bien)\s+)?"
        r"[a-zàâçéèêëîïôûù]{2,}(?:é|i|is|it|u)(?:e|s|es)?\b|"
        r"\b(?:a|ont) été\s+[a-zàâçéèêëîïôûù]{3,}(?:é|i)(?:e|s|es)?\b|\b(?:avec succès|terminé)\b",
        matches=("J'ai ajouté le module réseau.", "Le fichier a été supprimé.",
                 "Le déploiement est terminé."),
        misses=("Je vais ajouter le module.", "Tu veux que j'ajoute le module ?"),
    ),
    Rule(
        "user-choice-fr",
        "choice",
        r"\boption\s+[a-z0-9]\b|\b(?:on part sur|on garde|prenons|utilisons|choisissons)\b|"
        r"\bon va (?:aussi |plutôt )?(?:l[ae]\s|l'|les\s)?"
        r"(?:utiliser|prendre|partir|cr[ée]er|garder)\b",
        matches=("On part sur Postgres.", "La base, on va la créer avec Terraform."),
        misses=("Quelle option tu conseilles ?", "J'ai lu les options."),
    ),
    Rule(
        "says-broken-fr",
        "broken",
        r"\bne (?:marche|fonctionne|s'affiche|démarre|charge) (?:pas|plus)\b|"
        r"\btoujours (?:une |la même )?erreur\b|\bj'ai (?:une|encore une) erreur\b",
        matches=("Le déploiement ne marche pas.", "J'ai encore une erreur au démarrage."),
        misses=("Tout fonctionne maintenant.", "Ne change pas le port."),
    ),
    Rule(
        "plans-next-fr",
        "plan",
        r"^\W*(?:(?:maintenant|d'abord|ensuite|bon|alors)[,:]?\s+)*"
        r"(?:je vais|je dois|il faut que je|nous allons|on va|laisse-moi)\b",
        matches=("Je vais supprimer le fichier qui a été généré.",
                 "Ensuite, on va relancer le plan."),
        misses=("J'ai supprimé le fichier.", "Le fichier a été supprimé, je vais vérifier."),
    ),
)  # fmt: skip
