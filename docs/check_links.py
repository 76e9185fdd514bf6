#!/usr/bin/env python3
"""Check that the documentation's links resolve.

Checks, from the repository root (the parent of this file's folder):
  - every relative Markdown link [text](path), [text](path#anchor) and [text](#anchor) in README.md,
    CHANGELOG.md and docs/*.md, and every image ![alt](path): the file exists and, when an anchor is
    given, the target Markdown file has a heading with that GitHub-style anchor;
  - every docs/<page>.md#<anchor> cited in a comment under include/, examples/, benchmarks/ and tests/.
GitHub anchors: the heading's text without Markdown emphasis or code marks, lowercased, every character
that is not a letter, digit, space, '-' or '_' removed, spaces turned into '-'; repeated headings get
-1, -2, … suffixes. Links to http(s), mailto and other schemes are not checked.
Exit status 1 with one line per dead link, 0 when all resolve. Standard library only.
"""
import pathlib
import re
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent
LINK = re.compile(r"!?\[(?:[^\]\[]|\[[^\]]*\])*\]\(([^()\s]+)(?:\s+\"[^\"]*\")?\)")
CITED = re.compile(r"(docs/[A-Za-z0-9_\-./]+\.md)#([^\s)\]'\",;]+)")
FENCE = re.compile(r"^\s*(```|~~~)")


def strip_code_blocks(text):
    """The lines outside fenced code blocks (links inside them are code, not links)."""
    out, fenced = [], False
    for line in text.splitlines():
        if FENCE.match(line):
            fenced = not fenced
            out.append("")
            continue
        out.append("" if fenced else line)
    return out


def slug(heading):
    text = re.sub(r"!?\[([^\]]*)\]\([^)]*\)", r"\1", heading)  # links keep their text
    text = re.sub(r"[`*]", "", text).strip().lower()
    text = "".join(ch for ch in text if ch.isalnum() or ch in " -_")
    return text.replace(" ", "-")


_anchors = {}


def anchors(path):
    if path not in _anchors:
        found, seen = set(), {}
        for line in strip_code_blocks(path.read_text(encoding="utf-8")):
            m = re.match(r"^(#{1,6})\s+(.*?)\s*#*\s*$", line)
            if not m:
                continue
            base = slug(m.group(2))
            n = seen.get(base, 0)
            seen[base] = n + 1
            found.add(base if n == 0 else f"{base}-{n}")
        for m in re.finditer(r'<a\s+(?:name|id)="([^"]+)"', path.read_text(encoding="utf-8")):
            found.add(m.group(1))
        _anchors[path] = found
    return _anchors[path]


def check_target(source, target, problems, where):
    if re.match(r"^[a-zA-Z][a-zA-Z0-9+.-]*:", target):  # http:, https:, mailto:, …
        return
    path_part, _, anchor = target.partition("#")
    dest = source if not path_part else (source.parent / path_part).resolve()
    if not dest.exists():
        problems.append(f"{where}: {target}: no such file {dest.relative_to(ROOT) if dest.is_relative_to(ROOT) else dest}")
        return
    if anchor:
        if dest.suffix != ".md":
            problems.append(f"{where}: {target}: an anchor into a file that is not Markdown")
        elif anchor not in anchors(dest):
            problems.append(f"{where}: {target}: no heading with anchor #{anchor} in {dest.relative_to(ROOT)}")


def main():
    problems = []
    pages = [ROOT / "README.md", ROOT / "CHANGELOG.md", *sorted((ROOT / "docs").glob("*.md"))]
    for page in pages:
        if not page.exists():
            problems.append(f"{page.relative_to(ROOT)}: missing")
            continue
        for number, line in enumerate(strip_code_blocks(page.read_text(encoding="utf-8")), 1):
            line = re.sub(r"`[^`]*`", "", line)  # code spans are not links
            for m in LINK.finditer(line):
                check_target(page, m.group(1), problems, f"{page.relative_to(ROOT)}:{number}")
    cited = 0
    for folder in ("include", "examples", "benchmarks", "tests"):
        for path in sorted((ROOT / folder).rglob("*")):
            if not path.is_file() or path.suffix not in {".hpp", ".cpp", ".h", ".py", ".sh", ".txt", ".cmake"}:
                continue
            for number, line in enumerate(path.read_text(encoding="utf-8", errors="replace").splitlines(), 1):
                for m in CITED.finditer(line):
                    cited += 1
                    check_target(ROOT / "README.md", f"{m.group(1)}#{m.group(2).rstrip('.')}", problems,
                                 f"{path.relative_to(ROOT)}:{number}")
    for p in problems:
        print(p)
    print(f"check_links: {len(pages)} pages, {cited} cited anchors in comments, {len(problems)} dead links",
          file=sys.stderr)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
