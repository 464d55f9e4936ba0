"""Placeholder filling for the generator's text templates.

Templates hold Python and TypeScript source, where ``{}`` and ``${}`` are everywhere, so
``str.format`` and ``string.Template`` would need escaping on every line. Guillemets never
occur in the generated code, so ``«name»`` is an unambiguous slot marker.
"""

from __future__ import annotations

import re
from collections.abc import Mapping

_SLOT = re.compile("«([a-zA-Z_0-9]+)»")


def fill(template: str, values: Mapping[str, object]) -> str:
    """Replace every ``«name»`` in ``template`` with ``str(values[name])``.

    A missing name raises ``KeyError`` on purpose: a silently unfilled slot would leak
    template syntax into a session that is supposed to look real.
    """
    return _SLOT.sub(lambda m: str(values[m.group(1)]), template)
