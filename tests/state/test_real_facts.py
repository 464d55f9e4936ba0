"""Facts as real agent sessions state them: the value in an assistant's answer is kept with
its subject, however far into the reply it comes and in whatever language; a line that
only introduces a list or code is no finding; values that are merely shaped like one (a
link's line anchor, a regex range, a package pinned to a version) are none; and the
handle each of many calls reports ("run_id: …") does not crowd out what matters."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from synopsis.state import _findings, extract_working_state, render_state
from synopsis.state import _patterns as pat
from synopsis.state.guard import pinned_facts
from tests.state.builders import act, call, result, say, user


def findings_of(*replies: str) -> list[str]:
    messages = [user("Please look into why the mails never arrive.")]
    messages += [say(reply) for reply in replies]
    state = extract_working_state(messages)
    return [f.text for f in state.facts if f.source == "assistant"]


def test_the_statement_that_names_the_value_is_the_finding() -> None:
    """The reply opens with courtesy and context; the value comes third."""
    found = findings_of(
        "Thanks for the logs, Priya. I went through the Compose setup in the Backend folder. "
        "The relay container `postfix-out` listens on port `2526`, not on the default one."
    )
    assert any("`2526`" in f and "postfix-out" in f for f in found)


def test_a_german_reply_keeps_the_statement_with_its_value() -> None:
    found = findings_of(
        "Ich habe mir die Konfiguration angesehen. Die Datei liegt im Ordner Backend. "
        "Der Mailserver `smtp-relay` lauscht auf Port `2525`, ohne TLS."
    )
    assert any("`2525`" in f and "smtp-relay" in f for f in found)


def test_a_japanese_reply_keeps_the_statement_with_its_value() -> None:
    """A guard (this held before the ranking too): CJK sentences end at "。"."""
    found = findings_of(
        "SMTP のログを確認しました。DNS の設定も読みました。"
        "送信サーバー `mail-gw` はポート `2587` で待ち受けています。"
    )
    assert any("`2587`" in f for f in found)


def test_a_line_that_introduces_code_is_no_finding() -> None:
    found = findings_of("Update `vite.config.ts` like this:\n\n```ts\nexport default {}\n```")
    assert not any("vite.config.ts" in f for f in found)
    intro = "Change `settings.py` as follows:"
    assert _findings.weight(intro, pat.lower_same(intro)) == 0


def test_a_statement_with_a_value_outranks_one_with_a_name_only() -> None:
    named = "The Billing service was reviewed by Marta."
    valued = "The queue `invoice-retry` holds 340 messages."
    assert _findings.weight(valued, pat.lower_same(valued)) > _findings.weight(
        named, pat.lower_same(named)
    )


def values_in(text: str) -> list[tuple[str, str]]:
    return [(f.kind, f.value) for f in pat.find_identifiers(text)]


def test_a_links_line_anchor_is_no_ticket() -> None:
    assert ("ticket", "L88-97") not in values_in("See [api.py](file:///srv/app/api.py#L88-97).")


def test_a_regex_range_is_no_ticket() -> None:
    assert not any(k == "ticket" for k, _ in values_in("name.replace(/[^a-zA-Z0-9]/g, '_')"))


def test_a_package_pinned_to_a_version_is_a_version_not_an_email() -> None:
    assert values_in("Run npm install left-pad@1.3.0 first.") == [("version", "left-pad@1.3.0")]
    assert ("email", "ops@harbor.dev") in values_in("Write to ops@harbor.dev about it.")


def test_a_real_ticket_is_still_one() -> None:
    assert ("ticket", "OPS-3301") in values_in("This is tracked in OPS-3301.")


def test_the_handle_each_run_reports_gives_way_to_the_users_facts() -> None:
    """Eight runs each report their own run id; nothing refers to them. Under the size
    target the user's own value stays, and only the latest run id keeps its rank."""
    messages = [user("Render the eight map tiles. The output bucket is tiles-eu-2031.")]
    for n in range(8):
        messages += [
            act(call(f"c{n}", "render_tile", tile=n)),
            result(f"c{n}", "render_tile", f"done\nrun_id: run_{n}x7Kq2Lm9Zp4Tw{n}"),
        ]
    state = extract_working_state(messages)
    text = render_state(state, target_chars=600)
    assert "tiles-eu-2031" in text
    assert "run_7x7Kq2Lm9Zp4Tw7" in text
    assert "run_0x7Kq2Lm9Zp4Tw0" not in text


EARLIER = (
    "This chat was continued from an earlier session that hit the context limit. "
    "What happened so far:\n"
    "1. Intent:\n"
    "   - Move the nightly export from cron to the job runner\n"
    "2. What we know:\n"
    "   - The export writes to bucket `exports-nightly-7` in region ap-south-2\n"
    "   - The runner image is pinned to worker 3.14.2\n"
    "   - Never run the export twice in one night\n"
    "   - Thanks for the patience so far\n"
)


def test_a_harness_summary_of_the_earlier_session_carries_its_values() -> None:
    state = extract_working_state([user(EARLIER), say("Picking up from the summary.")])
    carried = [f for f in state.facts if f.written == "harness"]
    texts = " | ".join(f.text for f in carried)
    assert "`exports-nightly-7` in region ap-south-2" in texts
    assert "worker 3.14.2" in texts
    assert "Thanks for the patience" not in texts  # names nothing
    assert "exports-nightly-7" in render_state(state)


def test_a_harness_summary_states_no_rule_and_pins_nothing() -> None:
    state = extract_working_state([user(EARLIER)])
    assert not any("twice in one night" in c.text for c in state.constraints)
    assert all(f.written != "harness" for f in pinned_facts(state))


def test_a_harness_text_that_summarises_nothing_carries_nothing() -> None:
    hook = "Stop hook feedback:\n- Run `make lint` before stopping\n- Commit the 3 changed files"
    state = extract_working_state([user(hook)])
    assert not [f for f in state.facts if f.written == "harness"]


_PIECES = st.sampled_from(
    [
        "The relay `mx-out` listens on port 2526.",
        "Update `app.toml` like this:",
        "Thanks, that helps.",
        "Der Dienst läuft auf Version 4.2.1.",
        "Maybe the Cache is stale?",
        "ログは `/var/log/app` にあります。",
        "- Region: eu-north-1",
        "```\nexport X=1\n```",
    ]
)


@given(st.lists(_PIECES, max_size=8), st.integers(min_value=0, max_value=4))
def test_findings_are_at_most_that_many_statements_of_the_reply_in_its_order(
    pieces: list[str], most: int
) -> None:
    reply = " ".join(pieces)
    found = _findings.findings(reply, most)
    assert len(found) <= most
    at = 0
    for statement in found:  # each one a statement of the reply, after the one before
        at = reply.find(statement, at)
        assert at >= 0
        at += len(statement)
    assert not any(f.endswith((":", "?")) for f in found)


@given(st.lists(_PIECES, max_size=8), st.integers(min_value=0, max_value=4))
def test_carried_items_are_list_items_of_the_summary(pieces: list[str], most: int) -> None:
    summary = "\n".join(f"- {p}" for p in pieces)
    carried = _findings.carried(summary, most)
    assert len(carried) <= most
    assert all(f"- {item}" in summary for item in carried)
