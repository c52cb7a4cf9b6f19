"""A class for the similarity report: independent answers to two exercises of notebook 04, and two planted copies.

``copy_renamed`` is ``dara``'s answer with its variables renamed and two lines swapped; ``copy_exact`` is
``emil``'s, character for character. Every other answer was written on its own.
"""

import json
import pathlib
import shutil

from grader.checks.notebook import read
from grader.demo.run import ROOT

NOTEBOOK = "04_causal_self_attention.ipynb"
STUB = "    # YOUR CODE HERE\n    raise NotImplementedError()"

LOOP = {  # causal_average_loop(x): the running mean of x (B, T, C) over the steps
    "ada": """    B, T, C = x.shape
    out = torch.zeros_like(x)
    for b in range(B):
        for t in range(T):
            out[b, t] = x[b, :t + 1].mean(dim=0)
    return out""",
    "bo": """    result = torch.empty_like(x)
    running = torch.zeros(x.shape[0], x.shape[2], dtype=x.dtype)
    for step in range(x.shape[1]):
        running = running + x[:, step]
        result[:, step] = running / (step + 1)
    return result""",
    "cyd": """    batches = []
    for seq in x:
        rows = []
        for t in range(len(seq)):
            total = seq[0].clone()
            for s in range(1, t + 1):
                total += seq[s]
            rows.append(total / (t + 1))
        batches.append(torch.stack(rows))
    return torch.stack(batches)""",
    "dara": """    n_batch, n_steps, _ = x.size()
    means = x.clone()
    for i in range(n_batch):
        acc = 0
        for j in range(n_steps):
            acc = acc + x[i, j]
            means[i, j] = acc / (j + 1)
    return means""",
    "emil": """    out = []
    for b in range(x.shape[0]):
        seq_out = []
        for t in range(x.shape[1]):
            window = x[b, 0:t+1, :]
            seq_out.append(window.sum(0) / window.shape[0])
        out.append(torch.stack(seq_out, 0))
    return torch.stack(out, 0)""",
    "fin": """    T = x.shape[1]
    y = torch.zeros_like(x)
    for t in range(T):
        y[:, t, :] = torch.mean(x[:, :t+1, :], dim=1)
    return y""",
    "gus": """    cumulative = torch.cumsum(x, dim=1)
    counts = torch.arange(1, x.shape[1] + 1, dtype=x.dtype).view(1, -1, 1)
    averaged = torch.zeros_like(x)
    for position in range(x.shape[1]):
        averaged[:, position] = cumulative[:, position] / counts[0, position]
    return averaged""",
    "copy_renamed": """    avg = x.clone()
    nb, ns, _ = x.size()
    for bi in range(nb):
        s = 0
        for si in range(ns):
            s = s + x[bi, si]
            avg[bi, si] = s / (si + 1)
    return avg""",
}
LOOP["copy_exact"] = LOOP["emil"]

MASK = {  # causal_mask(scores): -inf above the diagonal
    "ada": """    L, S = scores.shape[-2:]
    above = torch.triu(torch.ones(L, S, dtype=torch.bool), diagonal=1)
    return scores.masked_fill(above, float('-inf'))""",
    "bo": """    n_q, n_k = scores.size(-2), scores.size(-1)
    masked = scores.clone()
    for i in range(n_q):
        masked[..., i, i + 1:] = float("-inf")
    return masked""",
    "cyd": """    rows = torch.arange(scores.shape[-2]).unsqueeze(1)
    cols = torch.arange(scores.shape[-1]).unsqueeze(0)
    return torch.where(cols > rows, torch.full_like(scores, -torch.inf), scores)""",
    "dara": """    keep = torch.tril(torch.ones_like(scores)).bool()
    result = scores.masked_fill(keep == False, -float('inf'))
    return result""",
    "emil": """    mask = torch.ones(scores.shape[-2:], dtype=torch.bool).triu(1)
    out = scores.clone()
    out[..., mask] = float('-inf')
    return out""",
    "fin": """    future = torch.triu(torch.full(scores.shape[-2:], float("-inf")), diagonal=1)
    return scores + future""",
    "gus": """    size_q, size_k = scores.shape[-2], scores.shape[-1]
    blocked = torch.ones(size_q, size_k).tril() == 0
    return scores.masked_fill(blocked, float("-inf"))""",
    "copy_renamed": """    keep_mask = torch.tril(torch.ones_like(scores)).bool()
    return scores.masked_fill(keep_mask == False, -float('inf'))""",
}
MASK["copy_exact"] = MASK["emil"]
PLANTED = {("copy_renamed", "dara"), ("copy_exact", "emil")}
ANSWERS = {"causal_average_loop": LOOP, "causal_mask": MASK}


def answered(stub, body):
    """The released answer cell ``stub`` with the student's ``body`` in place of its placeholder."""
    assert STUB in stub
    return stub.replace(STUB, body)


def kit_course(folder):
    """A course folder as nbgrader has it after a release, made by copying: the kit's config, release and solutions."""
    folder = pathlib.Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    shutil.copy(ROOT / "nbgrader_config.py", folder)
    for kit_folder in ("exercises", "solutions"):
        shutil.copytree(ROOT / kit_folder, folder / kit_folder)
    return folder


def hand_in(course, answers=ANSWERS, notebook=NOTEBOOK):
    """Each student of ``answers`` ({grade_id: {student: body}}) hands in the course's released ``notebook`` with
    those bodies, in ``submitted/``, written as plain JSON as a Jupyter server does; return the course folder."""
    course = pathlib.Path(course)
    release = read(course / "exercises" / "self_attention" / notebook)
    for student in sorted({student for bodies in answers.values() for student in bodies}):
        nb = json.loads(json.dumps(release))
        for cell in nb["cells"]:
            grade_id = cell["metadata"].get("nbgrader", {}).get("grade_id")
            if grade_id in answers and student in answers[grade_id]:
                cell["source"] = answered(cell["source"], answers[grade_id][student])
        path = course / "submitted" / student / "self_attention" / notebook
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(nb), encoding="utf-8")
    return course
