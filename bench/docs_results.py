"""Run the benches whose tables the documentation shows, so they write their results files.

    python -m bench.docs_results            # the quick benches (minutes on 2 cores)
    python -m bench.docs_results --all      # also the long ones (USPS, servers, browsers)
    python -m bench.docs_results --list     # what each runs

Each bench saves the table it prints with :func:`bench.results.save` into
``docs/benchmarks/results/``; ``python -m mkdocs build`` then renders every file
there (``docs/macros.py``).  The benches run one after another, each in its own
process, with this interpreter; a bench that fails is reported and the others still run.
The long ones need the USPS digits (``KPCA_USPS_DIR``) and, for those that drive a
browser, Debian's Chromium.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

QUICK: list[list[str]] = [
    ["bench/contours.py"],
    ["bench/features_toy.py"],
    ["bench/denoise_gaussians.py"],
    ["bench/engine.py", "--kernels"],
    ["bench/engine.py", "--solvers"],
    ["bench/spectrum.py"],
    ["bench/engine.py"],
]
"""Benches of a minute or two each, in one process."""
LONG: list[list[str]] = [
    ["bench/denoise_usps.py", "--no-speed"],
    ["bench/live_abandon.py"],
    ["bench/ui_latency.py", "--drag"],
    ["bench/load_test.py", "--lecture"],
    ["bench/load_test.py", "--capacity"],
    ["bench/ui_latency.py", "--order", "alternate", "--views", "contours", "--repeats", "30"],
    *(
        ["bench/ui_latency.py", "--order", order, "--views", "contours", "--repeats", "30", *dwell]
        for order in ("track", "kernel", "preset")
        for dwell in ([], ["--dwell", "100"])
    ),
    ["bench/engine_sweep.py"],
    ["bench/cost_model.py"],
    ["bench/slow_body.py"],
    ["bench/class_load.py", "--flood"],
]
"""Benches of many minutes: the USPS experiments, served apps, browsers."""


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--all", action="store_true", help="the long benches too")
    parser.add_argument("--list", action="store_true", help="print the commands and stop")
    args = parser.parse_args(argv)
    benches = QUICK + (LONG if args.all else [])
    if args.list:
        for bench in QUICK + LONG:
            print(("" if bench in QUICK else "--all: ") + "python " + " ".join(bench))
        return 0
    failed = []
    for bench in benches:
        print(f"+ python {' '.join(bench)}", flush=True)
        start = time.perf_counter()
        if subprocess.run([sys.executable, *bench], cwd=ROOT, check=False).returncode:
            failed.append(" ".join(bench))
        print(f"  ({time.perf_counter() - start:.0f} s)", flush=True)
    for bench in failed:
        print(f"failed: {bench}", file=sys.stderr)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
