"""Pictures with colour bars and axes, drawn with matplotlib (python3-matplotlib).

raster_picture   a lens-map raster (``starlens-trace inspect --quantity ... --raster X.fits``):
                 one plane in the camera's sky coordinates (its FITS WCS) with a colour bar,
                 the critical curves over it and, beside it, the caustics: the source
                 directions of the critical-curve pixels, in the frame the hole was placed in
stage_picture    the phases of one or more runs from their manifests, in seconds

    python3 -m starlens.pictures raster mu.fits --plane mu -o mu.png
    python3 -m starlens.pictures stages out/*.manifest.json -o stages.png
"""
import argparse
import json
import sys

from ._modules import require
from .errors import FormatError

np = require("numpy")

# How each plane is coloured: (colour map, logarithmic), by the plane's name.
_STYLES = {
    "mu": ("inferno", True),
    "parity": ("coolwarm", False),
    "g": ("viridis", False),
    "deflection": ("magma", True),
    "source.lon": ("twilight", False),
    "source.lat": ("coolwarm", False),
    "critical": ("gray", False),
}


def _pyplot():
    require("matplotlib").use("Agg")  # files only: no display needed
    return require("matplotlib.pyplot")


def read_raster(path):
    """The planes of a FITS raster by name (float64 (height, width), row 0 the top of the
    picture), their units, and the camera's celestial WCS (astropy.wcs.WCS)."""
    fits = require("astropy.io.fits")
    wcs_module = require("astropy.wcs")
    with fits.open(path) as hdus:
        header = hdus[0].header
        data = hdus[0].data
        if data is None or data.ndim != 3:
            raise FormatError(path, "", "not a starlens raster (a cube of planes)")
        planes, units = {}, {}
        for k in range(data.shape[0]):
            name = header.get(f"PLANE{k + 1}")
            if name is None:
                raise FormatError(path, f"PLANE{k + 1}", "missing")
            planes[name] = np.asarray(data[k][::-1], dtype=np.float64)
            units[name] = header.get(f"UNIT{k + 1}", "")
        wcs = wcs_module.WCS(header).celestial
    return planes, units, wcs


def raster_picture(path, plane, png, dpi=150):
    """Draws `plane` of the raster at `path` into `png` (see the module's docstring)."""
    plt = _pyplot()
    colors = require("matplotlib.colors")
    planes, units, wcs = read_raster(path)
    if plane not in planes:
        raise FormatError(path, "", f"no plane {plane!r} (it holds {', '.join(planes)})")
    values = planes[plane]
    cmap, logarithmic = _STYLES.get(plane, ("viridis", False))
    lit = values[np.isfinite(values)]
    if lit.size == 0:
        raise FormatError(path, plane, "holds no values")
    norm = None
    if logarithmic and np.any(lit > 0):
        low = max(np.percentile(lit[lit > 0], 0.5), lit[lit > 0].min())
        high = np.percentile(lit[lit > 0], 99.9)
        norm = colors.LogNorm(vmin=low, vmax=max(high, low * 10))
    critical = planes.get("critical")
    if critical is None and "parity" in planes:
        critical = _critical_from_parity(planes["parity"])
    with_caustics = critical is not None and "source.lon" in planes
    figure = plt.figure(figsize=(13 if with_caustics else 8, 5.2))
    sky = figure.add_subplot(1, 2 if with_caustics else 1, 1, projection=wcs)
    # WCS pixel rows run from the bottom; imshow with origin "lower" takes them as FITS does.
    colour_map = require("matplotlib").colormaps[cmap].copy()
    colour_map.set_bad("#505050")  # the shadow and dropped triangles: no value
    image = sky.imshow(values[::-1], origin="lower", cmap=colour_map, norm=norm)
    if critical is not None and np.any(critical == 1):
        sky.contour((critical[::-1] == 1).astype(float), levels=[0.5], colors="cyan",
                    linewidths=0.6)
    sky.coords[0].set_axislabel("RA")
    sky.coords[1].set_axislabel("Dec")
    sky.coords.grid(color="white", alpha=0.25, linestyle="solid")
    unit = units.get(plane, "")
    bar = figure.colorbar(image, ax=sky, fraction=0.046, pad=0.04)
    bar.set_label(f"{plane} [{unit}]" if unit else plane)
    sky.set_title(f"{plane}" + (" with the critical curves (cyan)" if critical is not None
                                else ""))
    if with_caustics:
        source = figure.add_subplot(1, 2, 2)
        resolved = _resolved(planes["source.lon"], planes["source.lat"])
        on_curve = (critical == 1) & resolved
        lon = np.mod(planes["source.lon"][on_curve] + 180, 360) - 180
        lat = planes["source.lat"][on_curve]
        source.scatter(lon, lat, s=1, color="crimson")
        unresolved = int(np.sum((critical == 1) & ~resolved))
        source.set_xlim(180, -180)  # longitude grows to the left, as on the sky
        source.set_ylim(-90, 90)
        source.set_xlabel("source longitude [deg]")
        source.set_ylabel("source latitude [deg]")
        source.set_title("caustics: the critical curves' sources" + (
            f"\n({unresolved} pixels of unresolved photon-ring orders left out)"
            if unresolved else ""), fontsize=10)
        source.grid(alpha=0.3)
    figure.tight_layout()
    figure.savefig(png, dpi=dpi)
    plt.close(figure)


def _neighbours(values):
    """Each 4-neighbour of every pixel, as (neighbour values, where that neighbour exists)."""
    for axis in (0, 1):
        for shift in (1, -1):
            exists = np.ones(values.shape[:2], dtype=bool)
            edge = 0 if shift == 1 else -1
            if axis == 0:
                exists[edge, :] = False
            else:
                exists[:, edge] = False
            yield np.roll(values, shift, axis=axis), exists


def _resolved(lon_deg, lat_deg, limit_deg=2.0):
    """Pixels whose source lies within limit_deg of each covered 4-neighbour's: where the
    pixels resolve the map. Next to the shadow the photon ring's orders are thinner than a
    pixel, and a critical pixel's source there says nothing about the caustic."""
    lon, lat = np.radians(lon_deg), np.radians(lat_deg)
    vectors = np.stack([np.cos(lat) * np.cos(lon), np.cos(lat) * np.sin(lon), np.sin(lat)], -1)
    resolved = np.isfinite(lon)
    cos_limit = np.cos(np.radians(limit_deg))
    for neighbour, exists in _neighbours(vectors):
        cosine = np.sum(vectors * neighbour, axis=-1)
        resolved &= ~(exists & np.isfinite(cosine) & (cosine < cos_limit))
    return resolved


def _critical_from_parity(parity):
    critical = np.where(np.isfinite(parity), 0.0, np.nan)
    for neighbour, exists in _neighbours(parity):
        critical[exists & (neighbour == -parity)] = 1.0
    return critical


def stage_picture(manifests, png, dpi=120):
    """Horizontal bars of each manifest's timings_s (seconds; phases where threads work
    together are thread-seconds, as the manifest records them), one panel a run."""
    plt = _pyplot()
    runs = []
    for path in manifests:
        with open(path, encoding="utf-8") as file:
            manifest = json.load(file)
        timings = manifest.get("timings_s")
        if not isinstance(timings, dict) or not timings:
            raise FormatError(path, "timings_s", "missing or empty")
        runs.append((path, manifest.get("tool", "?"), timings))
    figure, axes = plt.subplots(len(runs), 1, figsize=(8, 1.2 + 0.28 * sum(
        len(t) for _, _, t in runs)), squeeze=False)
    for axis, (path, tool, timings) in zip(axes[:, 0], runs):
        phases = sorted(timings.items(), key=lambda item: item[1])
        names = [name for name, _ in phases]
        seconds = [float(value) for _, value in phases]
        bars = axis.barh(names, seconds, color=["#d95f02" if n == "total" else "#1b9e77"
                                                for n in names])
        axis.bar_label(bars, labels=[f"{s:.3g} s" for s in seconds], padding=3, fontsize=7)
        axis.set_title(f"{tool}: {path}", fontsize=9)
        axis.set_xlabel("seconds")
        axis.tick_params(axis="y", labelsize=7)
        axis.set_xlim(0, max(seconds) * 1.25 if max(seconds) > 0 else 1)
    figure.tight_layout()
    figure.savefig(png, dpi=dpi)
    plt.close(figure)


def main(argv=None):
    parser = argparse.ArgumentParser(prog="python3 -m starlens.pictures",
                                     description=__doc__.split("\n\n")[0])
    commands = parser.add_subparsers(dest="command", required=True)
    raster = commands.add_parser("raster", help="a plane of a lens-map raster (FITS)")
    raster.add_argument("raster")
    raster.add_argument("--plane", default="mu")
    raster.add_argument("-o", "--output", required=True)
    stages = commands.add_parser("stages", help="the phases of runs from their manifests")
    stages.add_argument("manifests", nargs="+")
    stages.add_argument("-o", "--output", required=True)
    options = parser.parse_args(argv)
    if not options.output.endswith(".png"):
        print(f"{options.output}: the picture is a PNG: name it .png", file=sys.stderr)
        return 2
    try:
        if options.command == "raster":
            raster_picture(options.raster, options.plane, options.output)
        else:
            stage_picture(options.manifests, options.output)
    except (FormatError, OSError, ValueError) as error:
        print(error, file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
