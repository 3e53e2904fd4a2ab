#!/usr/bin/env python3
"""Fails when an operator that takes the caller's isolation lets a closure through unchecked.

Every public operator that takes closures also takes `isolation: (any Actor)? = #isolation` and must
pass each escaping closure parameter through `rxIsolationChecked` (see
`Sources/RxSwift/Internal/ClosureIsolation.swift`), or hand its `isolation` on to an operator that
does (`isolation: isolation`). This is the check that an operator author cannot forget: `.ci/run`
runs it. Usage: Tools/check-isolation-checks.py [Sources]
"""
import pathlib
import re
import sys

ISOLATION = re.compile(r"isolation:\s*\(any Actor\)\?\s*=\s*#isolation")
DECL = re.compile(r"\b(func|init|subscript)\b")


def matching(text, start, open_char, close_char):
    """Index just past the bracket that closes the one at `start`."""
    depth = 0
    index = start
    while index < len(text):
        char = text[index]
        if char == '"':
            index = text.index('"', index + 1) if '"' in text[index + 1 :] else len(text)
        elif char == open_char:
            depth += 1
        elif char == close_char:
            depth -= 1
            if depth == 0:
                return index + 1
        index += 1
    return len(text)


def split_parameters(parameters):
    parts, depth, current = [], 0, ""
    for char in parameters:
        if char in "([<":
            depth += 1
        elif char in ")]>":
            depth -= 1
        if char == "," and depth == 0:
            parts.append(current)
            current = ""
        else:
            current += char
    parts.append(current)
    return parts


def closure_names(parameters):
    names = []
    for part in split_parameters(parameters):
        if ":" not in part:
            continue
        label, kind = part.split(":", 1)
        if "@escaping" not in kind:
            continue
        words = label.split()
        if words:
            names.append(words[-1])
    return names


def violations(path):
    text = path.read_text()
    found = []
    for match in ISOLATION.finditer(text):
        # The declaration whose parameter list holds this `isolation:`.
        open_paren = text.rfind("(", 0, match.start())
        while open_paren > 0 and matching(text, open_paren, "(", ")") < match.end():
            open_paren = text.rfind("(", 0, open_paren)
        head = text.rfind("\n", 0, open_paren)
        if not DECL.search(text[head:open_paren]) and not DECL.search(text[text.rfind("\n", 0, head) : open_paren]):
            continue
        close_paren = matching(text, open_paren, "(", ")")
        body_start = text.find("{", close_paren)
        if body_start < 0 or ";" in text[close_paren:body_start] and "\n}" in text[close_paren:body_start]:
            continue
        body = text[body_start : matching(text, body_start, "{", "}")]
        if re.search(r"isolation:\s*isolation\b", body):
            continue
        for name in closure_names(text[open_paren + 1 : close_paren - 1]):
            if not re.search(r"rxIsolationChecked\w*\(\s*" + re.escape(name) + r"\b", body):
                line = text.count("\n", 0, open_paren) + 1
                found.append(f"{path}:{line}: `{name}` is not passed through rxIsolationChecked")
    return found


def main():
    root = pathlib.Path(sys.argv[1] if len(sys.argv) > 1 else "Sources")
    problems = [problem for path in sorted(root.rglob("*.swift")) for problem in violations(path)]
    for problem in problems:
        print(problem)
    checked = sum(len(ISOLATION.findall(path.read_text())) for path in root.rglob("*.swift"))
    print(f"{checked} declarations take the caller's isolation; {len(problems)} closures unchecked")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
