"""The star catalogue store, catalog.h5 (docs/formats/catalog.md), as an astropy Table, with
the checks of the C++ CatalogStore (common/catalog/store_reader.cpp)."""
import json

from . import _hdf5
from ._modules import require
from .errors import FormatError

np = require("numpy")
u = require("astropy.units")
table = require("astropy.table")

FORMAT = "starlens-catalog"
VERSION = 2
MAX_ORDER = 12
# The compound rows of /stars/table and /stars/source, little-endian and packed as stored.
TABLE_DTYPE = np.dtype([("ra", "<f8"), ("dec", "<f8"), ("teff", "<f4"), ("flux", "<f4")])
SOURCE_DTYPE = np.dtype([("id", "<i8"), ("mag", "<f4")])


def _check_shape(file, name, expected):
    node = _hdf5.dataset(file, name)
    if tuple(node.shape) != tuple(expected):
        text = lambda dims: " x ".join(str(d) for d in dims)
        raise FormatError(file.filename, name,
                          f"shape {text(node.shape)}, expected {text(expected)}")
    return node


def _check_type(file, node, kind, size, expected):
    if node.dtype.kind not in kind or node.dtype.itemsize != size:
        raise FormatError(file.filename, node.name, f"not {expected}")


def _check_compound(file, node, dtype, expected):
    if node.dtype != dtype:
        raise FormatError(file.filename, node.name, f"not the compound {expected}")


def _nonnegative(file, name):
    value = _hdf5.attribute(file, name, int)
    if value < 0:
        raise FormatError(file.filename, f"attribute {name}", "negative")
    return value


def _json_attribute(file, name):
    text = _hdf5.attribute(file, name, str)
    try:
        return json.loads(text)
    except json.JSONDecodeError as error:
        raise FormatError(file.filename, f"attribute {name}", f"not JSON ({error.msg})") from None


def read_catalog(path, cells=None):
    """Reads the store at `path` as an astropy Table, one row a star in the file's order
    (HEALPix NESTED cell, then position):

    ``ra``, ``dec`` float64 [deg] (ICRS), ``teff`` float32 [K], ``flux`` float32 [Jy] (flux
    density in the reference band), ``id`` int64 (the star's identifier in its catalogue,
    ``meta['id_scheme']`` says which), ``mag`` float32 [mag] (its catalogue magnitude in the
    reference band), ``cell`` int64 (the NESTED cell at the store's order).
    ``table.meta``: the root attributes (``order``, ``count``, ``band``, ``F0`` [Jy] and
    ``band_wavelength_um`` as plain numbers; ``sources`` and ``generator`` parsed from JSON).
    ``cells=(first, end)`` reads only the stars of cells first <= c < end (only those rows are
    read from disk). Raises FormatError naming the file and the object for anything the C++
    reader refuses: format, version (version 1 stores by name), order, count, scheme, angle
    unit, band attributes, the three datasets' shapes and types, offsets not starting at 0, decreasing or not ending at the
    count, and rows that are not a position or a positive temperature and flux."""
    with _hdf5.open_file(path) as file:
        name = file.filename
        format_name = _hdf5.attribute(file, "format", str)
        if format_name != FORMAT:
            raise FormatError(name, "attribute format", f"'{format_name}' is not {FORMAT}")
        version = _hdf5.attribute(file, "version", int)
        if version == 1:
            raise FormatError(name, "attribute version",
                              "1: a store without star ids, written by an earlier "
                              f"starlens-catalog (this reader reads version {VERSION}; "
                              "ingest the catalogue again)")
        if version != VERSION:
            raise FormatError(name, "attribute version",
                              f"{version} unsupported (this reader reads {VERSION})")
        order = _nonnegative(file, "order")
        if order > MAX_ORDER:
            raise FormatError(name, "attribute order", f"{order} above {MAX_ORDER}")
        count = _nonnegative(file, "count")
        if _hdf5.attribute(file, "healpix_scheme", str) != "NESTED":
            raise FormatError(name, "attribute healpix_scheme", "not NESTED")
        if _hdf5.attribute(file, "ra_dec_unit", str) != "deg":
            raise FormatError(name, "attribute ra_dec_unit", "not deg")
        meta = {"format": format_name, "version": version, "order": order, "count": count,
                "healpix_scheme": "NESTED", "frame": _hdf5.attribute(file, "frame", str)
                if _hdf5.has_attribute(file, "frame") else "ICRS", "ra_dec_unit": "deg",
                "band": _hdf5.attribute(file, "band", str)}
        for key in ("F0", "band_wavelength_um"):
            value = _hdf5.attribute(file, key, float)
            if not (np.isfinite(value) and value > 0):
                raise FormatError(name, f"attribute {key}", "not a positive number")
            meta[key] = value
        meta["teff_relation"] = _hdf5.attribute(file, "teff_relation", str)
        meta["sources"] = _json_attribute(file, "sources")
        meta["generator"] = _json_attribute(file, "generator")
        meta["id_scheme"] = _hdf5.attribute(file, "id_scheme", str)

        cell_count = 12 << (2 * order)
        star_table = _check_shape(file, "/stars/table", (count,))
        star_source = _check_shape(file, "/stars/source", (count,))
        offsets = _check_shape(file, "/cells/offsets", (cell_count + 1,))
        _check_compound(file, star_table, TABLE_DTYPE,
                        "{ra float64, dec float64, teff float32, flux float32}")
        _check_compound(file, star_source, SOURCE_DTYPE, "{id int64, mag float32}")
        _check_type(file, offsets, "iu", 8, "64-bit integers")
        ends = _hdf5.read_rows(file, offsets, 0, 1, np.int64)[0], \
            _hdf5.read_rows(file, offsets, cell_count, 1, np.int64)[0]
        if ends != (0, count):
            raise FormatError(name, "/cells/offsets",
                              f"first/last entry {ends[0]}/{ends[1]}, expected 0/{count}")

        first_cell, end_cell = (0, cell_count) if cells is None else cells
        if not 0 <= first_cell <= end_cell <= cell_count:
            raise FormatError(name, "cell range",
                              f"{first_cell}:{end_cell} outside 0:{cell_count}")
        cell_offsets = _hdf5.read_rows(file, offsets, first_cell, end_cell - first_cell + 1,
                                       np.int64)
        steps = np.diff(cell_offsets)
        beyond = (cell_offsets > count) | (cell_offsets < 0)
        if beyond.any() or (steps < 0).any():
            bad = int(np.argmax(beyond)) if beyond.any() else int(np.argmax(steps < 0)) + 1
            raise FormatError(name, "/cells/offsets",
                              f"entry {first_cell + bad} = {cell_offsets[bad]} is decreasing "
                              "or beyond the star count")
        first_row, rows = int(cell_offsets[0]), int(cell_offsets[-1] - cell_offsets[0])
        rows_read = _hdf5.read_rows(file, star_table, first_row, rows, TABLE_DTYPE)
        sources = _hdf5.read_rows(file, star_source, first_row, rows, SOURCE_DTYPE)

    ra, dec = rows_read["ra"], rows_read["dec"]
    temperatures, fluxes = rows_read["teff"], rows_read["flux"]
    bad = ~((ra >= 0) & (ra < 360) & (dec >= -90) & (dec <= 90))
    if bad.any():
        row = int(np.argmax(bad))
        raise FormatError(name, "/stars/table ra, dec", f"row {first_row + row} is not a "
                          f"position (ra {ra[row]:.6f}, dec {dec[row]:.6f})")
    bad = ~(np.isfinite(temperatures) & (temperatures > 0) & np.isfinite(fluxes) & (fluxes > 0))
    if bad.any():
        raise FormatError(name, "/stars/table teff, flux", f"row {first_row + int(np.argmax(bad))}"
                          " is not a positive temperature and flux")
    cell = np.repeat(np.arange(first_cell, end_cell, dtype=np.int64), steps)
    stars = table.Table(meta=meta)
    stars["ra"] = table.Column(np.ascontiguousarray(ra), unit=u.deg,
                               description="ICRS right ascension")
    stars["dec"] = table.Column(np.ascontiguousarray(dec), unit=u.deg,
                                description="ICRS declination")
    stars["teff"] = table.Column(np.ascontiguousarray(temperatures), unit=u.K,
                                 description="effective temperature")
    # A store of band G holds V flux densities (G converted by the Gaia G-V relation).
    flux_band = "V band (from Gaia G)" if meta["band"] == "G" else f"{meta['band']} band"
    stars["flux"] = table.Column(np.ascontiguousarray(fluxes), unit=u.Jy,
                                 description=f"flux density in the {flux_band}")
    stars["id"] = table.Column(np.ascontiguousarray(sources["id"]),
                               description=f"catalogue identifier: {meta['id_scheme']}")
    stars["mag"] = table.Column(np.ascontiguousarray(sources["mag"]), unit=u.mag,
                                description=f"catalogue magnitude in the {meta['band']} band")
    stars["cell"] = table.Column(cell, description=f"HEALPix NESTED cell at order {order}")
    return stars
