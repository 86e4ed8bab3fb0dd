"""A MkDocs hook (``hooks:`` in ``mkdocs.yml``) for the API reference.

``kpca_core``'s docstrings cross-reference in Sphinx's roles (``:func:`~kpca_core.x.f```),
which mkdocstrings renders as they are written; each becomes the name it refers to in code
type (``f`` for ``~kpca_core.x.f``, as Sphinx shows it).
"""

from __future__ import annotations

import re
from typing import Any

ROLE = re.compile(r":(?:func|class|meth|mod|data|attr|exc|obj):<code>(~?)([^<]*)</code>")


def on_page_content(html: str, **_: Any) -> str:
    """The page's HTML with every Sphinx role shown as the name it names."""
    return ROLE.sub(lambda m: f"<code>{m[2].rsplit('.', 1)[-1] if m[1] else m[2]}</code>", html)
