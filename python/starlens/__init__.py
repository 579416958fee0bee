"""Readers for the files the starlens tools write (docs/python.md).

read_frame     frame.exr     -> Frame (exact float64 RGB, the viewer's float RGB, header)
read_events    events.sle    -> EventStream of per-chunk numpy structured arrays
read_lensmap   lensmap.h5    -> Lensmap (numpy arrays, attributes and their units)
read_catalog   catalog.h5    -> astropy Table with units
read_manifest  *.manifest.json -> dict; verify_output(manifest, path) checks an output's hash
"""
from .errors import FormatError
from .manifest import read_manifest, tree_sha256, verify_output
from .events import EVENT_DTYPE, Chunk, EventStream, read_events
from .frame import Frame, read_frame
from .lensmap import Lensmap, read_lensmap
from .catalog import read_catalog

__version__ = "0.1.0"
__all__ = [
    "FormatError", "read_frame", "Frame", "read_events", "EventStream", "Chunk", "EVENT_DTYPE",
    "read_lensmap", "Lensmap", "read_catalog", "read_manifest", "verify_output", "tree_sha256",
]
