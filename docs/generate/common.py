"""Shared by the generators of docs/: where a measurement came from, and rewriting a page between markers."""
import os
import pathlib
import platform
import subprocess

ROOT = pathlib.Path(__file__).resolve().parents[2]


def commit():
    """The checkout's commit (short), with "+changes" when the working tree differs from it."""
    def git(*args):
        return subprocess.run(["git", *args], cwd=ROOT, capture_output=True, text=True).stdout.strip()
    sha = git("rev-parse", "--short", "HEAD") or "unknown"
    return sha + ("+changes" if git("status", "--porcelain", "--untracked-files=no") else "")


def machine():
    """The processor model and core count of this machine (Linux /proc/cpuinfo, else platform)."""
    model = platform.processor() or platform.machine()
    try:
        for line in pathlib.Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                model = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    return f"{model}, {os.cpu_count()} cores"


def provenance(build, date, where=None):
    """Which run a generated table came from; `where` names the machine when the run's own files say it
    (the script may run elsewhere), else this machine is named."""
    return f"commit {commit()}, {where or machine()}, {build}, {date}"


def replace_between(page, begin, end, body):
    """Replaces the text between the lines `begin` and `end` of `page` (both kept) with `body`."""
    text = page.read_text(encoding="utf-8")
    start, stop = text.find(begin), text.find(end)
    if start < 0 or stop < start:
        raise SystemExit(f"{page}: the markers {begin!r} … {end!r} are missing")
    page.write_text(text[: start + len(begin)] + "\n" + body.rstrip("\n") + "\n" + text[stop:], encoding="utf-8")
