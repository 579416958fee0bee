"""The event stream, events.sle (docs/formats/events.md), read chunk by chunk.

The checks are those of the C++ EventReader (common/events/event_reader.cpp), in its order and
with its messages: header fields, chunk magic, sequence, capacity, truncation, each payload's
XXH3-64 checksum (libxxhash through python3-xxhash), each record's fields, the end chunk and
nothing after it. Only one chunk's records are in memory at a time (plus what the caller keeps).
"""
import os
import struct
import sys
from dataclasses import dataclass

from ._modules import require
from .errors import FormatError

np = require("numpy")
xxhash = require("xxhash")

FILE_MAGIC = b"STLNEVT1"
CHUNK_MAGIC = b"CHNK"
FILE_HEADER_BYTES = 256
FILE_HEADER_USED_BYTES = 80
CHUNK_HEADER_BYTES = 32
RECORD_BYTES = 56
STREAM_VERSION = 1
KNOWN_FLAGS = 0x1  # bit 0: produce scatter's control stream

# One record: StarEvent's memory image, seven little-endian binary64.
EVENT_FIELDS = ("x", "y", "r", "g", "b", "flux", "support")
EVENT_DTYPE = np.dtype([(name, "<f8") for name in EVENT_FIELDS])
assert EVENT_DTYPE.itemsize == RECORD_BYTES

# The file's read buffer (chunk headers come through it; payloads are read straight into their
# arrays).
READ_BUFFER_BYTES = 1 << 20
# Bytes skipped at a time when a chunk outside chunk_range is passed over on a pipe.
_SKIP_PIECE = 1 << 20


@dataclass
class Chunk:
    """One data chunk: its sequence number, the triangle range of its header (informational)
    and its records as a numpy structured array of EVENT_DTYPE (fields x, y, r, g, b, flux,
    support, all float64; x, y and support in pixels, r, g, b the colour normalised to Y = 1,
    flux the luminance in Vega units)."""

    sequence: int
    first_triangle: int
    last_triangle: int
    events: "np.ndarray"


def _number(value):
    """The shortest text that reads back as the same double, as the C++ tools print it."""
    text = repr(float(value))
    return text[:-2] if text.endswith(".0") else text


def _hex(data):
    return " ".join(f"{byte:02x}" for byte in data)


def _record_problem(record):
    """The first problem of one record, in the C++ reader's order."""
    values = [float(record[name]) for name in EVENT_FIELDS]
    for name, value in zip(EVENT_FIELDS, values):
        if value != value:
            return f"{name} is NaN"
        if value in (float("inf"), float("-inf")):
            return f"{name} is infinite"
    for name, value in zip(EVENT_FIELDS[2:6], values[2:6]):
        if value < 0:
            return f"{name} is negative ({_number(value)})"
    return f"support must be > 0 (got {_number(values[6])})"


def _first_invalid(events):
    """Index of the first invalid record, or None."""
    values = events.view("<f8").reshape(len(events), len(EVENT_FIELDS))
    valid = np.isfinite(values).all(axis=1)
    valid &= (values[:, 2:6] >= 0).all(axis=1)
    valid &= values[:, 6] > 0
    if valid.all():
        return None
    return int(np.argmin(valid))


class EventStream:
    """An open event stream. ``header`` holds the file header's fields; iterating yields its
    data chunks (Chunk) in order, each checked before it is handed out. A full pass also
    checks the end chunk and that nothing follows it. Use as a context manager, or close()."""

    def __init__(self, path, chunk_range=None):
        self.path = os.fspath(path)
        self.name = "stdin" if self.path == "-" else self.path
        self._first, self._end = self._parse_range(chunk_range)
        self.chunks_read = 0  # data chunks handed out
        self.events_read = 0  # records handed out
        self.complete = False  # the end chunk was reached and checked
        if self.path == "-":
            self._file = sys.stdin.buffer
            self._owns = False
            self._size = None
        else:
            if os.path.isdir(self.path):
                raise FormatError(self.path, "", "is a folder, not an event stream")
            self._file = open(self.path, "rb", buffering=READ_BUFFER_BYTES)
            self._owns = True
            status = os.fstat(self._file.fileno())
            self._size = status.st_size if os.path.isfile(self.path) else None
        self._next_sequence = 0
        self._iterating = False
        try:
            self.header = self._read_file_header()
        except BaseException:
            self.close()
            raise

    @staticmethod
    def _parse_range(chunk_range):
        if chunk_range is None:
            return 0, None
        if isinstance(chunk_range, range):
            if chunk_range.step != 1:
                raise ValueError("chunk_range: only consecutive chunks (step 1)")
            return chunk_range.start, chunk_range.stop
        first, end = chunk_range
        if first < 0 or (end is not None and end < first):
            raise ValueError(f"chunk_range: ({first}, {end}) is not a range of chunk numbers")
        return first, end

    def __enter__(self):
        return self

    def __exit__(self, *exception):
        self.close()

    def close(self):
        if self._owns and not self._file.closed:
            self._file.close()

    def _fail(self, field, reason):
        raise FormatError(self.name, field, reason)

    def _read(self, size):
        data = self._file.read(size)
        return data if data is not None else b""

    def _read_file_header(self):
        data = self._read(FILE_HEADER_BYTES)
        if not data:
            self._fail("", "empty file: not an event stream")
        if data[: len(FILE_MAGIC)] != FILE_MAGIC[: len(data)]:
            self._fail("", f'not an event stream (magic {_hex(data[:8])}, expected "STLNEVT1")')
        if len(data) < FILE_HEADER_BYTES:
            self._fail("truncated", f"file header is {len(data)} of {FILE_HEADER_BYTES} bytes")
        version, record_size = struct.unpack_from("<II", data, 8)
        if version != STREAM_VERSION:
            self._fail("header: version", f"unsupported version {version} (this reader reads "
                       f"version {STREAM_VERSION})")
        if record_size != RECORD_BYTES:
            self._fail("header: record size", f"is {record_size}, expected {RECORD_BYTES}")
        capacity, width, height, flags = struct.unpack_from("<IIII", data, 16)
        fwhm, beta = struct.unpack_from("<dd", data, 32)
        cache_radius, phases = struct.unpack_from("<ii", data, 48)
        min_y, relative_tail, max_radius = struct.unpack_from("<ddd", data, 56)
        header = {
            "version": version, "chunk_capacity": capacity, "width": width, "height": height,
            "flags": flags, "fwhm": fwhm, "beta": beta, "cache_radius": cache_radius,
            "phases": phases, "min_y": min_y, "relative_tail": relative_tail,
            "max_radius": max_radius,
        }
        require_field = lambda ok, field, reason: ok or self._fail("header: " + field, reason)
        require_field(capacity > 0, "chunk capacity", "must be > 0")
        require_field(width > 0, "width", "must be > 0")
        require_field(height > 0, "height", "must be > 0")
        require_field(flags & ~KNOWN_FLAGS == 0, "flags",
                      f"unknown flag bits {flags & ~KNOWN_FLAGS:#x}")
        for field in ("fwhm", "beta", "min_y", "relative_tail", "max_radius"):
            value = header[field]
            require_field(np.isfinite(value), field, f"is not finite ({_number(value)})")
        require_field(fwhm > 0, "fwhm", f"must be > 0 (got {_number(fwhm)})")
        require_field(beta > 1, "beta", f"must be > 1 (got {_number(beta)})")
        require_field(cache_radius >= 0, "cache radius", f"must be >= 0 (got {cache_radius})")
        require_field(phases >= 1, "phases", f"must be >= 1 (got {phases})")
        require_field(min_y >= 0, "min_y", f"must be >= 0 (got {_number(min_y)})")
        require_field(relative_tail > 0, "relative_tail",
                      f"must be > 0 (got {_number(relative_tail)})")
        require_field(max_radius > 0, "max_radius", f"must be > 0 (got {_number(max_radius)})")
        for at in range(FILE_HEADER_USED_BYTES, FILE_HEADER_BYTES):
            require_field(data[at] == 0, "padding",
                          f"byte {at} is not zero (reserved bytes must be zero)")
        return header

    def _read_chunk_header(self):
        field = f"chunk {self._next_sequence}"
        data = self._read(CHUNK_HEADER_BYTES)
        if not data:
            self._fail("truncated", "stream ends without its end chunk "
                       f"(after {self._next_sequence} chunks)")
        if len(data) < CHUNK_HEADER_BYTES:
            self._fail(field, f"truncated: chunk header is {len(data)} of "
                       f"{CHUNK_HEADER_BYTES} bytes")
        if data[:4] != CHUNK_MAGIC:
            self._fail(field, f'bad chunk magic ({_hex(data[:4])}, expected "CHNK")')
        count, sequence, first, last, checksum = struct.unpack_from("<IQIIQ", data, 4)
        if sequence != self._next_sequence:
            self._fail(field, f"sequence number is {sequence}, expected {self._next_sequence} "
                       "(a chunk is missing or out of order)")
        if count > self.header["chunk_capacity"]:
            self._fail(field, f"count {count} exceeds the chunk capacity "
                       f"{self.header['chunk_capacity']}")
        return count, first, last, checksum

    def _read_payload(self, count, checksum):
        field = f"chunk {self._next_sequence}"
        events = np.empty(count, dtype=EVENT_DTYPE)
        buffer = memoryview(events).cast("B")
        got = 0
        while got < len(buffer):
            read = self._file.readinto(buffer[got:])
            if not read:
                break
            got += read
        if got < len(buffer):
            self._fail(field, f"truncated: payload is {got} of {len(buffer)} bytes")
        if xxhash.xxh3_64_intdigest(buffer) != checksum:
            self._fail(field, "checksum mismatch (payload corrupt)")
        bad = _first_invalid(events)
        if bad is not None:
            self._fail(f"{field} record {bad}", _record_problem(events[bad]))
        return events

    def _skip_payload(self, count):
        size = count * RECORD_BYTES
        if self._size is not None:
            start = self._file.tell()
            if start + size > self._size:
                self._fail(f"chunk {self._next_sequence}",
                           f"truncated: payload is {self._size - start} of {size} bytes")
            self._file.seek(size, os.SEEK_CUR)
            return
        left = size
        while left > 0:
            piece = self._read(min(left, _SKIP_PIECE))
            if not piece:
                self._fail(f"chunk {self._next_sequence}",
                           f"truncated: payload is {size - left} of {size} bytes")
            left -= len(piece)

    def _finish(self, checksum):
        if checksum != xxhash.xxh3_64_intdigest(b""):
            self._fail(f"chunk {self._next_sequence}", "checksum mismatch (payload corrupt)")
        if self._read(1):
            self._fail("end chunk", "trailing data after the end chunk")
        self.complete = True

    def __iter__(self):
        if self._iterating:
            raise RuntimeError(f"{self.name}: an event stream can be iterated only once")
        self._iterating = True
        try:
            while self._end is None or self._next_sequence < self._end:
                count, first, last, checksum = self._read_chunk_header()
                if count == 0:
                    self._finish(checksum)
                    return
                if self._next_sequence < self._first:
                    self._skip_payload(count)
                    self._next_sequence += 1
                    continue
                events = self._read_payload(count, checksum)
                self._next_sequence += 1
                self.chunks_read += 1
                self.events_read += count
                yield Chunk(self._next_sequence - 1, first, last, events)
        except OSError as error:
            raise OSError(f"{self.name}: read failed: {error.strerror or error}") from error
        finally:
            self.close()


def read_events(path, chunk_range=None):
    """Opens the event stream at `path` (``"-"``: standard input) and checks its header.

    Returns an EventStream: ``stream.header`` (dict of the header's fields) and, iterated, one
    Chunk per data chunk. ``chunk_range=(first, end)`` (or a ``range``) yields only the chunks
    numbered first <= n < end (``end`` None: to the end of the stream); chunks before it have
    their headers checked and payloads skipped, unread (seeked over in a file), and reading
    stops after chunk end - 1, so the end chunk is checked only by a pass that reaches it.
    Raises FormatError naming the file, the chunk (and record) and the problem."""
    return EventStream(path, chunk_range)
