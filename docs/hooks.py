"""MkDocs hooks (``hooks:`` in ``mkdocs.yml``): the repository's pictures, and the API
reference's cross-references.

* Pictures the repository already holds for the README are served by the site too
  (:data:`PICTURES`), not copied into ``docs/``.
* ``kpca_core``'s docstrings cross-reference in Sphinx's roles (``:func:`~kpca_core.x.f```),
  which mkdocstrings renders as they are written; each becomes the name it refers to in
  code type (``f`` for ``~kpca_core.x.f``, as Sphinx shows it).
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
PICTURES = {"img/screenshot.png": ROOT / "assets" / "screenshot.png"}
"""Where a page finds a picture (relative to ``docs/``) and the repository's file it is."""


def on_files(files: Any, config: Any) -> Any:
    """The site's files with :data:`PICTURES` added."""
    from mkdocs.structure.files import File  # only where the site is built

    for uri, path in PICTURES.items():
        files.append(File.generated(config, uri, abs_src_path=str(path)))
    return files


ROLE = re.compile(r":(?:func|class|meth|mod|data|attr|exc|obj):<code>(~?)([^<]*)</code>")


def on_page_content(html: str, **_: Any) -> str:
    """The page's HTML with every Sphinx role shown as the name it names."""
    return ROLE.sub(lambda m: f"<code>{m[2].rsplit('.', 1)[-1] if m[1] else m[2]}</code>", html)
