#!/usr/bin/env python3
"""Regenerate the table of docs/accuracy.md from one run of accuracy_report.

Usage (from the repository root, on a `ci` build):
    ./build/ci/examples/accuracy_report > build/ci/accuracy_report.txt   # exit status 1 while a row is over its bound
    python3 docs/generate/accuracy.py build/ci/accuracy_report.txt [--build "ci preset, g++ 12.2 -O2"]

It reads the report's table (one row per algorithm, metric and scalar) and its closing verdict (the rows over
their bound), and rewrites what lies between the markers GENERATED_BEGIN and GENERATED_END in docs/accuracy.md:
a line saying which run it came from (commit, machine, build, date), the table with float and double side by side,
and the rows over their bound. Everything outside the markers is prose and is left as it is. Measurement history
lives in git: regenerate, commit, and `git log -p docs/accuracy.md` shows what moved. Standard library only.
"""
import argparse
import datetime
import pathlib
import re
import sys

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
from common import provenance, replace_between  # noqa: E402

PAGE = pathlib.Path(__file__).resolve().parents[1] / "accuracy.md"
BEGIN = "<!-- GENERATED_BEGIN by docs/generate/accuracy.py: do not edit by hand -->"
END = "<!-- GENERATED_END -->"


def bound_formula(algorithm, metric):
    """The bound's form, as the suite states it (tests/accuracy/suite/accuracy.hpp): c·n·ε for backward-type
    errors, c·n·ε·κ_s for forward errors, and one more κ_s for the inertia Λ, the inverse of a computed matrix."""
    if metric in ("tau", "factor", "backward", "scaled backward", "jacobian", "motion", "position", "column", "rate",
                  "entry"):
        return "c·n·ε"
    if metric == "scaled" and algorithm == "crba":
        return "c·n·ε"
    if metric == "derivative" and algorithm.startswith("rnea_derivatives"):
        return "c·n·ε"
    if algorithm in ("osim", "osim_schur"):
        return "c·n·ε·κ_s·κ_s(Λ)"
    return "c·n·ε·κ_s"


def parse(text):
    """(rows, over, verdict): rows {(algorithm, metric): {scalar: (error, on, ratio, ratio_on)}} in report order;
    over: the lines of the failure table; verdict: the report's closing sentence."""
    rows, over, verdict, section = {}, [], "", "table"
    for line in text.splitlines():
        if line.startswith("FAILED:") or line.startswith("All "):
            verdict, section = line.strip(), "over"
            continue
        if not line.startswith("| ") or line.startswith("| ---"):
            continue
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if cells[0] in ("algorithm", "case"):
            continue
        if section == "over":
            over.append(cells)
        elif len(cells) == 8:
            algorithm, metric, scalar, error, on, _bound, ratio, ratio_on = cells
            rows.setdefault((algorithm, metric), {})[scalar] = (error, on, ratio, ratio_on)
    if not rows or not verdict:
        sys.exit("accuracy.py: no accuracy_report table or verdict in the input")
    return rows, over, verdict


def render(rows, over, verdict, source):
    out = [source, "",
           "| algorithm | metric | bound | float: worst error (ε), on | float: worst ratio | "
           "double: worst error (ε), on | double: worst ratio |",
           "| --- | --- | --- | --- | ---: | --- | ---: |"]
    for (algorithm, metric), by_scalar in rows.items():
        cells = [algorithm, metric, bound_formula(algorithm, metric)]
        for scalar in ("float", "double"):
            error, on, ratio, ratio_on = by_scalar.get(scalar, ("", "", "", ""))
            cells += [f"{error}, {on}" if error else "", ratio + (f" ({ratio_on})" if ratio_on != on else "")]
        out.append("| " + " | ".join(cells) + " |")
    out += ["", f"The report's verdict: {verdict}"]
    if over:
        out += ["", "| case | kind | algorithm | metric | scalar | bound (ε) | measured (ε) | ratio |",
                "| --- | --- | --- | --- | --- | ---: | ---: | ---: |"]
        out += ["| " + " | ".join(cells) + " |" for cells in over]
    return "\n".join(out)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("report", help="accuracy_report's standard output, saved to a file")
    parser.add_argument("--build", default="ci preset (-O2, no FMA contraction)", help="how accuracy_report was built")
    args = parser.parse_args()
    rows, over, verdict = parse(pathlib.Path(args.report).read_text(encoding="utf-8"))
    date = datetime.date.fromtimestamp(pathlib.Path(args.report).stat().st_mtime).isoformat()
    source = f"Generated from one run of `accuracy_report`: {provenance(args.build, date)}."
    replace_between(PAGE, BEGIN, END, render(rows, over, verdict, source))
    print(f"accuracy.py: {len(rows)} rows written to {PAGE}")


if __name__ == "__main__":
    main()
