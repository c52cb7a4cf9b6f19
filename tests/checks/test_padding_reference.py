"""The hidden MultiHeadAttention checks with a key padding mask compare with nn.MultiheadAttention, the mask given
as part of the attention mask (grader/exercises/multi_head.py, torch_output): the same numbers, to the bit, as
PyTorch's own key_padding_mask, without the SymPy import that PyTorch's check of that argument costs the grader."""

import subprocess
import sys

import numpy as np
import pytest
import torch
from torch import nn

from grader.exercises import multi_head


def with_key_padding_mask(state, x, H, causal, key_padding_mask):
    """nn.MultiheadAttention given the padding mask as its own argument."""
    T = x.shape[1]
    mha = nn.MultiheadAttention(x.shape[2], H, batch_first=True)
    mha.load_state_dict({k: torch.from_numpy(v) for k, v in state.items()})
    mha.eval()
    x = torch.from_numpy(x)
    mask = torch.ones(T, T).triu(1).bool() if causal else None
    with torch.no_grad():
        out, _ = mha(
            x,
            x,
            x,
            key_padding_mask=torch.from_numpy(key_padding_mask),
            need_weights=False,
            attn_mask=mask,
            is_causal=causal,
        )
    return out.numpy()


@pytest.mark.parametrize(
    "seed, E, H, B, T, causal",
    [(120, 8, 2, 3, 5, False), (121, 12, 3, 2, 6, False), (122, 8, 4, 3, 6, True), (123, 6, 3, 1, 1, True)],
)
def test_the_padding_reference_is_pytorchs_key_padding_mask_to_the_bit(seed, E, H, B, T, causal):
    rng = np.random.default_rng(seed)
    state, x = multi_head.random_state(rng, E), multi_head.random_array(rng, B, T, E)
    padding = multi_head.padding_mask(rng, B, T)
    expected = with_key_padding_mask(state, x, H, causal, padding)
    assert np.array_equal(multi_head.torch_output(state, x, H, causal, padding), expected)


@pytest.mark.slow  # PyTorch imported in a new process: seconds
def test_planning_the_multi_head_checks_imports_no_sympy():
    done = subprocess.run(
        [
            sys.executable,
            "-c",
            "import sys; from grader.autograde.jobs import planned_checks; "
            "planned_checks('MultiHeadAttention'); print('sympy' in sys.modules)",
        ],
        capture_output=True,
        text=True,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["False"]
