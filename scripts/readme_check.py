#!/usr/bin/env python3
"""make readme-check: the README's commands run as shown, and the figures it quotes are theirs.

Runs, from the project's root, every line of the README's command block (the ```sh block that
starts with `.build/release/resonance --help`) in order, on fresh paths (the /tmp files the
block names are removed first), and fails when one exits non-zero. Then every signed figure
in the paragraph after the block (`+0.0330`, `−0.01`) and every level (`97.5%`) must appear in
what the commands printed: a README that quotes a number the build no longer gives fails.
Standard library only; needs the release build (make build).

usage: readme_check.py [README]
"""
import glob
import os
import re
import shutil
import subprocess
import sys

FIRST = ".build/release/resonance --help"


def main():
    readme = sys.argv[1] if len(sys.argv) > 1 else "README.md"
    with open(readme, encoding="utf-8") as f:
        text = f.read()
    block = re.search(r"```sh\n(" + re.escape(FIRST) + r".*?)```\n\n(.*?)\n\n", text, re.S)
    if block is None:
        print(f"readme-check: {readme}: no ```sh block starting with {FIRST}", file=sys.stderr)
        return 1
    commands = [line for line in block.group(1).splitlines() if line.strip()]
    paragraph = block.group(2)
    # The paths the block writes, removed so that it runs as on a fresh machine.
    for path in sorted(set(re.findall(r"/tmp/[\w.-]+", block.group(1)))):
        for match in glob.glob(path + "*"):
            if os.path.isdir(match):
                shutil.rmtree(match)
            else:
                os.remove(match)
    printed = []
    problems = []
    for command in commands:
        result = subprocess.run(command, shell=True, capture_output=True, text=True)
        printed.append(result.stdout + result.stderr)
        if result.returncode != 0:
            problems.append(f"`{command}` exited {result.returncode}: {result.stderr.strip()[-300:]}")
    output = "\n".join(printed).replace("\u2212", "-")
    figures = re.findall(r"[+\u2212-]\d+\.\d+", paragraph) + re.findall(r"\d+(?:\.\d+)?%", paragraph)
    missing = [f for f in figures if f.replace("\u2212", "-") not in output]
    for figure in missing:
        problems.append(f"the README quotes {figure}, which no command of its block printed")
    print(f"readme-check: {len(commands)} commands run, {len(figures)} quoted figures checked")
    for problem in problems:
        print("readme-check: " + problem, file=sys.stderr)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
