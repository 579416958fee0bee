"""Readers for the files the starlens tools write (docs/python.md).

read_frame     frame.exr     -> Frame (exact float64 RGB, the viewer's float RGB, header)
read_events    events.sle    -> EventStream of per-chunk numpy structured arrays
read_lensmap   lensmap.h5    -> Lensmap (numpy arrays, attributes and their units)
read_catalog   catalog.h5    -> astropy Table with units
read_manifest  *.manifest.json -> dict; verify_output(manifest, path) checks an output's hash

Each reader's modules are imported when it is first used: reading events needs only numpy and
xxhash, not astropy or OpenImageIO (which take seconds and ~100 MB to import).
"""
import importlib

from .errors import FormatError
from .manifest import Manifest, read_manifest, tree_sha256, verify_output

__version__ = "0.1.0"

_LAZY = {
    "read_events": "events", "EventStream": "events", "Chunk": "events", "EVENT_DTYPE": "events",
    "read_frame": "frame", "Frame": "frame",
    "read_lensmap": "lensmap", "Lensmap": "lensmap",
    "read_catalog": "catalog",
}
__all__ = ["FormatError", "read_manifest", "Manifest", "verify_output", "tree_sha256",
           *_LAZY]


def __getattr__(name):
    if name in _LAZY:
        value = getattr(importlib.import_module(f".{_LAZY[name]}", __name__), name)
        globals()[name] = value
        return value
    raise AttributeError(f"module 'starlens' has no attribute {name!r}")


def __dir__():
    return sorted(set(globals()) | set(_LAZY))
