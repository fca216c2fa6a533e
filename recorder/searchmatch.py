"""How many files a search found. The tool's output is not ours to read, so the recorder
re-evaluates the query the way the tool would: grep's patterns over the files the tool
read, find's name tests over the tree."""

from __future__ import annotations

import fnmatch
import os
import re

from .searchspec import SearchSpec


def bre_to_python(p: str) -> str:
    """grep's basic regular expression in Python's syntax: in a BRE, ( ) | { } + ? are
    literal and their backslashed forms are the operators."""
    out = []
    i = 0
    while i < len(p):
        ch = p[i]
        if ch == "\\" and i + 1 < len(p):
            nxt = p[i + 1]
            out.append(nxt if nxt in "(){}|+?" else "\\" + nxt)
            i += 2
            continue
        out.append("\\" + ch if ch in "(){}|+?" else ch)
        i += 1
    return "".join(out)


def content_pattern(spec: SearchSpec) -> re.Pattern[bytes] | None:
    if spec.query is None:
        return None
    flags = re.MULTILINE | (re.IGNORECASE if spec.ignore_case else 0)  # ^ and $ are per line, as in grep
    if spec.fixed:
        pat = re.escape(spec.query)
    elif spec.extra.get("extended"):
        pat = spec.query
    else:
        pat = bre_to_python(spec.query)
    try:
        return re.compile(pat.encode("utf-8"), flags)
    except re.error:
        return re.compile(re.escape(spec.query).encode("utf-8"), flags)


def name_matches(spec: SearchSpec, path: str, inner: str) -> bool:
    """Does a path satisfy the find / fd / locate query? inner = path below its root."""
    q = spec.query
    if q is None:
        return True
    name = os.path.basename(path)
    test = spec.name_test or ("-name" if spec.tool == "find" else None)
    if test == "-name":
        return fnmatch.fnmatchcase(name, q)
    if test == "-iname":
        return fnmatch.fnmatchcase(name.lower(), q.lower())
    if test in ("-path", "-wholename"):
        return fnmatch.fnmatchcase(path, q) or fnmatch.fnmatchcase("./" + inner, q)
    if test in ("-ipath", "-iwholename"):
        return fnmatch.fnmatchcase(path.lower(), q.lower()) or fnmatch.fnmatchcase(("./" + inner).lower(), q.lower())
    if test in ("-regex", "-iregex"):
        try:
            return re.fullmatch(q, path, re.I if test == "-iregex" else 0) is not None
        except re.error:
            return False
    try:  # fd / locate: a regex searched in the name
        return re.search(q, name) is not None
    except re.error:
        return q in name
