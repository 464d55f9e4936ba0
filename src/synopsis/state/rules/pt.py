"""Portuguese extraction rules (see :mod:`synopsis.state.rules`). Patterns see lower case."""

from __future__ import annotations

from synopsis.state.rules import Rule

_NEG_VERBS = (
    r"mexa|mexe|toque|toca|apague|apaga|use|usa|faça|faz|altere|altera|mude|muda|suba|sobe|"
    r"instale|instala|adicione|adiciona|remova|remove|delete|deleta|rode|roda|execute|commite|"
    r"comite|crie|cria|modifique|modifica|edite|edita|coloque|coloca|envie|manda|esqueça|"
    r"invente|reescreva|renomeie|mova|force"
)

_ENGLISH = {"use", "remove", "delete", "execute", "force", "manda", "invente"}
_PT_VERBS = "|".join(v for v in _NEG_VERBS.split("|") if v not in _ENGLISH)
"""The verbs as a word of the language (not those English writes the same)."""
DETECT = (
    rf"\b(?:{_PT_VERBS}|suba|rode|funcionou|assim|os|um|uma|da|dos|das|que|para|com|não|é|são|está|estão|mas|muito|mais|também|"
    r"porque|quando|onde|você|vc|pode|quero|preciso|arquivo|obrigado|obrigada|"
    r"valeu|sim|isso|esse|essa|este|esta|na|nos|nas|ao|aos|pra|pro|já|só|deve|faça|mexa|"
    r"use|mude|troca|troque|agora|ainda|melhor|pergunte|pelo|pela|beleza|bora|fechado|certo|em|prefiro|somos|vez|continua|igual|"
    r"uns|umas|ele|ela|eles|elas|eu|seu|sua|meu|minha|nosso|nossa|tem|foi|vai|vou|depois|sem|até|"
    r"mesmo|aqui|tudo|nada|novo|nova|dois|duas|três|dez|ou|qual|quem)\b|"
    r"[ãõçâêôáéíóú]"
)
"""Portuguese words that English does not use (and ã, õ, ç …): the records apply where one is."""

_TOKEN = r"[^\s,.;:!?]+"
_START = r"(?:^|[,;:]\s*|\be\s+|\bmas\s+|por favor,?\s+)"
_AMOUNT = (
    r"(?:\d|\b(?:um|uma|dois|duas|três|quatro|cinco|seis|"
    r"sete|oito|nove|dez|vinte|trinta|cem|mil)\b)"
)
_BOUND = r"(?:no máximo|máximo|no mínimo|mínimo|pelo menos|menos de)"
"""A bound on an amount: a limit only with the amount said next to it (:data:`_AMOUNT`)."""

RULES: tuple[Rule, ...] = (
    Rule(
        "obligation-on-a-thing-pt",
        "requirement",
        # "o botão deve …": said of the thing being built, not "você deve …"
        r"\b(?!(?:você|vocês|voce|tu|nós|eu|também|sempre|nunca|e|mas)\b)[^\W\d_]+\s+"
        r"(?P<cue>deve|devem|deveria|deveriam|tem que|têm que)\b",
        matches=("O relatório deve abrir em PDF.", "As colunas da tabela devem ter largura fixa."),
        misses=("Você deve pedir antes.", "Nunca apague a tabela."),
    ),
    Rule(
        "never-always-pt",
        "rule",
        rf"{_START}(?:nunca|jamais|sempre)\b|\b(?:você (?:deve|precisa|tem que)|tem que|deve|"
        r"é obrigatório|é proibido|proibido|certifique-se|garanta|evite|não pode|não deve)\b",
        matches=("Nunca suba o .env.", "Sempre rode o lint antes.",
                 "É proibido mexer em produção."),
        misses=("O servidor sempre demora.", "Isso funciona."),
    ),
    Rule(
        "dont-pt",
        "rule",
        rf"{_START}não\s+(?:(?:me|te|o|a|os|as|lhe|se)\s+)?(?:{_NEG_VERBS})\b|"
        r"\bsem (?:me perguntar|perguntar|minha (?:aprovação|permissão)|me avisar)\b",
        matches=("Por favor, não mexa no checkout.", "E não apague nada sem me avisar."),
        misses=("Não sei o que houve.", "Não funciona."),
    ),
    Rule(
        "ask-first-pt",
        "rule",
        r"\b(?:me pergunte|pergunte-me|me pergunta|me consulte|me avise antes|pede minha "
        r"(?:aprovação|permissão)|peça (?:minha )?(?:aprovação|permissão))\b",
        matches=("Me pergunte antes de rodar a migração.",),
        misses=("Ele me perguntou do deploy.",),
    ),
    Rule(
        "limit-pt",
        "rule",
        # "máximo", "pelo menos" limit an amount said next to them; alone they say "the most"
        rf"{_AMOUNT}[^.!?\n]{{0,30}}?\b{_BOUND}\b|\b{_BOUND}\b[^.!?\n]{{0,30}}?{_AMOUNT}|"
        r"\b(?:não mais (?:de|que)|não pode (?:passar|ultrapassar|exceder)|abaixo de)\b",
        matches=("No máximo 3 tentativas.", "A fatura não pode passar de 200 reais.",
                 "Duas revisões no mínimo antes do merge."),
        misses=("O servidor tem 16 GB.", "Aproveite ao máximo a documentação."),
    ),
    Rule(
        "only-and-language-pt",
        "rule",
        r"\b(?:use|usa|utilize) (?:só|somente|apenas)\b|\b(?:só|somente|apenas) (?:use|usa|"
        r"com|em)\b|"
        r"\b(?:responda|responde|escreva|fale)(?: sempre)? em (?:português|inglês|espanhol)\b|"
        r"\bprefiro\b",
        matches=("Responda em português.", "Use só a biblioteca padrão.", "Prefiro Vitest."),
        misses=("Falei com ele ontem.",),
    ),
    Rule(
        "never-seen-pt",
        "not-rule",
        r"(?P<cue>nunca|sempre|jamais) (?:(?:me|te|se|o|a|lhe)\s+)?(?:vi|tinha|teve|tive|foi|fui|"
        r"houve|ouvi|usei|fiz|aconteceu|deu|funcionou)\b",
        matches=("Nunca vi esse erro.", "Sempre funcionou assim."),
        misses=("Nunca suba o .env.",),
    ),
    Rule(
        "correction-pt",
        "correction",
        r"\b(?:na verdade|aliás|desculp[ae]|correção|me enganei|errei|agora é|agora são|mudei)\b",
        matches=("Na verdade, o prazo é dia 20.", "Aliás, somos 9."),
        misses=("O prazo é dia 20.",),
    ),
    Rule(
        "old-value-pt",
        "old-marker",
        r"(?:\bnão|\bem vez d[eoa]|\bao invés d[eoa]|\bno lugar d[eoa]|\be não)\s+(?:o |a |"
        r"os |as )?$",
        matches=("a porta é 9000, não ", "Vitest em vez do "),
        misses=("a porta é ",),
    ),
    Rule(
        "changed-to-pt",
        "update",
        r"\b(?:mud(?:ei|amos|ou|ado|ar|e|a)|troc(?:ei|amos|ou|ado|ar|a|e)|pass(?:amos|ou)|"
        r"move(?:mos|u)|adiad[oa]|antecipad[oa]|atualiz(?:ei|amos|ado))\b[^.!?\n]{0,30}?"
        r"\b(?:para|pra|pelo|pela|por|em)\b|\bem vez d[eoa]\b|\bao invés d[eoa]\b|"
        r"\bna verdade\b|\bcorreção\b",
        matches=("Mudamos a reunião para quinta.", "Use Vitest em vez do Jest."),
        misses=("A reunião é quinta.",),
    ),
    Rule(
        "swap-old-for-new-pt",
        "replace",
        rf"\btroc(?:a|e|amos|ar)\s+(?:o |a |os |as )?(?P<old>{_TOKEN})\s+(?:pelo|pela|por)\s+"
        rf"(?P<new>{_TOKEN})",
        matches=("Troca o Jest pelo Vitest.",),
        misses=("Troca isso depois.",),
    ),
    Rule(
        "instead-of-pt",
        "replace",
        rf"(?P<new>{_TOKEN})\s+(?:em vez|ao invés|no lugar)\s+d[eoa]\s+(?P<old>{_TOKEN})",
        matches=("Use Vitest em vez de Jest.",),
        misses=("Use Vitest.",),
    ),
    Rule(
        "new-not-old-pt",
        "replace",
        rf"(?P<new>{_TOKEN}),\s+(?:e\s+)?não\s+(?:o |a )?(?P<old>{_TOKEN})",
        matches=("A porta é 5433, não 5432.",),
        misses=("A porta é 5433.",),
    ),
    Rule(
        "stays-pt",
        "keep",
        r"\b(?:continua (?:igual|o mesmo|a mesma|como está)|fica (?:igual|como está)|não muda|"
        r"mantém|mantenha|sem mudança)\b",
        matches=("A data de volta continua igual.",),
        misses=("A data muda.",),
    ),
    Rule(
        "no-pt",
        "no",
        r"^(?:não|nao|agora não|ainda não|deixa pra lá|melhor não)(?!\w)",
        matches=("Não, deixa assim.", "melhor não"),
        misses=("Nada disso importa.",),
    ),
    Rule(
        "yes-pt",
        "yes",
        r"^(?:pode|pode sim|manda ver|bora|beleza|fechado|certo|isso|perfeito|faz isso)(?!\w)",
        matches=("Pode sim.", "Beleza, manda ver."),
        misses=("Poderia explicar?",),
    ),
    Rule(
        "proposal-pt",
        "proposal",
        r"\b(?:sugiro|recomendo|proponho|quer que eu|você quer que|deseja que eu|o ideal seria|"
        r"que tal)\b",
        matches=("Sugiro mover a lógica para um hook.", "Quer que eu faça isso?"),
        misses=("Movi a lógica.",),
    ),
    Rule(
        "still-to-do-pt",
        "pending",
        r"\b(?:ainda (?:falta|faltam|precisa|precisamos|preciso|tenho que|temos que)|"
        r"falta(?:m)? (?:ainda|fazer|testar|implementar)|próximo passo|pendente)\b",
        matches=("Ainda falta testar o login.", "O próximo passo é o deploy."),
        misses=("Tudo testado.",),
    ),
    Rule(
        "request-pt",
        "request",
        # a question to the agent, an imperative at the start, or a wish about its work
        r"^(?:(?:ok|beleza|então|e|agora|também|depois|bom)[,.!:]?\s+)*"
        r"(?:(?:você|voce|vc) (?:pode|poderia|consegue)|pode|podes|poderia|consegue|preciso que|"
        r"quero que|gostaria (?:que|de)|faça|faz|crie|cria|adicione|adiciona|corrija|corrige|"
        r"conserte|arrume|arruma|verifique|verifica|olhe|olha|veja|mude|muda|altere|remova|"
        r"tire|tira|apague|apaga|mova|coloque|coloca|escreva|escreve|implemente|atualize|migre|"
        r"rode|roda|execute|teste|testa|explique|explica|mostre|mostra|procure|configure|"
        r"instale|gere|me ajude|limpe|renomeie|quero|"
        # "let's …": the first person plural that proposes the next piece of work
        r"vamos|façamos|facamos|bora|comecemos|continuemos|sigamos|voltemos|testemos)\b|"
        r"\bpor favor\b|\bpfv\b",
        matches=("Consegue dar uma olhada no cron?", "Tira o banner da página inicial.",
                 "Quero que o relatório saia em PDF.", "Agora vamos para a tela de cadastro.",
                 "Bora subir isso pro Vercel."),
        misses=("A página inicial não tem mais banner.", "O relatório sai em PDF."),
    ),
    Rule(
        "narrated-always-never-pt",
        "not-rule",
        # "sempre"/"nunca" with a past tense ("sempre achei", "nunca funcionou"): a description
        r"\b(?P<cue>sempre|nunca|jamais)\s+(?:(?:me|te|se|lhe|nos|o|a)\s+)?(?:foi|era|tive|teve|"
        r"fiz|fez|[a-zãõáéíóúç]+(?:ei|ou|eu|iu|ava|ado|ido))\b",
        matches=("Sempre odiei esse arquivo de configuração.", "Isso nunca funcionou no Mac."),
        misses=("Nunca faça push direto na main.", "Sempre use pnpm."),
    ),
    Rule(
        "idiomatic-order-pt",
        "rule",
        # "tem que", "deixa … quieto", a step at every point of the work ("antes de cada push")
        r"\b(?:tem|têm|temos) que\b|\bdeix[ae]\b[^.!?\n]{1,40}?\b(?:quieto|quieta|quietos|"
        r"em paz|como está|do jeito que está)\b|\b(?:antes|depois) de cada\b|\btoda vez que\b",
        matches=("As mensagens têm que estar em português.", "Deixe a pasta legacy em paz.",
                 "Rode os testes antes de cada deploy."),
        misses=("Ele deixou o arquivo na pasta.", "Temos três ambientes."),
    ),
    Rule(
        "reports-done-pt",
        "done",
        r"\b(?:criei|adicionei|removi|corrigi|atualizei|alterei|fiz|movi|apaguei|configurei|"
        r"implementei|substituí|instalei|reverti|escrevi)\b|"
        r"\b(?:está|estão)\s+(?:agora\s+)?(?:pront[oa]s?|funcionando|configurad[oa]s?)\b",
        matches=("Corrigi o arquivo de configuração.", "O servidor está funcionando."),
        misses=("Vou corrigir o arquivo.", "Quer que eu corrija o arquivo?"),
    ),
    Rule(
        "user-choice-pt",
        "choice",
        r"\bopção\s+[a-z0-9]\b|\b(?:vamos com|escolho|fico com|usemos)\b",
        matches=("Vamos com a opção 2.", "Fico com o Postgres."),
        misses=("Qual opção você recomenda?", "Li as opções."),
    ),
    Rule(
        "plans-next-pt",
        "plan",
        r"^\W*(?:(?:agora|primeiro|depois|então)[,:]?\s+)*"
        r"(?:vou|vamos|preciso|tenho que|deixe-me)\b",
        matches=("Vou apagar o cache que foi gerado.", "Agora preciso revisar o índice."),
        misses=("Apaguei o cache.", "O cache foi apagado; vou revisar."),
    ),
)  # fmt: skip
