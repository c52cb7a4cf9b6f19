"""Length-prefixed JSON messages over pipes, with a size cap: no pickle anywhere."""
import json
import os
import struct

HEADER = struct.Struct("!Q")


class ProtocolError(Exception):
    """A message was cut short, too large, or not JSON."""


def encode(message):
    data = json.dumps(message).encode()
    return HEADER.pack(len(data)) + data


def write(fd, message):
    data = memoryview(encode(message))
    while data:
        data = data[os.write(fd, data):]


def read_exactly(fd, size):
    chunks, left = [], size
    while left:
        chunk = os.read(fd, min(left, 1 << 20))
        if not chunk:
            raise ProtocolError("the other side closed the pipe")
        chunks.append(chunk)
        left -= len(chunk)
    return b"".join(chunks)


def read(fd, limit):
    (size,) = HEADER.unpack(read_exactly(fd, HEADER.size))
    if size > limit:
        raise ProtocolError(f"message of {size} bytes is over the limit of {limit}")
    try:
        return json.loads(read_exactly(fd, size))
    except ValueError as error:
        raise ProtocolError(f"not JSON: {error}") from None


class MessageBuffer:
    """Collects messages from a non-blocking pipe as bytes arrive, up to a total size."""

    def __init__(self, limit):
        self.data, self.limit, self.total = b"", limit, 0

    def feed(self, chunk):
        self.total += len(chunk)
        if self.total > self.limit:
            raise ProtocolError(f"more than {self.limit} bytes of results")
        self.data += chunk
        messages = []
        while len(self.data) >= HEADER.size:
            (size,) = HEADER.unpack(self.data[:HEADER.size])
            if len(self.data) < HEADER.size + size:
                break
            body, self.data = self.data[HEADER.size:HEADER.size + size], self.data[HEADER.size + size:]
            try:
                messages.append(json.loads(body))
            except ValueError:
                raise ProtocolError("not JSON") from None
        return messages
