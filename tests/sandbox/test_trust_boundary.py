"""What comes back from a sandbox is untrusted: the protocol, plain data and the answers' shapes are
checked at the boundary, and anything wrong is the submission's failure, never the grader's."""

import os
import struct
import time

import pytest

from grader.checks import plain
from grader.sandbox import evidence, protocol


def channel(data):
    """A file descriptor to read ``data`` from, as if the sandbox had sent it."""
    read = os.memfd_create("channel")
    os.write(read, data)
    os.lseek(read, 0, os.SEEK_SET)
    return read


def framed(body):
    return struct.pack("!Q", len(body)) + body


def test_protocol_round_trip():
    read, write = os.pipe()
    protocol.write(write, {"a": [1, "x"]})
    assert protocol.read(read, 100) == {"a": [1, "x"]}


@pytest.mark.parametrize(
    "data,error",
    [
        (struct.pack("!Q", 1 << 40), "over the limit"),
        (framed(b"{not json"), "not JSON"),
        (framed(b"[" * 100_000 + b"]" * 100_000), "not JSON"),
        (struct.pack("!Q", 10) + b"abc", "closed"),
        (b"", "closed"),
    ],
)
def test_protocol_rejects_what_the_runner_never_sends(data, error):
    with pytest.raises(protocol.ProtocolError, match=error):
        protocol.read(channel(data), 1 << 20)


def test_protocol_read_keeps_its_deadline():
    read, _ = os.pipe()
    started = time.monotonic()
    with pytest.raises(protocol.TimedOut):
        protocol.read(read, 100, deadline=time.monotonic() + 0.2)
    assert time.monotonic() - started < 2


@pytest.mark.parametrize(
    "answer",
    [
        [1, 2, 3],
        "outputs",
        None,
        {"outputs": []},
        {"outputs": [], "count": "1"},
        {"outputs": [], "count": True},
        {"outputs": {}, "count": 1},
        {"outputs": [], "count": 1, "extra": 0},
        {"outputs": [{"output_type": "stream", "name": "stdin", "text": "x"}], "count": 1},
        {"outputs": [{"output_type": "stream", "name": "stdout", "text": 5}], "count": 1},
        {"outputs": [{"output_type": "display_data", "data": [1], "metadata": {}}], "count": 1},
        {"outputs": [{"output_type": "display_data", "data": {"image/png": {"a": 1}}, "metadata": {}}], "count": 1},
        {"outputs": [{"output_type": "error", "ename": "E", "evalue": "v", "traceback": "x"}], "count": 1},
        {"outputs": [{"output_type": "update_display_data", "data": {}}], "count": 1},
        {"outputs": ["text"], "count": 1},
    ],
)
def test_malformed_cell_answers_are_rejected(answer):
    with pytest.raises(evidence.Malformed):
        evidence.cell_answer(answer)


def test_cell_outputs_are_rebuilt_from_allowed_keys():
    outputs, count = evidence.cell_answer(
        {
            "count": 3,
            "outputs": [
                {"output_type": "stream", "name": "stdout", "text": ["a", "b"], "injected": "<script>"},
                {
                    "output_type": "execute_result",
                    "data": {"text/plain": "1", "application/json": {"k": [1]}},
                    "metadata": {},
                    "execution_count": 3,
                    "transient": {"x": 1},
                },
            ],
        }
    )
    assert count == 3
    assert outputs == [
        {"output_type": "stream", "name": "stdout", "text": "ab"},
        {
            "output_type": "execute_result",
            "data": {"text/plain": "1", "application/json": {"k": [1]}},
            "metadata": {},
            "execution_count": 3,
        },
    ]


@pytest.mark.parametrize(
    "answer",
    [
        [1],
        {"outcome": 5},
        {"outcome": {"__tuple__": [1]}},
        {"outcome": {"__array__": {"dtype": "object"}}},
        {"outcome": {"__dict__": {}}, "more": 1},
        {"undefined": False},
        {"outcome": {"__dict__": {"values": {"__array__": {"dtype": "float32", "shape": [4], "data": "AAAA"}}}}},
    ],
)
def test_malformed_probe_answers_are_rejected(answer):
    with pytest.raises(evidence.Malformed):
        evidence.probe_answer(answer)


def test_probe_answers_pass_through_as_plain_data():
    outcome = plain.to_plain({"type": "int", "values": 3})
    assert evidence.probe_answer({"outcome": outcome}) == outcome
    assert evidence.probe_answer({"undefined": True}) is None


@pytest.mark.parametrize(
    "data",
    [
        {"__array__": {"dtype": "float64", "shape": [-1], "data": ""}},
        {"__array__": {"dtype": "float64", "shape": [10**9], "data": ""}},
        {"__array__": {"dtype": "float64", "shape": [2], "data": "!!"}},
        {"__tensor__": {"dtype": "complex128", "shape": [1], "data": ""}},
        {"__tuple__": [1], "x": 2},
        {"__weird__": 1},
        {1, 2},
    ],
)
def test_plain_data_rejects_anything_it_does_not_know(data):
    with pytest.raises((ValueError, TypeError)):
        plain.from_plain(data)
