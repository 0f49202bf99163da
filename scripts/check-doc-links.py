#!/usr/bin/env python3
"""Every relative link of the repository's Markdown resolves: its file exists and its
#anchor is a heading there (GitHub's slugs). Prints each broken link and a count."""
import os
import re
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def slug(heading):
    text = re.sub(r"[^\w\- ]", "", heading.strip().lower())
    return text.replace(" ", "-")


def anchors(path):
    found, fenced = set(), False
    with open(path, encoding="utf-8") as lines:
        for line in lines:
            if line.startswith("```"):
                fenced = not fenced
            heading = None if fenced else re.match(r"^#{1,6} (.*)", line)
            if heading:
                found.add(slug(heading.group(1)))
    return found


def main():
    listed = subprocess.run(
        ["git", "-C", ROOT, "ls-files", "*.md"], capture_output=True, text=True, check=True
    ).stdout.split()
    checked = broken = 0
    for name in listed:
        with open(os.path.join(ROOT, name), encoding="utf-8") as file:
            text = re.sub(r"```.*?```", "", file.read(), flags=re.S)
        for link in re.finditer(r"\]\(([^)\s]+)\)", text):
            target = link.group(1)
            if re.match(r"^[a-z]+:", target):
                continue
            checked += 1
            path, _, anchor = target.partition("#")
            here = os.path.join(ROOT, name)
            full = os.path.normpath(os.path.join(os.path.dirname(here), path)) if path else here
            if not os.path.exists(full):
                print(f"{name}: {target}: no such file")
                broken += 1
            elif anchor and full.endswith(".md") and anchor not in anchors(full):
                print(f"{name}: {target}: no such heading")
                broken += 1
    print(f"{checked} relative links checked, {broken} broken")
    return 1 if broken else 0


if __name__ == "__main__":
    sys.exit(main())
