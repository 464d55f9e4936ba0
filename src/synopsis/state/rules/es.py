"""Spanish extraction rules (see :mod:`synopsis.state.rules`). Patterns see lower case."""

from __future__ import annotations

from synopsis.state.rules import Rule

_NEG_VERBS = (
    r"toques|borres|uses|utilices|hagas|cambies|modifiques|subas|instales|añadas|agregues|"
    r"elimines|ejecutes|pongas|metas|edites|crees|publiques|despliegues|reescribas|"
    r"renombres|muevas|inventes|asumas|actualices|mezcles|fusiones|envíes|expongas"
)
_ES_VERBS = "|".join(v for v in _NEG_VERBS.split("|") if v not in {"uses", "metas"})
"""The verbs as a word of the language (not those English writes the same)."""
DETECT = (
    rf"\b(?:{_ES_VERBS}|la|de|es|se|te|al|un|sino|somos|prefiero|sin|lo|ya|así|bien|qué|cómo|hola|este|esta|ese|esa|el|los|las|una|del|que|por|para|con|como|pero|está|están|esto|eso|hay|muy|más|"
    r"también|porque|cuando|donde|nada|puedes|quiero|necesito|usa|mejor|ahora|"
    r"aquí|archivo|rama|favor|gracias|sí|vale|pregúntame|debes|tienes|hacer|toques|renombra|"
    r"renombrar)\b|[ñ¿¡]"
)
"""Spanish words that English does not use (and ñ, ¿, ¡): the records apply where one is."""

_TOKEN = r"[^\s,.;:!?]+"

_AMOUNT = (
    r"(?:\d|\b(?:un|una|dos|tres|cuatro|cinco|seis|"
    r"siete|ocho|nueve|diez|veinte|treinta|cien|mil)\b)"
)
_BOUND = r"(?:como (?:máximo|mucho|mínimo)|máximo|mínimo|menos de|al menos)"
"""A bound on an amount: a limit only with the amount said next to it (:data:`_AMOUNT`)."""

RULES: tuple[Rule, ...] = (
    Rule(
        "never-always-es",
        "rule",
        r"(?:^|[,;:]\s*|\by\s+|\bpero\s+|por favor,?\s+)(?:nunca|jamás|siempre)\b|"
        r"\b(?:tienes que|debes|hay que|es obligatorio|está prohibido|prohibido|no se puede|"
        r"no puedes|no debes|asegúrate de|evita|procura)\b",
        matches=("Siempre responde en español.", "Nunca subas el .env.", "Debes usar pnpm.",
                 "Está prohibido tocar la base de datos de producción."),
        misses=("El build siempre tarda un poco.", "Puedes mirar el log?"),
    ),
    Rule(
        "dont-do-es",
        "rule",
        rf"\bno\s+(?:(?:me|te|lo|la|los|las|le|les|se)\s+)?(?:{_NEG_VERBS})\b|\bsin (?:preguntar|"
        r"avisar|consultar|permiso)\b",
        matches=("Por favor, no toques la carpeta legacy.", "Y no lo borres sin preguntar."),
        misses=("No sé qué pasa con el build.", "No funciona."),
    ),
    Rule(
        "ask-first-es",
        "rule",
        r"\bpregúnta(?:me|nos)\b|\bconsúlta(?:me|lo conmigo)\b|\bpídeme (?:permiso|confirmación)\b|"
        r"\bantes de [^.!?\n]{1,60}?\b(?:avísame|confírmame|pregúntame)\b",
        matches=("Pregúntame antes de hacer push.",),
        misses=("Me preguntó por el deploy.",),
    ),
    Rule(
        "limit-es",
        "rule",
        # "máximo", "al menos" limit an amount said next to them; alone they say "the most"
        rf"{_AMOUNT}[^.!?\n]{{0,30}}?\b{_BOUND}\b|\b{_BOUND}\b[^.!?\n]{{0,30}}?{_AMOUNT}|"
        r"\b(?:no más de|no (?:debe|puede) (?:superar|pasar(?: de)?|exceder)|sin pasar(?:se)? de|"
        r"por debajo de|que no (?:supere|pase de|exceda))\b",
        matches=("El tiempo de respuesta, como máximo 200 ms.", "Que no supere los 50 euros.",
                 "Dos reintentos como mucho."),
        misses=("El servidor tiene 32 GB de memoria.", "Aprovecha al máximo la caché."),
    ),
    Rule(
        "only-and-language-es",
        "rule",
        r"(?:^|\s)(?:usa|utiliza|escribe|haz) (?:solo|sólo|solamente|únicamente)\b|"
        r"\b(?:solo|sólo|solamente|únicamente) (?:usa|utiliza|con|en|se puede)\b|"
        r"\b(?:responde|contesta|escribe|háblame)(?:me)? (?:siempre )?en (?:español|inglés|"
        r"castellano|catalán|francés|alemán)\b|\bprefiero\b|\bmejor (?:no|que no)\b",
        matches=("Responde en español, por favor.", "Usa solo la librería estándar.",
                 "Prefiero tabs a espacios."),
        misses=("Solo quería saludar.",),
    ),
    Rule(
        "never-seen-es",
        "not-rule",
        r"(?P<cue>nunca|jamás|siempre) (?:(?:lo|la|me|te|se|le)\s+)?(?:he|había|has|ha|hemos|"
        r"habían|han|hubo|fue|he visto|supe|entendí)\b",
        matches=("Nunca había visto este error.", "Siempre ha funcionado así."),
        misses=("Nunca subas el .env.",),
    ),
    Rule(
        "correction-es",
        "correction",
        r"\b(?:en realidad|de hecho|perdón|perdona|me equivoqué|corrección|corrijo|mejor dicho|"
        r"al final|ahora es|ahora son|cambia(?:lo)? a|cámbialo|mejor)\b",
        matches=("Perdón, el puerto es 8081.", "Al final somos 12."),
        misses=("El puerto es 8081.",),
    ),
    Rule(
        "old-value-es",
        "old-marker",
        r"(?:\bno|\ben (?:lugar|vez) de|\ben vez del|\ben lugar del|\by no)\s+(?:el |la |"
        r"los |las )?$",
        matches=("el puerto es 8081, no ", "usa Postgres en lugar de "),
        misses=("el puerto es ",),
    ),
    Rule(
        "changed-to-es",
        "update",
        r"\b(?:cambia(?:mos|do|lo|ron)?|cámbialo|cambió|pasa(?:mos|ron)?|pasó|movimos|movieron|"
        r"movió|mueve|pospuso|adelantó|retrasó|"
        r"movido|pospuesto|pospusieron|adelantado|adelantaron|retrasado|retrasaron|"
        r"actualiza(?:do)?)\s+(?:[^.!?\n]{0,30}?\s)?(?:a|al|para|hasta)\b|"
        r"\ben (?:lugar|vez) de\b|\bal final\b|\ben realidad\b|\bcorrección\b|\bperdón\b|"
        r"\bcambio de planes\b|\bmejor dicho\b|\bcorrijo\b|\brenombra\w*|\bcambia el nombre\b",
        matches=("Cambiamos la reunión al jueves.", "Usa Postgres en lugar de MySQL.",
                 "Nos pospusieron la entrega hasta el lunes."),
        misses=("La reunión es el jueves.",),
    ),
    Rule(
        "instead-of-es",
        "replace",
        rf"(?:usa|utiliza|pon|elige)?\s*(?P<new>{_TOKEN})\s+en (?:lugar|vez) de\s+(?:el |la )?"
        rf"(?P<old>{_TOKEN})",
        matches=("Usa Postgres en lugar de MySQL.",),
        misses=("Usa Postgres.",),
    ),
    Rule(
        "instead-of-old-use-new-es",
        "substitute",
        rf"\ben (?:lugar|vez) del?\s+(?:la |los |las )?(?P<old>{_TOKEN}),?\s+(?:usa|utiliza|pon|"
        rf"elige|llámalo|llámala|nómbralo|nómbrala)\s+(?:el |la )?(?P<new>{_TOKEN})|"
        rf"\b(?:usa|utiliza|pon|elige)\s+(?:el |la )?(?P<new2>{_TOKEN})\s+en (?:lugar|vez) del?\s+"
        rf"(?:la |los |las )?(?P<old2>{_TOKEN})",
        matches=("En vez de yarn, usa pnpm.", "en lugar de tmp_out llámalo out_final",
                 "Usa pnpm en vez de yarn."),
        misses=("En vez de esperar, hazlo ya.",),
    ),
    Rule(
        "rename-old-to-new-es",
        "substitute",
        rf"\b(?:renombra|renómbra\w*|cambia el nombre de)\s+(?:el |la |los |las )?(?:\w+\s+)?"
        rf"(?P<old>{_TOKEN})\s+(?:a|por|como)\s+(?P<new>{_TOKEN})",
        matches=("Renombra la tabla users_old a users.", "cambia el nombre de build_a por build_b"),
        misses=("Renombra los archivos después.",),
    ),
    Rule(
        "not-old-but-new-es",
        "replace",
        rf"\bno\s+(?:es\s+)?(?:el |la |los |las )?(?P<old>{_TOKEN}),?\s+sino\s+(?:el |"
        rf"la )?(?P<new>{_TOKEN})",
        matches=("No es el martes, sino el jueves.", "no 8080 sino 8081"),
        misses=("No es el martes.",),
    ),
    Rule(
        "new-not-old-es",
        "replace",
        rf"(?P<new>{_TOKEN}),\s+(?:y\s+)?no\s+(?:el |la )?(?P<old>{_TOKEN})",
        matches=("El puerto es 5433, no 5432.",),
        misses=("No es 5433.",),
    ),
    Rule(
        "stays-es",
        "keep",
        r"\b(?:sigue igual|se queda (?:igual|como está)|no cambia|se mantiene|queda igual|"
        r"déjalo como está)\b",
        matches=("La fecha de vuelta se queda igual.",),
        misses=("La fecha cambia.",),
    ),
    Rule(
        "no-es",
        "no",
        r"^(?:no|nop|mejor no|todavía no|déjalo|ni hablar)(?![\w])",
        matches=("No, déjalo así.", "mejor no"),
        misses=("Nada más.",),
    ),
    Rule(
        "proposal-es",
        "proposal",
        r"\b(?:te (?:sugiero|recomiendo|propongo)|sugiero|recomiendo|propongo|¿quieres que|"
        r"quieres que|¿lo hago|puedo (?:hacer|cambiar|añadir)|lo mejor sería|¿te parece)\b",
        matches=("Te sugiero mover la lógica a un hook.", "¿Quieres que lo cambie?"),
        misses=("He movido la lógica.",),
    ),
    Rule(
        "still-to-do-es",
        "pending",
        r"\b(?:todavía|aún) (?:hay que|falta|faltan|queda|quedan|tengo que|tenemos que|"
        r"no (?:he|hemos|está))\b|\b(?:falta|faltan|queda|quedan) por\b|\bel siguiente paso\b|"
        r"\bpróximo paso\b|\bpendiente\b",
        matches=("Todavía falta probar el login.", "El siguiente paso es el deploy."),
        misses=("Ya está todo probado.",),
    ),
    Rule(
        "request-es",
        "request",
        # what a user asks the agent for: a question to it, an imperative at the start of the
        # sentence, or a wish about its work ("necesito que …")
        r"^(?:(?:ok|vale|bueno|ahora|y|también|luego|entonces|porfa|por favor|perfecto|genial|"
        r"listo|dale|bien|excelente|muy bien)[,.!:]?\s+)*"
        r"(?:¿\s*)?(?:(?:me )?(?:puedes|podrías|podrias|pod[eé]s)|necesito que|quiero que|"
        r"me gustaría|"
        r"haz|hazme|crea|añade|agrega|arregla|corrige|revisa|mira|cambia|quita|elimina|borra|"
        r"mueve|pon|escribe|implementa|actualiza|migra|ejecuta|prueba|explica|explícame|dime|"
        r"muestra|busca|configura|instala|genera|ayúdame|limpia|renombra|vamos a)\b|\bpor favor\b|"
        # "let's …" (anywhere: "antes de documentar, volvamos a probar"): the first person
        # plural subjunctive, which only proposes the next piece of work
        r"\b(?:hagamos|hag[aá]moslo|empecemos|comencemos|sigamos|continuemos|volvamos|"
        r"probemos|pasemos|revisemos|cambiemos|arreglemos|agreguemos|añadamos|pongamos|"
        r"quitemos|usemos|creemos|implementemos|terminemos)\b",
        matches=("¿Me puedes mirar el log del worker?", "Quita el banner de la portada.",
                 "Necesito que el informe salga en PDF.", "Bueno, sigamos con el módulo de pagos.",
                 "Vamos a migrar la base a Postgres.",
                 "Antes del deploy, probemos otra vez el login."),
        misses=("La portada ya no tiene banner.", "El informe sale en PDF."),
    ),
    Rule(
        "narrated-always-never-es",
        "not-rule",
        # "siempre"/"nunca" with a verb that tells what happens or happened ("siempre me pasa",
        # "nunca funcionó"): a description, not an order
        r"\b(?P<cue>siempre|nunca|jamás)\s+(?:(?:me|te|se|le|nos|les|lo|la)\s+)?(?:pasa|pasó|"
        r"ocurre|ocurrió|sale|salió|funciona|funcionó|falla|falló|tarda|tardó|fue|era|estaba|"
        r"[a-záéíóúñ]+(?:aba|ía|ió|ó))\b",
        matches=("Con este cliente siempre nos pasa algo raro.", "Nunca funcionó bien en Windows."),
        misses=("Siempre responde en español.", "Nunca subas el .env."),
    ),
    Rule(
        "wish-in-subjunctive-es",
        "rule",
        # how things must be, said as a wish: "que los nombres estén en inglés", "nada de tocar"
        r"^(?:(?:por favor|ojo|eso sí|y)[,:]?\s+)?que\s+(?:[^.!?\n]{1,60}?\s)?(?:esté|estén|sea|"
        r"sean|vaya|vayan|tenga|tengan|lleve|lleven|usen|quede|queden|siga|sigan|salga|"
        r"salgan)\b|"
        r"(?:^|[:,;]\s*)nada de\s+[a-záéíóúñ]+",
        matches=("Ojo, que las fechas vayan siempre en UTC.",
                 "Eso sí: nada de dependencias nuevas."),
        misses=("Creo que las fechas están en UTC.", "No pasa nada de grave."),
    ),
    Rule(
        "each-time-es",
        "rule",
        # a step tied to every time a point of the work comes ("antes de cada push")
        r"\b(?:antes|después) de cada\b|\bcada vez que\b",
        matches=("Pasa el linter antes de cada commit.",),
        misses=("Lo revisé antes de la reunión.",),
    ),
    Rule(
        "reports-done-es",
        "done",
        r"\b(?:he|hemos)\s+(?:(?:ya|también)\s+)?[a-zñáéíóú]{2,}(?:ado|ido|cho|sto|to)\b|"
        r"\b(?:fue|fueron|ha sido|han sido)\s+[a-zñáéíóú]{3,}(?:ad|id)[oa]s?\b|"
        r"\b(?:con éxito|correctamente|completado|listo)\b",
        matches=("He creado la tabla de reservas.", "La migración fue aplicada.",
                 "Ya está listo el esquema."),
        misses=("Voy a crear la tabla.", "¿Quieres que cree la tabla?"),
    ),
    Rule(
        "user-choice-es",
        "choice",
        r"\bopción\s+[a-z0-9]\b|\b(?:hagamos|usemos|vamos con|elegimos|elijo|nos quedamos con)\b",
        matches=("Vamos con la opción B.", "Usemos Tailwind para los estilos."),
        misses=("¿Qué opción recomiendas?", "Leí las opciones."),
    ),
    Rule(
        "says-broken-es",
        "broken",
        r"\bno (?:funciona|sirve|carga|aparece|arranca|veo nada)\b|"
        r"\b(?:sigue|me sale|me da|da) (?:dando )?(?:el mismo |un )?error\b",
        matches=("El formulario no funciona.", "Sigue dando error al guardar."),
        misses=("Ya funciona todo.", "No hace falta cambiarlo."),
    ),
    Rule(
        "plans-next-es",
        "plan",
        r"^\W*(?:(?:ahora|primero|luego|después|bien)[,:]?\s+)*"
        r"(?:voy a|vamos a|necesito|tengo que|debo|déjame|procederé a)\b",
        matches=("Voy a borrar la caché que fue generada ayer.",
                 "Ahora necesito revisar el índice."),
        misses=("He borrado la caché.", "La caché fue borrada; voy a revisarla."),
    ),
    # --- updates: a prohibition and the message that lifts it (updates helper) --------------
    Rule(
        "mistake-or-apology-es",
        "update",
        r"^\W*(?:perd[oó]n|perdona|disculpa|disculpas|lo siento)\b\s*[,.!:;—-]|"
        r"\b(?:me equivoqu[eé]|quise decir|estaba mal|est[aá] mal)\b",
        matches=("Perdón, el puerto es 6432.", "Me equivoqué, la reunión es a las 10."),
        misses=("Perdona la demora y gracias.",),
    ),
    Rule(
        "do-not-act-es",
        "prohibit",
        r"\bno\s+(?P<act>(?:ejecutes|corras|hagas|subas|publiques|despliegues|borres|"
        r"elimines|instales|actualices|reinicies|envíes|fusiones|migres)\b[^.;,!?\n]{0,40})",
        matches=("Todavía no ejecutes la migración.", "no despliegues a producción"),
        misses=("No sé qué pasa.",),
    ),
    Rule(
        "allowed-now-es",
        "lift",
        r"\bahora\b|\bya puedes\b|\badelante\b|\bpuedes\b",
        matches=("Ahora ejecuta la migración.", "Ya puedes desplegar."),
        misses=("Espera un poco.",),
    ),
)  # fmt: skip
