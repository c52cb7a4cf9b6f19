"""An answer's tokens, with where each stands in its text: Pygments' Python lexer (it reads any text, code that
does not parse included), comments, docstrings and spacing left out.

Each token also has a normalised text, the one that is compared: the names the answer binds (its variables and
parameters, from its syntax tree; every plain name where the answer does not parse) are written ``V``, so
renaming changes nothing; attributes, keyword arguments, builtins and the names it does not bind (``torch``,
``F``) are kept; a string literal is one token, its quotes written one way.

The starter code of an answer is the lines that the released cell has too, in the same order.
"""

import ast
import dataclasses
import difflib
import functools
import re

from pygments import token
from pygments.lexers import PythonLexer

LEXER = PythonLexer(stripnl=False, ensurenl=False)  # offsets into the text as it is
STRING = re.compile(r"(?P<prefix>[a-zA-Z]*)(?P<quote>'''|\"\"\"|'|\")(?P<body>.*)(?P=quote)", re.DOTALL)
VARIABLE = "V"


@dataclasses.dataclass(frozen=True)
class Token:
    start: int
    end: int
    text: str  # as written
    normal: str  # as compared


def bound_names(tree):
    """The names a syntax tree binds: assigned, looped over, parameters."""
    names = {node.id for node in ast.walk(tree) if isinstance(node, ast.Name) and not isinstance(node.ctx, ast.Load)}
    return names | {node.arg for node in ast.walk(tree) if isinstance(node, ast.arg)}


@functools.lru_cache(maxsize=256)
def lexed(code):
    """(start, end, kind) of every token of ``code`` but spacing, in order; a string literal is one token."""
    found = []
    for start, kind, text in LEXER.get_tokens_unprocessed(code):
        if not text.strip():
            continue
        if kind in token.Literal.String and found and found[-1][2] in token.Literal.String and found[-1][1] == start:
            found[-1] = (found[-1][0], start + len(text), found[-1][2])  # one literal, however Pygments cuts it
            continue
        found.append((start, start + len(text), kind))
    return tuple(found)


@functools.lru_cache(maxsize=8192)
def tokens(code):
    """The :class:`Token`\\ s of ``code`` that are compared, in order: comments and docstrings left out."""
    try:
        bound = bound_names(ast.parse(code))
    except (SyntaxError, ValueError, RecursionError):
        bound = None  # every plain name is a variable
    raw = [t for t in lexed(code) if t[2] not in token.Comment and t[2] not in token.Literal.String.Doc]
    texts = [code[start:end] for start, end, _ in raw]
    found, brackets = [], []
    for n, (start, end, kind) in enumerate(raw):
        text = texts[n]
        if kind in token.Literal.String:
            literal = STRING.fullmatch(text)
            normal = f"{literal['prefix'].lower()}'{literal['body']}'" if literal else text
        elif kind is token.Name:
            before, after = texts[n - 1] if n else "", texts[n + 1] if n + 1 < len(raw) else ""
            keyword = brackets[-1:] == ["("] and before in ("(", ",") and after == "="
            kept = before == "." or keyword or (bound is not None and text not in bound)
            normal = text if kept else VARIABLE
        else:
            normal = text
        if text in ("(", "[", "{"):
            brackets.append(text)
        elif text in (")", "]", "}") and brackets:
            brackets.pop()
        found.append(Token(start, end, text, normal))
    return tuple(found)


def words(code):
    """The code's tokens as written: two answers with the same words are the same code, whatever their layout."""
    return tuple(t.text for t in tokens(code))


@functools.lru_cache(maxsize=8192)
def starter_tokens(code, stub):
    """The starts of the tokens of ``code`` on the lines that are the released cell's ``stub``: the lines equal to
    the stub's, spacing aside, in the same order (difflib's longest matching blocks)."""
    mine, given = _lines(code), _lines(stub)
    blocks = difflib.SequenceMatcher(
        None, [text for text, _, _ in given], [text for text, _, _ in mine], autojunk=False
    )
    spans = [mine[n][1:] for b in blocks.get_matching_blocks() for n in range(b.b, b.b + b.size)]
    return frozenset(start for start, _, _ in lexed(code) if any(s <= start < e for s, e in spans))


def _lines(code):
    """(text without spacing, start, end) of each line of ``code`` that is not blank."""
    found, at = [], 0
    for line in code.splitlines(keepends=True):
        if line.strip():
            found.append((" ".join(line.split()), at, at + len(line)))
        at += len(line)
    return found
