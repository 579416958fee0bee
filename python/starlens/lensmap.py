"""The traced lens map, lensmap.h5 (docs/formats/lensmap.md), with the checks of the C++
LensmapReader (common/lensmap/lensmap_file.cpp)."""
from dataclasses import dataclass, field

from . import _hdf5
from ._modules import require
from .errors import FormatError

np = require("numpy")
u = require("astropy.units")

FORMAT = "starlens-lensmap"
VERSION = 2  # version 1 maps (status as plain uint8) are read too
# /vertices/status's enum from version 2 on.
STATUS_NAMES = {"escaped": 0, "captured": 1, "failed": 2}
DROP_REASONS = ("failed", "status", "orientation", "tolerance", "source_size", "degenerate")

# The hole's mass, the length unit of the map (G = c = 1): no SI value without the hole's mass.
M = u.def_unit("M", doc="mass of the black hole (geometrised units, G = c = 1)")

STRING_ATTRIBUTES = ("spacetime", "bh_frame", "projection")
FLOAT_ATTRIBUTES = {
    "mass": M, "r_obs": M,
    "bh_lon_deg": u.deg, "bh_lat_deg": u.deg, "bh_ra_deg": u.deg, "bh_dec_deg": u.deg,
    "look_dlon_deg": u.deg, "look_dlat_deg": u.deg, "look_ra_deg": u.deg, "look_dec_deg": u.deg,
    "roll_deg": u.deg, "fov_deg": u.deg, "mesh_step": u.pix, "mesh_tol": u.pix,
    "mesh_max_source_deg": u.deg,
}
# Kerr maps only (spacetime "kerr").
KERR_ATTRIBUTES = {"spin": M, "inclination_deg": u.deg, "spin_pa_deg": u.deg}
INT_ATTRIBUTES = {"width": u.pix, "height": u.pix, "mesh_max_depth": u.dimensionless_unscaled,
                  "shadow_triangles": u.dimensionless_unscaled}
INT_ATTRIBUTES.update({f"dropped_{reason}": u.dimensionless_unscaled for reason in DROP_REASONS})

# (dataset, columns (0: 1-D), stored type kind, numpy type read, rows like, unit)
DATASETS = {
    "/vertices/xy": (2, "f", np.float64, "/vertices/xy", u.pix),
    "/vertices/dir": (3, "f", np.float64, "/vertices/xy", u.dimensionless_unscaled),
    "/vertices/g": (0, "f", np.float64, "/vertices/xy", u.dimensionless_unscaled),
    "/vertices/status": (0, "iu", np.uint8, "/vertices/xy", None),
    "/triangles/v": (3, "iu", np.uint32, "/triangles/v", None),
    "/triangles/mu": (0, "f", np.float64, "/triangles/v", u.dimensionless_unscaled),
    "/triangles/parity": (0, "iu", np.int8, "/triangles/v", None),
    "/triangles/depth": (0, "iu", np.uint8, "/triangles/v", None),
}


@dataclass
class Lensmap:
    """A lens map. The arrays are named after their datasets (``vertices_xy`` is /vertices/xy):
    vertices_xy (N, 2) float64 px, vertices_dir (N, 3) float64 ICRS unit vectors (NaN unless
    escaped), vertices_g (N,) float64, vertices_status (N,) uint8 (0 escaped, 1 captured,
    2 failed: the file's enum, STATUS_NAMES), triangles_v (M, 3) uint32 vertex rows, triangles_mu (M,) float64,
    triangles_parity (M,) int8 (+-1), triangles_depth (M,) uint8.
    ``attributes``: the root attributes as str, int and float values; ``units``: the astropy
    unit of each numeric attribute and float dataset (``M`` is the hole's mass);
    ``quantity(name)``: an attribute or array as an astropy Quantity."""

    path: str
    attributes: dict
    vertices_xy: "np.ndarray"
    vertices_dir: "np.ndarray"
    vertices_g: "np.ndarray"
    vertices_status: "np.ndarray"
    triangles_v: "np.ndarray"
    triangles_mu: "np.ndarray"
    triangles_parity: "np.ndarray"
    triangles_depth: "np.ndarray"
    units: dict = field(default_factory=dict)

    def quantity(self, name):
        if name in self.attributes and name in self.units:
            return self.attributes[name] * self.units[name]
        array_name = "/" + name.replace("_", "/", 1)
        if array_name in self.units:
            return getattr(self, name) * self.units[array_name]
        raise KeyError(f"{name}: not a numeric attribute or float array of the lens map")


def _rows(file, name, columns, kind):
    node = _hdf5.dataset(file, name)
    if len(node.shape) != (2 if columns else 1) or (columns and node.shape[1] != columns):
        raise FormatError(file.filename, name, f"expected {columns} columns" if columns
                          else "expected a 1-D dataset")
    if node.dtype.kind not in kind:
        raise FormatError(file.filename, name,
                          "not floating point" if kind == "f" else "not an integer type")
    return node


def _bad_row(path, name, row, reason):
    raise FormatError(path, name, f"row {row}: {reason}")


def read_lensmap(path):
    """Reads the whole lens map at `path` (see Lensmap) and checks it as the C++ reader does:
    format and version, every attribute's presence and type, dataset shapes, type classes and
    row counts, and every row (finite positions, status 0/1/2, unit directions and positive g
    of escaped vertices, vertex indices in range, parity +-1, positive finite mu). Raises
    FormatError naming the file and the object."""
    with _hdf5.open_file(path) as file:
        name = file.filename
        if not _hdf5.has_attribute(file, "format"):
            raise FormatError(name, "attribute format", "missing: not a starlens lens map")
        format_name = _hdf5.attribute(file, "format", str)
        if format_name != FORMAT:
            raise FormatError(name, "attribute format", f"'{format_name}' is not {FORMAT}")
        version = _hdf5.attribute(file, "version", int)
        if version > VERSION:
            raise FormatError(name, "attribute version",
                              f"{version} is newer than this reader reads ({VERSION})")
        if version < 1:
            raise FormatError(name, "attribute version", "invalid")
        attributes = {"format": format_name, "version": version}
        for key in STRING_ATTRIBUTES:
            attributes[key] = _hdf5.attribute(file, key, str)
        attributes["ray_azimuth"] = (_hdf5.attribute(file, "ray_azimuth", str)
                                     if _hdf5.has_attribute(file, "ray_azimuth") else "closed-form")
        for key in FLOAT_ATTRIBUTES:
            attributes[key] = _hdf5.attribute(file, key, float)
        for key in INT_ATTRIBUTES:
            attributes[key] = _hdf5.attribute(file, key, int)
        if attributes["spacetime"] == "kerr":
            for key in KERR_ATTRIBUTES:
                attributes[key] = _hdf5.attribute(file, key, float)
        # Maps traced from a camera path (docs/usage/animation.md).
        if _hdf5.has_attribute(file, "path"):
            attributes["path"] = _hdf5.attribute(file, "path", str)
            attributes["path_frame"] = _hdf5.attribute(file, "path_frame", int)
            attributes["path_time"] = _hdf5.attribute(file, "path_time", float)
        if attributes["width"] < 1 or attributes["height"] < 1:
            raise FormatError(name, "attribute width/height", "image size must be positive")

        arrays = {}
        for dataset, (columns, kind, numpy_type, rows_like, _) in DATASETS.items():
            node = _rows(file, dataset, columns, kind)
            if dataset == "/vertices/status" and version >= 2 and \
                    _hdf5.h5py.check_enum_dtype(node.dtype) != STATUS_NAMES:
                raise FormatError(name, dataset, "not the enum {escaped 0, captured 1, failed 2}"
                                  " of uint8")
            if dataset != rows_like and node.shape[0] != arrays[rows_like].shape[0]:
                raise FormatError(name, dataset, f"has a different row count than {rows_like}")
            arrays[dataset] = _hdf5.read_rows(file, node, 0, node.shape[0], numpy_type)
    _check_rows(name, arrays)
    units = {**FLOAT_ATTRIBUTES, **INT_ATTRIBUTES}
    if attributes["spacetime"] == "kerr":
        units.update(KERR_ATTRIBUTES)
    units.update({k: v[4] for k, v in DATASETS.items() if v[4] is not None})
    return Lensmap(name, attributes, *[arrays[k] for k in DATASETS], units=units)


def _check_rows(name, arrays):
    xy, direction = arrays["/vertices/xy"], arrays["/vertices/dir"]
    g, status = arrays["/vertices/g"], arrays["/vertices/status"]
    vertex_count = len(xy)
    if vertex_count > 0xFFFFFFFF:
        raise FormatError(name, "/vertices/xy", "more vertices than uint32 indices address")
    checks = [
        ("/vertices/xy", ~np.isfinite(xy).all(axis=1), "not finite"),
        ("/vertices/status", status > 2, "not 0, 1 or 2"),
    ]
    escaped = status == 0
    with np.errstate(invalid="ignore"):
        unit = np.abs(np.sqrt((direction * direction).sum(axis=1)) - 1) < 1e-9
        positive_g = np.isfinite(g) & (g > 0)
    checks.append(("/vertices/dir", escaped & ~unit, "escaped vertex without a unit direction"))
    checks.append(("/vertices/g", escaped & ~positive_g, "escaped vertex without a positive g"))
    for dataset, bad, reason in checks:
        if bad.any():
            _bad_row(name, dataset, int(np.argmax(bad)), reason)
    v, mu, parity = arrays["/triangles/v"], arrays["/triangles/mu"], arrays["/triangles/parity"]
    beyond = (v >= vertex_count).any(axis=1)
    if beyond.any():
        row = int(np.argmax(beyond))
        index = int(v[row][v[row] >= vertex_count][0])
        _bad_row(name, "/triangles/v", row,
                 f"vertex {index} beyond the {vertex_count} vertices")
    bad_parity = (parity != 1) & (parity != -1)
    if bad_parity.any():
        _bad_row(name, "/triangles/parity", int(np.argmax(bad_parity)), "not +-1")
    with np.errstate(invalid="ignore"):
        bad_mu = ~(np.isfinite(mu) & (mu > 0))
    if bad_mu.any():
        _bad_row(name, "/triangles/mu", int(np.argmax(bad_mu)),
                 "not a positive finite magnification")
