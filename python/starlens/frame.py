"""A frame, frame.exr (docs/formats/frame.md), through OpenImageIO (python3-openimageio).

Format version 2 is a two-part file: part (subimage) 0 "rgba" holds the FLOAT R, G, B a viewer
shows, the values divided by ``starlensExposure``; part 1 "exact" holds the exact value of each
channel as two UINT channels, ``f64hi.C`` and ``f64lo.C``, the high and low 32 bits of the
binary64 pattern, which OpenImageIO hands out unconverted when they are read as uint32.
Version 1 files (one part, ``C.f64hi``/``C.f64lo``) are read too. The checks follow the C++
reader (common/frame/exr_reader.cpp).
"""
import os
from dataclasses import dataclass, field

from ._modules import require
from .errors import FormatError

np = require("numpy")
oiio = require("OpenImageIO")

EXR_MAGIC = b"\x76\x2f\x31\x01"
FRAME_FORMAT_VERSION = 2
COLOURS = ("R", "G", "B")
EXACT_PART = "exact"
FORMAT_VERSION_ATTRIBUTE = "starlensFormatVersion"
RUN_DIGEST_ATTRIBUTE = "starlensRunDigest"
EXPOSURE_ATTRIBUTE = "starlensExposure"


@dataclass
class Frame:
    """A frame in linear sRGB, in the flux unit of docs/design.md (Y = 1: a V = 0 star).

    ``rgb``: float64 (height, width, 3), the exact values (``exact``) or, for a file without the
    exact channels, the FLOAT/HALF channels widened (times the exposure); ``r``, ``g``, ``b``:
    views of its channels. ``rgb_float``: float32 (height, width, 3), the FLOAT channels a
    viewer shows: the values divided by ``exposure``. Row 0 is the top of the image.
    ``attributes``: part 0's header attributes by name (the camera, the scene, the frame
    number: docs/formats/frame.md); ``format_version`` 0, ``run_digest`` "" and ``exposure`` 1
    when the file does not carry them."""

    path: str
    width: int
    height: int
    rgb: "np.ndarray"
    rgb_float: "np.ndarray"
    exact: bool
    format_version: int
    run_digest: str
    exposure: float = 1.0
    attributes: dict = field(default_factory=dict)

    @property
    def r(self):
        return self.rgb[:, :, 0]

    @property
    def g(self):
        return self.rgb[:, :, 1]

    @property
    def b(self):
        return self.rgb[:, :, 2]


def _require_openable(path):
    if os.path.isdir(path):
        raise FormatError(path, "", "is a folder, not an OpenEXR file")
    with open(path, "rb") as file:
        magic = file.read(4)
    if magic != EXR_MAGIC:
        raise FormatError(path, "", "not an OpenEXR file (wrong magic number)")


# The numpy type OpenImageIO must hand out for each requested base type: a type name it does
# not know would silently give float.
_NUMPY_TYPES = {oiio.FLOAT: np.float32, oiio.UINT: np.uint32}


def _read_range(image, path, spec, first, end, base_type, subimage):
    """Channels [first, end) of `subimage` as (height, width, end - first) of `base_type`,
    unconverted when it is their stored type."""
    pixels = image.read_image(subimage, 0, first, end, base_type)
    if pixels is None:
        raise FormatError(path, "pixel data", "unreadable (truncated or corrupt file): "
                          + (image.geterror() or oiio.geterror()))
    pixels = np.asarray(pixels)
    if pixels.dtype != _NUMPY_TYPES[base_type]:
        raise RuntimeError(f"{path}: OpenImageIO returned {pixels.dtype} for {base_type}")
    return pixels.reshape(spec.height, spec.width, end - first)


def _read_channel_block(image, path, spec, indices, base_type, subimage=0):
    """The channels at `indices`, in that order: one read when they are adjacent."""
    first, last = min(indices), max(indices)
    if sorted(indices) != list(range(first, last + 1)):
        planes = [_read_range(image, path, spec, i, i + 1, base_type, subimage) for i in indices]
        return np.concatenate(planes, axis=-1)
    block = _read_range(image, path, spec, first, last + 1, base_type, subimage)
    return block[:, :, [index - first for index in indices]]


def read_frame(path):
    """Reads the frame at `path` (see Frame). Raises FormatError naming the file and the field
    for a file that is not an OpenEXR frame, is truncated or corrupt, lacks R, G or B, has an
    exact channel that is not UINT, a data window other than the display window, a
    starlensFormatVersion other than 1 or 2, or a version 2 file without its part "exact"."""
    path = os.fspath(path)
    _require_openable(path)
    image = oiio.ImageInput.open(path)
    if image is None:
        raise FormatError(path, "header", "unreadable OpenEXR file: " + oiio.geterror())
    try:
        return _read_open_frame(image, path)
    finally:
        image.close()


def _window_and_names(spec, path, field_prefix=""):
    data_window = (spec.x, spec.y, spec.width, spec.height)
    display_window = (spec.full_x, spec.full_y, spec.full_width, spec.full_height)
    if data_window != display_window:
        raise FormatError(path, field_prefix + "dataWindow", f"{data_window} (x, y, width, "
                          f"height) differs from the display window {display_window}")
    if spec.width <= 0 or spec.height <= 0 or spec.depth > 1 or spec.tile_depth > 1:
        raise FormatError(path, field_prefix + "dataWindow", "not a 2-D image with pixels")
    names = list(spec.channelnames)
    formats = [spec.channelformat(i).basetype for i in range(spec.nchannels)]
    return names, formats


def _word_indices(path, names, formats, word_names):
    """Indices of the word channels present, in the order of `word_names`; a word channel that
    is not UINT is refused."""
    indices = []
    for name in word_names:
        if name not in names:
            continue
        index = names.index(name)
        if formats[index] != oiio.UINT:
            raise FormatError(path, f"channel {name}", "is not of type UINT")
        indices.append(index)
    return indices


def _version_and_digest(path, attributes):
    format_version = 0
    if FORMAT_VERSION_ATTRIBUTE in attributes:
        value = attributes[FORMAT_VERSION_ATTRIBUTE]
        if not isinstance(value, int):
            raise FormatError(path, FORMAT_VERSION_ATTRIBUTE, "is not an int")
        if not 1 <= value <= FRAME_FORMAT_VERSION:
            raise FormatError(path, FORMAT_VERSION_ATTRIBUTE, f"version {value} is not "
                              f"supported (this reader knows 1..{FRAME_FORMAT_VERSION})")
        format_version = value
    run_digest = ""
    if RUN_DIGEST_ATTRIBUTE in attributes:
        value = attributes[RUN_DIGEST_ATTRIBUTE]
        if not isinstance(value, str):
            raise FormatError(path, RUN_DIGEST_ATTRIBUTE, "is not a string")
        run_digest = value
    exposure = 1.0
    if EXPOSURE_ATTRIBUTE in attributes:
        value = attributes[EXPOSURE_ATTRIBUTE]
        if not isinstance(value, float) or not np.isfinite(value) or value <= 0:
            raise FormatError(path, EXPOSURE_ATTRIBUTE, f"{value!r} is not a positive, finite "
                              "exposure")
        exposure = value
    return format_version, run_digest, exposure


def _exact_subimage(image, path, spec):
    """The subimage named "exact" and its spec (format version 2)."""
    subimage = 1
    while image.seek_subimage(subimage, 0):
        part = image.spec()
        if part.getattribute("oiio:subimagename") == EXACT_PART:
            if (part.x, part.y, part.width, part.height) != (spec.x, spec.y, spec.width,
                                                             spec.height):
                raise FormatError(path, f"part {EXACT_PART} dataWindow", "differs from part 0's")
            return subimage, part
        subimage += 1
    raise FormatError(path, f"part {EXACT_PART}", f"missing (format version 2 keeps the exact "
                      f"values in a part named exact; the file has {subimage} part(s))")


def _read_open_frame(image, path):
    spec = image.spec()
    if image.format_name() != "openexr":
        raise FormatError(path, "", f"not an OpenEXR file ({image.format_name()})")
    names, formats = _window_and_names(spec, path)
    attributes = {attribute.name: attribute.value for attribute in spec.extra_attribs}
    format_version, run_digest, exposure = _version_and_digest(path, attributes)

    exact_subimage, exact_indices = 0, []
    if format_version >= 2:
        exact_subimage, exact_spec = _exact_subimage(image, path, spec)
        exact_names, exact_formats = _window_and_names(exact_spec, path, f"part {EXACT_PART} ")
        word_names = [f"{word}.{colour}" for colour in COLOURS for word in ("f64hi", "f64lo")]
        exact_indices = _word_indices(path, exact_names, exact_formats, word_names)
        if len(exact_indices) != 6:
            raise FormatError(path, f"part {EXACT_PART}", "lacks the six word channels "
                              f"(channels present: {' '.join(exact_names) or 'none'})")
        image.seek_subimage(0, 0)
    else:
        exact_spec = spec
        word_names = [f"{colour}.{word}" for colour in COLOURS for word in ("f64hi", "f64lo")]
        exact_indices = _word_indices(path, names, formats, word_names)
    exact = len(exact_indices) == 6

    def index_of(name):
        return names.index(name) if name in names else None

    colour_indices = [index_of(colour) for colour in COLOURS]
    for colour, index in zip(COLOURS, colour_indices):
        if index is None and not exact:
            raise FormatError(path, f"channel {colour}",
                              f"missing (channels present: {' '.join(names) or 'none'})")
        if index is not None and formats[index] not in (oiio.FLOAT, oiio.HALF):
            raise FormatError(path, f"channel {colour}", "is not of type FLOAT or HALF")

    rgb_float = None
    if None not in colour_indices:
        rgb_float = np.ascontiguousarray(
            _read_channel_block(image, path, spec, colour_indices, oiio.FLOAT), dtype=np.float32)
    if exact:
        words = _read_channel_block(image, path, exact_spec, exact_indices, oiio.UINT,
                                    exact_subimage)
        words = words.astype(np.uint64)
        bits = (words[:, :, 0::2] << np.uint64(32)) | words[:, :, 1::2]
        rgb = np.ascontiguousarray(bits).view(np.float64)
    else:
        rgb = rgb_float.astype(np.float64) * exposure
    if rgb_float is None:  # exact channels only: what a viewer would get from them
        with np.errstate(over="ignore"):
            rgb_float = np.minimum(rgb / exposure, np.finfo(np.float32).max).astype(np.float32)
    return Frame(path, spec.width, spec.height, rgb, rgb_float, exact, format_version,
                 run_digest, exposure, attributes)
