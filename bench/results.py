"""Where a bench leaves its table for the documentation.

A bench that documents a result calls :func:`save` with the table it printed;
the documentation's benchmarks page is generated from these files, so the
numbers there are the bench's own output, never prose copied by hand::

    from bench.results import save
    save("engine_sweep", "Ours against scikit-learn's KernelPCA, fit + transform",
         ["points", "inputs", "kernel", "ours (s)", "sklearn (s)", "ratio"], rows,
         note="ratio = scikit-learn's time / ours: above 1 we are faster")

Each call writes ``docs/benchmarks/results/<name>.json`` (or under
``$KPCA_BENCH_RESULTS``): the title, the columns, the rows, the note, the
command that produced it and the machine it ran on (with its load average).
"""

from __future__ import annotations

import json
import os
import platform
import shlex
import sys
from datetime import UTC, datetime
from pathlib import Path

RESULTS = Path(__file__).resolve().parent.parent / "docs" / "benchmarks" / "results"


def save(
    name: str, title: str, columns: list[str], rows: list[list[object]], *, note: str = ""
) -> Path:
    """Write one bench table as JSON for the documentation; return its path.

    Parameters
    ----------
    name : str
        The file's stem, one per table (``engine_sweep``, ``live_abandon``, …).
    title : str
        What the table measures, one line.
    columns : list of str
        The column headings.
    rows : list of list
        One list per row, as many cells as ``columns``; numbers stay numbers.
    note : str, optional
        How to read it (what a ratio divides, what "p95" is of), one sentence.

    Returns
    -------
    pathlib.Path
        The file written.
    """
    if any(len(row) != len(columns) for row in rows):
        raise ValueError(f"{name}: every row needs {len(columns)} cells")
    folder = Path(os.environ.get("KPCA_BENCH_RESULTS", RESULTS))
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"{name}.json"
    record = {
        "title": title,
        "columns": columns,
        "rows": rows,
        "note": note,
        "command": "python " + shlex.join(sys.argv),
        "machine": {
            "cpus": os.cpu_count(),
            "python": platform.python_version(),
            "platform": platform.platform(terse=True),
            # other work on the machine slows a bench: the 1-minute load average at the end
            "load": round(os.getloadavg()[0], 1),
        },
        "date": datetime.now(UTC).date().isoformat(),
    }
    path.write_text(json.dumps(record, indent=1, default=float) + "\n", encoding="utf-8")
    return path
