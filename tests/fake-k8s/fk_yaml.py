"""Minimal YAML reader for controller-gen CRD manifests (stdlib only).

Supports the subset controller-gen/go-yaml emits: block mappings and
sequences, plain/single/double-quoted scalars (possibly folded across lines),
literal and folded block scalars, empty flow collections and simple flow
sequences, '---' document markers and full-line comments.  It is not a general
YAML parser; the self-test checks it against the CRDs shipped in tests/data.
"""

import json
import re

_KEY = re.compile(r"""^("(?:[^"\\]|\\.)*"|'(?:[^']|'')*'|[^\s'"#\-?:,\[\]{}][^:#]*?|-[^\s:][^:#]*?)\s*:(?:\s+|$)""")
_INT = re.compile(r"^[-+]?(0|[1-9][0-9]*)$")
_FLOAT = re.compile(r"^[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?$")


class YamlError(ValueError):
    pass


class _Lines:
    def __init__(self, text):
        self.lines = []
        for raw in text.splitlines():
            stripped = raw.lstrip(" ")
            self.lines.append([len(raw) - len(stripped), stripped.rstrip(), raw])
        self.i = 0

    def skip_blank(self):
        while self.i < len(self.lines):
            text = self.lines[self.i][1]
            if text and not text.startswith("#") and text != "---":
                return
            self.i += 1

    def peek(self):
        self.skip_blank()
        return self.lines[self.i] if self.i < len(self.lines) else None


def _plain(text):
    if text in ("", "~", "null", "Null", "NULL"):
        return None
    if text in ("true", "True", "TRUE"):
        return True
    if text in ("false", "False", "FALSE"):
        return False
    if _INT.match(text):
        return int(text)
    if _FLOAT.match(text):
        return float(text)
    return text


def _unquote(text):
    if text.startswith("'"):
        return text[1:-1].replace("''", "'")
    return json.loads(text)


def _fold(parts):
    """Join continuation lines of a flow scalar the way YAML folds them."""
    out = ""
    pending_newlines = 0
    for idx, part in enumerate(parts):
        if idx == 0:
            out = part
            continue
        if part == "":
            pending_newlines += 1
            continue
        out += ("\n" * pending_newlines) if pending_newlines else " "
        out += part
        pending_newlines = 0
    return out


def _closed(text):
    if text.startswith("'"):
        body = text[1:].replace("''", "")
        return "'" in body and body.rstrip().endswith("'")
    if text.startswith('"'):
        escaped = False
        for ch in text[1:]:
            if escaped:
                escaped = False
            elif ch == "\\":
                escaped = True
            elif ch == '"':
                return True
        return False
    return True


def _flow(text):
    if text in ("{}", "[]"):
        return {} if text == "{}" else []
    if text.startswith("[") and text.endswith("]"):
        return [_scalar_text(t.strip()) for t in text[1:-1].split(",") if t.strip()]
    raise YamlError("unsupported flow collection: %s" % text)


def _scalar_text(text):
    if text[:1] in ("'", '"'):
        return _unquote(text)
    if text[:1] in ("[", "{"):
        return _flow(text)
    return _plain(text)


def _scalar(lines, first, parent_indent):
    """Parse a scalar starting with text `first`; may consume continuation lines."""
    if first[:1] in ("|", ">"):
        return _block_scalar(lines, first, parent_indent)
    parts = [first]
    quoted = first[:1] in ("'", '"')
    while True:
        if quoted and _closed(_fold(parts)):
            break
        if lines.i >= len(lines.lines):
            break
        ind, text, _raw = lines.lines[lines.i]
        if text and ind <= parent_indent and not quoted:
            break
        if not text and not quoted:
            # A blank line ends a plain scalar only if no deeper line follows.
            j = lines.i
            while j < len(lines.lines) and not lines.lines[j][1]:
                j += 1
            if j >= len(lines.lines) or lines.lines[j][0] <= parent_indent:
                break
        if text.startswith("#") and not quoted:
            break
        parts.append(text)
        lines.i += 1
    joined = _fold(parts)
    if quoted:
        return _unquote(joined)
    return _scalar_text(joined) if len(parts) == 1 else joined


def _block_scalar(lines, header, parent_indent):
    keep = header.endswith("+")
    strip = header.endswith("-")
    body = []
    block_indent = None
    while lines.i < len(lines.lines):
        ind, text, raw = lines.lines[lines.i]
        if text:
            if block_indent is None:
                if ind <= parent_indent:
                    break
                block_indent = ind
            if ind < block_indent:
                break
            body.append(raw[block_indent:].rstrip("\r"))
        else:
            body.append("")
        lines.i += 1
    while body and body[-1] == "" and not keep:
        body.pop()
    if header[0] == ">":
        text = _fold(body)
    else:
        text = "\n".join(body)
    return text if strip else text + "\n"


def _node(lines, indent):
    line = lines.peek()
    if line is None or line[0] < indent:
        return None
    if line[1] == "-" or line[1].startswith("- "):
        return _sequence(lines, line[0])
    return _mapping(lines, line[0])


def _sequence(lines, indent):
    out = []
    while True:
        line = lines.peek()
        if line is None or line[0] != indent or not (line[1] == "-" or line[1].startswith("- ")):
            return out
        rest = line[1][1:].lstrip(" ")
        if not rest:
            lines.i += 1
            out.append(_node(lines, indent + 1))
            continue
        inner = indent + (len(line[1]) - len(rest))
        if _KEY.match(rest) or rest.startswith("- "):
            line[0], line[1] = inner, rest
            out.append(_node(lines, inner))
        else:
            lines.i += 1
            out.append(_scalar(lines, rest, indent))


def _mapping(lines, indent):
    out = {}
    while True:
        line = lines.peek()
        if line is None or line[0] != indent:
            if line is not None and line[0] > indent:
                raise YamlError("bad indentation at line %d" % (lines.i + 1))
            return out
        m = _KEY.match(line[1])
        if not m:
            if line[1] == "-" or line[1].startswith("- "):
                return out
            raise YamlError("expected a key at line %d: %r" % (lines.i + 1, line[1]))
        key = m.group(1)
        key = _unquote(key) if key[:1] in ("'", '"') else key
        rest = line[1][m.end():]
        lines.i += 1
        if rest and not rest.startswith("#"):
            out[key] = _scalar(lines, rest, indent)
            continue
        nxt = lines.peek()
        if nxt is None:
            out[key] = None
        elif nxt[0] > indent:
            out[key] = _node(lines, nxt[0])
        elif nxt[0] == indent and (nxt[1] == "-" or nxt[1].startswith("- ")):
            out[key] = _sequence(lines, indent)
        else:
            out[key] = None


def load_all(text):
    """Return the list of documents in `text`."""
    docs = []
    chunks = re.split(r"(?m)^---\s*$", text)
    for chunk in chunks:
        lines = _Lines(chunk)
        if lines.peek() is None:
            continue
        docs.append(_node(lines, 0))
    return docs


def load(text):
    docs = load_all(text)
    if len(docs) != 1:
        raise YamlError("expected one document, got %d" % len(docs))
    return docs[0]
