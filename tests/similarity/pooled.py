"""Held-out-style classes for the similarity report, generated from a seed: notebook 04's seven exercises, answered
by students who draw from a shared pool of common answers (right and buggy, some long) or write their own, and
planted copiers who copy a classmate.

Each exercise has a few ways to be written (``WAYS``), each with choice points ``«a|b|c»``: the ways' first choices
are the pool's answers, which half the students hand in (the first the most often), and a student who writes
their own answer picks a way and every choice at random. Independent students also keep their own names for some
variables and add a comment now and then. The copiers:

- ``exact``: every answer of their classmate, character for character;
- ``disguised``: every answer with the variables renamed, the comments dropped and the code re-printed;
- ``partial_5``, ``partial_3``: 5 (3) of the 7 answers so disguised, the others their own, from the classmate
  with the most answers that no one else wrote, those first: a copy of answers that other students hand in too
  cannot be told from theirs;
- ``rewritten``: every answer disguised, independent statements reordered and every loop that appends to a list
  rewritten as a list comprehension (the classmate has such a loop).

The answers are built as :class:`~grader.similarity.answers.ClassAnswers` holds them (the released notebook's
answer cells with the body in place of the placeholder): nothing is run or graded.
"""

# ruff: noqa: E501  (a line of code with its choices, in WAYS, is one line)

import ast
import collections
import dataclasses
import json
import pathlib
import random
import re

from grader.checks.notebook import read
from grader.similarity.answers import ClassAnswers, solution_sources, without_markers
from tests.conftest import EXERCISES, SOLUTIONS

NOTEBOOK = "04_causal_self_attention.ipynb"
PLACEHOLDER = "# YOUR CODE HERE\n{indent}raise NotImplementedError()"
CHOICE = re.compile(r"«(.*?)»", re.DOTALL)
POOL_SHARE = 0.5  # of the answers, drawn from the pool
POPULARITY = (0.4, 0.25, 0.2, 0.15)  # of the pool's answers, in the order of WAYS
SKIPPED = 0.04  # of the exercises, left as released
COMMENTED = 0.3  # of the answers, with a comment of the student's
KINDS = ("rewritten", "exact", "disguised", "partial_5", "partial_3")  # in the order their classmates are chosen

WAYS = {  # exercise: ways to write it; Head's two bodies are separated by "@@"
    "causal_average_loop": [
        """«B, T, C = x.shape|B, T, C = x.size()|B, T, _ = x.shape»
«out = torch.zeros_like(x)|out = torch.empty_like(x)|out = x.clone()|out = torch.zeros(B, T, C)»
for b in range(B):
    for t in range(T):
        out[b, t] = «x[b, :t + 1].mean(dim=0)|x[b, :t + 1].mean(0)|x[b, 0:t + 1].sum(dim=0) / (t + 1)|torch.mean(x[b, :t + 1], dim=0)»
return out""",
        """«B, T, C = x.shape|B, T, C = x.size()»
out = «torch.zeros_like(x)|torch.empty_like(x)»
for b in range(B):
    «total = torch.zeros(C)|total = 0|total = torch.zeros_like(x[b, 0])»
    for t in range(T):
        «total = total + x[b, t]|total += x[b, t]»
        out[b, t] = total / «(t + 1)|float(t + 1)»
return out""",
        """out = []
for b in range(x.shape[0]):
    rows = []
    for t in range(x.shape[1]):
        «rows.append(x[b, :t + 1].mean(dim=0))|window = x[b, :t + 1]
        rows.append(window.sum(dim=0) / window.shape[0])|rows.append(x[b, :t + 1].sum(dim=0) / (t + 1))»
    out.append(torch.stack(rows«|, dim=0»))
return torch.stack(out«|, dim=0»)""",
        """B, T, C = x.shape
out = torch.zeros_like(x)
for b in range(B):
    for t in range(T):
        out[b, t] = x[b, «:t|t:|:t + 2»].mean(dim=0)
return out""",
    ],
    "causal_average_weights": [
        """«tril = torch.tril(torch.ones(T, T))|tril = torch.ones(T, T).tril()|tril = torch.tril(torch.ones((T, T)))»
return tril / tril.sum(«dim=1|1|-1|dim=-1», keepdim=True)""",
        """weights = torch.zeros(T, T)
for t in range(T):
    weights[t, :t + 1] = «1 / (t + 1)|1.0 / (t + 1)|1 / float(t + 1)»
return weights""",
        """counts = torch.arange(1, T + 1«|, dtype=torch.float32»)«.unsqueeze(1)|.view(-1, 1)|[:, None]»
return torch.tril(torch.ones(T, T)) / counts""",
        """tril = torch.tril(torch.ones(T, T))
return tril / tril.sum(«dim=0|0», keepdim=True)""",
    ],
    "causal_average_matmul": [
        """«T = x.shape[1]|T = x.size(1)|_, T, _ = x.shape»
weights = causal_average_weights(T)«|.to(x.dtype)»
return «weights @ x|torch.matmul(weights, x)|torch.einsum('ts,bsc->btc', weights, x)»""",
        """return causal_average_weights(«x.shape[1]|x.size(1)|x.size(-2)|x.shape[-2]»)«.to(x.dtype)||.type_as(x)» @ x""",
        """B, T, C = x.shape
weights = causal_average_weights(T)
out = torch.zeros_like(x)
for b in range(B):
    out[b] = «weights @ x[b]|torch.mm(weights, x[b])»
return out""",
        """return «x @ causal_average_weights(x.shape[1])|causal_average_weights(x.shape[2]) @ x»""",
    ],
    "causal_mask": [
        """«L, S = scores.shape[-2:]|L, S = scores.size(-2), scores.size(-1)|L, S = scores.shape[-2], scores.shape[-1]»
«keep = torch.ones(L, S, dtype=torch.bool).tril()|keep = torch.tril(torch.ones(L, S)).bool()|keep = torch.tril(torch.ones(L, S, dtype=torch.bool))»
return scores.masked_fill(«~keep|keep == 0|keep.logical_not()», «float('-inf')|-torch.inf|float("-inf")»)""",
        """«future = torch.triu(torch.ones(scores.shape[-2:], dtype=torch.bool), diagonal=1)|future = torch.ones(scores.shape[-2:]).triu(1).bool()»
«masked = scores.clone()
masked[..., future] = float('-inf')
return masked|return scores.masked_fill(future, float('-inf'))»""",
        """masked = scores.clone()
«n = scores.shape[-2]|n = scores.size(-2)»
for i in range(n):
    «masked[..., i, i + 1:] = float('-inf')|for j in range(i + 1, scores.shape[-1]):
        masked[..., i, j] = float('-inf')»
return masked""",
        """L, S = scores.shape[-2:]
keep = torch.tril(torch.ones(L, S))
return scores«.masked_fill(keep == 0, 0)| * keep»""",
    ],
    "causal_average_softmax": [
        """«T = x.size(-2)|T = x.shape[1]|T = x.shape[-2]»
«scores = torch.zeros(T, T)|scores = torch.zeros(T, T, dtype=x.dtype)|scores = x.new_zeros(T, T)»
weights = «F.softmax(causal_mask(scores), dim=-1)|torch.softmax(causal_mask(scores), dim=-1)|causal_mask(scores).softmax(-1)»
return weights @ x""",
        """return F.softmax(causal_mask(torch.zeros(«x.shape[1], x.shape[1]|x.size(1), x.size(1)»)), dim=-1) @ x""",
        """T = x.shape[1]
weights = []
for t in range(T):
    «row = causal_mask(torch.zeros(T, T))[t]|row = torch.full((T,), float('-inf'))
    row[:t + 1] = 0»
    weights.append(F.softmax(row, dim=-1))
return torch.stack(weights) @ x""",
        """T = x.shape[1]
weights = causal_mask(F.softmax(torch.zeros(T, T), dim=-1))
return «weights @ x|torch.nan_to_num(weights) @ x»""",
    ],
    "scaled_dot_product_attention": [
        """«scale = q.size(-1) ** -0.5|scale = 1 / math.sqrt(q.shape[-1])|scale = q.shape[-1] ** -0.5»
scores = q @ k.transpose(-2, -1) * scale
if causal:
    scores = causal_mask(scores)
«weights = F.softmax(scores, dim=-1)|weights = scores.softmax(dim=-1)|weights = torch.softmax(scores, -1)»
return weights @ v""",
        """scores = «torch.matmul(q, k.transpose(-2, -1))|q @ k.transpose(-1, -2)|torch.einsum('...ld,...sd->...ls', q, k)» / math.sqrt(q.size(-1))
«if causal:
    scores = causal_mask(scores)|scores = causal_mask(scores) if causal else scores»
return F.softmax(scores, dim=-1) @ v""",
        """d = q.shape[-1]
outputs = []
for i in range(q.shape[-2]):
    row = (q[..., i, :] @ k.transpose(-2, -1)) / d ** 0.5
    if causal:
        row[..., i + 1:] = float('-inf')
    outputs.append(F.softmax(row, dim=-1) @ v)
return torch.stack(outputs, dim=-2)""",
        """scores = q @ k.transpose(-2, -1)
weights = F.softmax(scores, dim=-1)
if causal:
    weights = causal_mask(weights)
return «weights @ v|torch.nan_to_num(weights) @ v»""",
    ],
    "Head": [
        """super().__init__()
self.key = nn.Linear(embed_dim, head_size, bias=False)
self.query = nn.Linear(embed_dim, head_size, bias=False)
self.value = nn.Linear(embed_dim, head_size, bias=False)
self.dropout = nn.Dropout(dropout)«|
self.head_size = head_size»
@@
q = self.query(query)
k = self.key(key)
v = self.value(value)
«scores = q @ k.transpose(-2, -1) * k.shape[-1] ** -0.5|scores = q @ k.transpose(-2, -1) / math.sqrt(k.size(-1))|scores = torch.matmul(q, k.transpose(1, 2)) * k.size(-1) ** -0.5»
«T = scores.shape[-1]
scores = scores.masked_fill(torch.tril(torch.ones(T, T)) == 0, float('-inf'))|scores = causal_mask(scores)»
weights = self.dropout(F.softmax(scores, dim=-1))
return weights @ v""",
        """super().__init__()
self.query = nn.Linear(embed_dim, head_size, bias=False)
self.key = nn.Linear(embed_dim, head_size, bias=False)
self.value = nn.Linear(embed_dim, head_size, bias=False)
self.dropout = nn.Dropout(«dropout|p=dropout»)
@@
weights = causal_mask(self.query(query) @ self.key(key).transpose(-2, -1)«| * self.key.out_features ** -0.5»)
return self.dropout(weights.softmax(dim=-1)) @ self.value(value)""",
        """super().__init__()
self.key = nn.Linear(embed_dim, head_size, bias=False)
self.query = nn.Linear(embed_dim, head_size, bias=False)
self.value = nn.Linear(embed_dim, head_size, bias=False)
self.dropout = nn.Dropout(dropout)
self.register_buffer('tril', torch.tril(torch.ones(«512, 512|1024, 1024»)))
@@
B, T, C = query.shape
k = self.key(key)
q = self.query(query)
v = self.value(value)
scores = q @ k.transpose(-2, -1) * «C|k.shape[-1]» ** -0.5
scores = scores.masked_fill(self.tril[:T, :T] == 0, float('-inf'))
weights = F.softmax(scores, dim=-1)
weights = self.dropout(weights)
out = weights @ v
return out""",
        """super().__init__()
self.key = nn.Linear(embed_dim, head_size)
self.query = nn.Linear(embed_dim, head_size)
self.value = nn.Linear(embed_dim, head_size)
self.dropout = nn.Dropout(dropout)
@@
scores = self.query(query) @ self.key(key).transpose(-2, -1)
weights = «F.softmax(causal_mask(scores), dim=-1)|F.softmax(scores, dim=-1)»
return weights @ self.value(value)""",
    ],
}
SYNONYMS = {  # the names an independent student may use instead of the pool's
    "out": ("result", "y", "output", "res"),
    "rows": ("steps", "row_means", "per_step"),
    "total": ("acc", "running", "s"),
    "tril": ("lower", "mask", "ones_lower"),
    "weights": ("w", "attn", "probs", "wei"),
    "counts": ("n", "denominators"),
    "keep": ("allowed", "lower", "visible"),
    "future": ("above", "ahead", "blocked"),
    "masked": ("result", "out", "filled"),
    "scale": ("factor", "norm"),
    "scores": ("att", "logits", "sims"),
    "outputs": ("rows", "results"),
    "row": ("r", "line"),
    "window": ("past", "prefix"),
}
TOUCHES = (  # what a student writing their own answer may write one way or another: (pattern, ways)
    (r"\bx\.shape\[1\]|\bx\.size\(1\)", ("x.shape[1]", "x.size(1)", "x.shape[-2]", "x.size(-2)")),
    (r"float\('-inf'\)|float\(\"-inf\"\)", ("float('-inf')", "-float('inf')", "-torch.inf", "-math.inf")),
    (r"\.transpose\(-2, -1\)", (".transpose(-2, -1)", ".transpose(-1, -2)", ".mT")),
    (r"\bdim=-1\)", ("dim=-1)", "-1)", "dim=2)")),
    (r"\bdim=0\)", ("dim=0)", "0)", "dim=-2)")),
    (r"\(t \+ 1\)", ("(t + 1)", "(1 + t)", "(t + 1.0)")),
    (r"torch\.zeros_like\(x\)", ("torch.zeros_like(x)", "x.new_zeros(x.shape)", "torch.zeros(x.shape)")),
    (r"\bq\.size\(-1\)|\bq\.shape\[-1\]|\bk\.shape\[-1\]", ("q.size(-1)", "q.shape[-1]", "k.shape[-1]", "v.shape[-1]")),
)
COMMENTS = ("# running mean over the past", "# mask the future", "# (B, T, C)", "# rows sum to 1", "# done")


@dataclasses.dataclass
class PooledClass:
    answers: ClassAnswers
    planted: dict  # kind: (copier, classmate)

    def is_planted(self, first, second):
        return {first, second} in [set(pair) for pair in self.planted.values()]


def released():
    """{grade_id: stub} of notebook 04's seven graded exercises, and {grade_id: reference}."""
    stubs = solution_sources(read(EXERCISES / NOTEBOOK))
    references = solution_sources(read(SOLUTIONS / NOTEBOOK))
    return (
        {g: stubs[g] for g in WAYS},
        {g: without_markers(references[g]) for g in WAYS},
    )


def chosen(template, picks):
    """``template`` with its n-th choice point set to ``picks[n]`` (an index, wrapped)."""
    choices = iter(picks)
    return CHOICE.sub(lambda m: m[1].split("|")[next(choices) % len(m[1].split("|"))], template)


def pool_answer(exercise, rank):
    """The pool's ``rank``-th answer: its way's first choice everywhere."""
    template = WAYS[exercise][rank]
    return chosen(template, [0] * len(CHOICE.findall(template)))


def own_answer(exercise, rng):
    """A way picked at random, its choices too, and each of :data:`TOUCHES` half the time."""
    template = rng.choice(WAYS[exercise])
    body = chosen(template, [rng.randrange(8) for _ in CHOICE.findall(template)])
    for pattern, ways in TOUCHES:
        if rng.random() < 0.5:
            body = re.sub(pattern, rng.choice(ways), body)
    return body


def cell(stub, body):
    """The released cell ``stub`` with ``body`` (Head: two bodies, "@@" between) in place of its placeholders."""
    for part in body.split("@@"):
        indent = "        " if "\n        raise NotImplementedError()" in stub else "    "
        lines = [indent + line if line.strip() else "" for line in part.strip("\n").splitlines()]
        stub = stub.replace(PLACEHOLDER.format(indent=indent), "\n".join(lines).lstrip(), 1)
    return stub


def bound_names(code):
    """The names the code assigns (not its parameters), in order of first assignment."""
    found = []
    for node in ast.walk(ast.parse(code)):
        if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store) and node.id not in found:
            found.append(node.id)
    return found


def in_own_words(body, rng):
    """An independent student's rendering of an answer's body (Head's: of each): some variables renamed by regex
    (the layout kept), maybe a comment."""
    return "@@".join(_in_own_words(part.strip("\n"), rng) for part in body.split("@@"))


def _in_own_words(code, rng):
    for name in bound_names(code):
        if name in SYNONYMS and rng.random() < 0.5:
            code = re.sub(rf"(?<![.\w]){name}\b", rng.choice(SYNONYMS[name]), code)
    if rng.random() < COMMENTED:
        lines = code.splitlines()
        at = rng.randrange(len(lines))
        indent = re.match(r"\s*", lines[at])[0]
        code = "\n".join([*lines[:at], indent + rng.choice(COMMENTS), *lines[at:]])
    return code


class Renamed(ast.NodeTransformer):
    def __init__(self, names):
        self.names = names

    def visit_Name(self, node):
        node.id = self.names.get(node.id, node.id)
        return node


def disguised(code, rng):
    """The copier's disguise: every assigned variable renamed, the comments dropped, the code re-printed."""
    names = {name: f"{rng.choice('abcdefghpqrsuvwz')}{n}" for n, name in enumerate(bound_names(code))}
    return ast.unparse(Renamed(names).visit(ast.parse(code)))


class Comprehended(ast.NodeTransformer):
    """``xs = []`` followed by ``for ...: xs.append(e)`` becomes ``xs = [e for ...]``, in every block."""

    def generic_visit(self, node):
        super().generic_visit(node)
        for field in ("body", "orelse"):
            block = getattr(node, field, None)
            if isinstance(block, list) and block and isinstance(block[0], ast.stmt):
                setattr(node, field, self.rewritten(block))
        return node

    @staticmethod
    def rewritten(block):
        out = []
        for statement in block:
            appended = Comprehended.appended(statement)
            previous = out[-1] if out else None
            if (
                appended
                and isinstance(previous, ast.Assign)
                and isinstance(previous.targets[0], ast.Name)
                and previous.targets[0].id == appended[0]
                and isinstance(previous.value, ast.List)
                and not previous.value.elts
            ):
                previous.value = ast.ListComp(appended[1], [ast.comprehension(statement.target, statement.iter, [], 0)])
                continue
            out.append(statement)
        return out

    @staticmethod
    def appended(statement):
        """(list name, element) of ``for t in it: name.append(element)``, else None."""
        if not (isinstance(statement, ast.For) and len(statement.body) == 1 and not statement.orelse):
            return None
        call = statement.body[0].value if isinstance(statement.body[0], ast.Expr) else None
        if (
            isinstance(call, ast.Call)
            and isinstance(call.func, ast.Attribute)
            and call.func.attr == "append"
            and isinstance(call.func.value, ast.Name)
            and len(call.args) == 1
        ):
            return call.func.value.id, call.args[0]
        return None


def names_of(node, context):
    return {n.id for n in ast.walk(node) if isinstance(n, ast.Name) and isinstance(n.ctx, context)}


def reordered(code, rng):
    """``code`` with, in each block, adjacent statements swapped where neither uses what the other assigns."""
    tree = ast.parse(code)
    for node in ast.walk(tree):
        block = getattr(node, "body", None)
        if not isinstance(block, list):
            continue
        for n in range(len(block) - 1):
            first, second = block[n], block[n + 1]
            if isinstance(first, ast.Return | ast.Expr) or isinstance(second, ast.Return | ast.Expr):
                continue
            if (names_of(first, ast.Store) & (names_of(second, ast.Load) | names_of(second, ast.Store))) or (
                names_of(second, ast.Store) & names_of(first, ast.Load)
            ):
                continue
            if rng.random() < 0.7:
                block[n], block[n + 1] = second, first
    return ast.unparse(tree)


def rewritten(code, rng):
    """Disguised, independent statements reordered, append loops as list comprehensions."""
    tree = Comprehended().visit(ast.parse(disguised(code, rng)))
    return reordered(ast.unparse(tree), rng)


def has_append_loop(code):
    return any(Comprehended.appended(node) for node in ast.walk(ast.parse(code)))


def pooled_class(seed, students=43):
    """A :class:`PooledClass` of ``students`` (independent ones and one copier of each kind), from ``seed``."""
    rng = random.Random(seed)
    stubs, references = released()
    exercises = list(WAYS)
    names = [f"s{n:02d}" for n in range(students)]
    copiers = dict(zip(KINDS, rng.sample(names, len(KINDS))))
    handed, bodies = {}, {}
    for student in names:
        handed[student] = {}
        for exercise in exercises:
            if rng.random() < SKIPPED:
                continue
            if rng.random() < POOL_SHARE:
                body = pool_answer(exercise, rng.choices(range(len(POPULARITY)), POPULARITY)[0])
            else:
                body = own_answer(exercise, rng)
            bodies[student, exercise] = body
            handed[student][exercise] = cell(stubs[exercise], in_own_words(body, rng))
    written = collections.Counter(bodies.values())
    independent = [s for s in names if s not in copiers.values()]
    planted = {}
    for kind, copier in copiers.items():
        copied = len(exercises) if kind in ("exact", "disguised", "rewritten") else int(kind.split("_")[1])
        candidates = [
            s
            for s in independent
            if s not in {victim for _, victim in planted.values()}
            and (kind != "rewritten" or any(has_append_loop(code) for code in handed[s].values()))
        ]
        rng.shuffle(candidates)
        victim = max(candidates, key=lambda s: sum(written[bodies[s, e]] == 1 for e in handed[s]))
        answered = [e for e in exercises if e in handed[victim]]
        unique = [e for e in answered if written[bodies[victim, e]] == 1]
        taken = rng.sample(unique, min(copied, len(unique)))
        taken += rng.sample([e for e in answered if e not in taken], min(copied, len(answered)) - len(taken))
        for exercise in taken:
            original = handed[victim][exercise]
            if kind == "exact":
                handed[copier][exercise] = original
            elif kind == "rewritten":
                handed[copier][exercise] = rewritten(original, rng)
            else:
                handed[copier][exercise] = disguised(original, rng)
        planted[kind] = (copier, victim)
    return PooledClass(
        ClassAnswers(
            {NOTEBOOK: stubs},
            {NOTEBOOK: references},
            {s: {NOTEBOOK: {e: handed[s].get(e, stubs[e]) for e in exercises}} for s in names},
            [],
        ),
        planted,
    )


def handed_in(course, answers):
    """The course folder ``course`` (tests/similarity/planted.py's ``kit_course``) with each student of ``answers``
    (ClassAnswers) handing in the released notebook with their answer cells, as plain JSON; return the folder."""
    course = pathlib.Path(course)
    for notebook in answers.stubs:
        release = read(course / "exercises" / "self_attention" / notebook)
        for student, handed in answers.students.items():
            nb = json.loads(json.dumps(release))
            for found in nb["cells"]:
                grade_id = found["metadata"].get("nbgrader", {}).get("grade_id")
                if grade_id in handed[notebook]:
                    found["source"] = handed[notebook][grade_id]
            path = course / "submitted" / student / "self_attention" / notebook
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(json.dumps(nb), encoding="utf-8")
    return course
