"""Length-prefixed JSON messages over pipes and sockets, with a size cap and a deadline: no pickle anywhere."""

import json
import os
import select
import struct
import time

HEADER = struct.Struct("!Q")


class ProtocolError(Exception):
    """A message was cut short, too large, or not JSON."""


class Closed(ProtocolError):
    """The other side closed the channel (it exited or was killed)."""


class TimedOut(Exception):
    """No whole message arrived before the deadline."""


def encode(message):
    """A message's bytes; a value JSON cannot hold (bytes, objects) is sent as its repr."""
    data = json.dumps(message, default=lambda value: repr(value)[:1000]).encode()
    return HEADER.pack(len(data)) + data


def write(fd, message):
    data = memoryview(encode(message))
    while data:
        data = data[os.write(fd, data) :]


def read_exactly(fd, size, deadline=None):
    chunks, left = [], size
    while left:
        if deadline is not None:
            remaining = deadline - time.monotonic()
            if remaining <= 0 or not select.select([fd], [], [], remaining)[0]:
                raise TimedOut()
        chunk = os.read(fd, min(left, 1 << 20))
        if not chunk:
            raise Closed("the other side closed the channel")
        chunks.append(chunk)
        left -= len(chunk)
    return b"".join(chunks)


def read(fd, limit, deadline=None):
    """One message of at most ``limit`` bytes, arriving before ``deadline`` (a time.monotonic() value)."""
    (size,) = HEADER.unpack(read_exactly(fd, HEADER.size, deadline))
    if size > limit:
        raise ProtocolError(f"a message of {size} bytes is over the limit of {limit}")
    try:
        return json.loads(read_exactly(fd, size, deadline))
    except (ValueError, RecursionError) as error:
        raise ProtocolError(f"not JSON: {str(error)[:200]}") from None
