"""A second route to an EXR frame's pixels, for the tests: OpenEXR's scanline file layout
(openexr.com, "OpenEXR File Layout") decoded with zlib and numpy alone, no EXR library.
It knows what starlens writes: scanline parts (a single-part or a multi-part file), NO or ZIP
compression."""
import struct
import zlib

import numpy as np

PIXEL_TYPES = {0: np.dtype("<u4"), 1: np.dtype("<f2"), 2: np.dtype("<f4")}
LINES_PER_BLOCK = {0: 1, 3: 16}  # NO_COMPRESSION, ZIP_COMPRESSION


def _headers(data):
    """The headers of every part (attributes as (type name, raw bytes)), the offset of the
    first offset table, and whether the file is multi-part."""
    assert data[:4] == b"\x76\x2f\x31\x01", "not an OpenEXR file"
    version, = struct.unpack_from("<I", data, 4)
    multipart = bool(version & 0x1000)
    position, headers = 8, []
    while True:
        attributes = {}
        while data[position] != 0:
            name_end = data.index(b"\0", position)
            type_end = data.index(b"\0", name_end + 1)
            name = data[position:name_end].decode()
            kind = data[name_end + 1:type_end].decode()
            size, = struct.unpack_from("<i", data, type_end + 1)
            value = data[type_end + 5:type_end + 5 + size]
            attributes[name] = (kind, value)
            position = type_end + 5 + size
        position += 1
        headers.append(attributes)
        if not multipart or data[position] == 0:
            break
    if multipart:
        position += 1  # the empty header that ends the list
    return headers, position, multipart


def _channels(value):
    channels, position = [], 0
    while value[position] != 0:
        end = value.index(b"\0", position)
        pixel_type, = struct.unpack_from("<i", value, end + 1)
        channels.append((value[position:end].decode(), PIXEL_TYPES[pixel_type]))
        position = end + 1 + 16
    return channels


def _unzip(block, size):
    raw = np.frombuffer(zlib.decompress(block), dtype=np.uint8)
    assert raw.size == size
    # Undo the byte predictor (each byte stored as the difference to the previous + 128) ...
    # t[i] = t[i-1] + raw[i] - 128 with t[0] = raw[0], modulo 256.
    restored = ((np.cumsum(raw.astype(np.int64) - 128) + 128) & 0xFF).astype(np.uint8)
    # ... and the split into even and odd bytes.
    out = np.empty(size, dtype=np.uint8)
    half = (size + 1) // 2
    out[0::2] = restored[:half]
    out[1::2] = restored[half:]
    return out.tobytes()


def _blocks(attributes):
    compression = attributes["compression"][1][0]
    x0, y0, x1, y1 = struct.unpack("<4i", attributes["dataWindow"][1])
    lines = LINES_PER_BLOCK[compression]
    return (y1 - y0 + 1 + lines - 1) // lines


def read_channels(path, part_name=None):
    """{channel name: (height, width) array of its stored type}, and the header's attributes
    as (type name, raw bytes), of the part named `part_name` (the first part when None)."""
    with open(path, "rb") as file:
        data = file.read()
    headers, position, multipart = _headers(data)
    names = [header.get("name", ("string", b""))[1].decode() for header in headers]
    part = 0 if part_name is None else names.index(part_name)
    attributes = headers[part]
    # The offset tables of the parts follow the headers, one after the other.
    for earlier in headers[:part]:
        position += 8 * _blocks(earlier)
    compression = attributes["compression"][1][0]
    x0, y0, x1, y1 = struct.unpack("<4i", attributes["dataWindow"][1])
    width, height = x1 - x0 + 1, y1 - y0 + 1
    channels = _channels(attributes["channels"][1])
    lines = LINES_PER_BLOCK[compression]
    blocks = _blocks(attributes)
    offsets = struct.unpack_from(f"<{blocks}Q", data, position)
    planes = {name: np.empty((height, width), dtype=dtype) for name, dtype in channels}
    line_bytes = sum(width * dtype.itemsize for _, dtype in channels)
    for offset in offsets:
        if multipart:
            stored_part, = struct.unpack_from("<i", data, offset)
            assert stored_part == part, "a chunk of another part in this part's table"
            offset += 4
        y, size = struct.unpack_from("<ii", data, offset)
        rows = min(lines, y1 + 1 - y)
        block = data[offset + 8:offset + 8 + size]
        if size < rows * line_bytes:
            block = _unzip(block, rows * line_bytes)
        at = 0
        for row in range(y - y0, y - y0 + rows):
            for name, dtype in channels:
                count = width * dtype.itemsize
                planes[name][row] = np.frombuffer(block, dtype=dtype, count=width, offset=at)
                at += count
    return planes, attributes
