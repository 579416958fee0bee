"""The frame's EXR and FITS opened by the tools of VFX and astronomy, not by starlens's own
readers: OpenEXR's exrheader, OpenImageIO's oiiotool, and astropy (io.fits and wcs).

A small catalogue of bright stars at known ICRS positions is rendered in Minkowski spacetime
(the identity lens) through trace, catalog, produce and splat --lensmap --fits; astropy's WCS
of the FITS must put each star's centroid within 0.01 arcsec of its catalogue position, for a
pinhole (TAN) and a fisheye (ARC) camera, rolled.

usage: frame_outputs_tools.py CATALOG TRACE PRODUCE SPLAT EXRHEADER OIIOTOOL
(run by /usr/bin/python3, whose numpy and astropy come from Debian)."""
import os
import re
import shutil
import subprocess
import sys
import tempfile
import unittest

import numpy as np
from astropy.coordinates import SkyCoord
from astropy.io import fits
from astropy.wcs import WCS
import astropy.units as u

CATALOG, TRACE, PRODUCE, SPLAT, EXRHEADER, OIIOTOOL = sys.argv[1:7]
WIDTH, HEIGHT = 240, 180
CENTRE = (83.8, -5.4)  # ICRS degrees
# Offsets from the centre (degrees of RA, Dec): well inside a 0.1 degree field, far apart.
OFFSETS = [(0.0, 0.0), (0.025, 0.012), (-0.03, -0.014), (0.012, -0.02), (-0.015, 0.018)]
WINDOW = 16  # px: the centroid's half-width, beyond every star's PSF support
work = None


def run(*args):
    result = subprocess.run([str(a) for a in args], capture_output=True, text=True)
    if result.returncode != 0:
        raise AssertionError(f"{args[0]} exited {result.returncode}: {result.stderr}")
    return result.stdout


def path(name):
    return os.path.join(work, name)


def stars():
    ra0, dec0 = CENTRE
    return [(ra0 + dra / np.cos(np.radians(dec0)), dec0 + ddec) for dra, ddec in OFFSETS]


def render(name, projection, roll):
    """trace (Minkowski), produce, splat: name.exr, name.fits, name.png."""
    run(TRACE, "--spacetime", "minkowski", "--bh-ra", CENTRE[0], "--bh-dec", CENTRE[1],
        "--roll", roll, "--projection", projection, "--fov", 0.1, "--width", WIDTH,
        "--height", HEIGHT, "--mesh-step", 8, "--mesh-tol", 0.0005, "-o", path(name + ".h5"),
        "--threads", 2, "--quiet")
    run(PRODUCE, "-l", path(name + ".h5"), "-c", path("catalog.h5"), "-o", path(name + ".sle"),
        "--psf-max-radius", 10, "--threads", 2, "--quiet")
    run(SPLAT, "-i", path(name + ".sle"), "-o", path(name + ".exr"), "--lensmap",
        path(name + ".h5"), "--fits", path(name + ".fits"), "--png", path(name + ".png"),
        "--frame-number", 7, "--psf-direct", "--threads", 2, "--quiet")


def setUpModule():
    global work
    work = tempfile.mkdtemp(prefix="starlens-outputs-")
    with open(path("stars.csv"), "w") as csv:
        csv.write("ra,dec,mag,teff\n")
        for ra, dec in stars():
            csv.write(f"{ra:.12f},{dec:.12f},2.0,6000\n")
    run(CATALOG, "ingest", "--format", "csv", "--band", "V", path("stars.csv"), "-o",
        path("catalog.h5"), "--quiet")
    render("pinhole", "pinhole", 30)
    render("fisheye", "fisheye", -15)


def tearDownModule():
    shutil.rmtree(work, ignore_errors=True)


class Exrheader(unittest.TestCase):
    def test_lists_both_parts_and_the_metadata(self):
        header = run(EXRHEADER, path("pinhole.exr"))
        self.assertIn('name (type string): "rgba"', header)
        self.assertIn('name (type string): "exact"', header)
        for line in ("starlensFormatVersion (type int): 2", "starlensFrameNumber (type int): 7",
                     'starlensProjection (type string): "pinhole"',
                     'starlensSpacetime (type string): "minkowski"',
                     'starlensObserver (type string): "static"',
                     "starlensCameraSize (type v2i): (240 180)"):
            self.assertIn(line, header)
        for attribute in ("starlensExposure (type double)", "starlensFovDeg (type double)",
                          "starlensRollDeg (type double)", "starlensLookRaDeg (type double)",
                          "starlensObserverVelocity (type v3d)"):
            self.assertIn(attribute, header)
        # Part 0 holds R, G, B as floats and nothing else; part 1 the six words.
        parts = header.split('name (type string): ')
        self.assertEqual(len(parts), 3)
        self.assertEqual(re.findall(r"^ +(\S+), 32-bit floating-point", header, re.M),
                         ["B", "G", "R"])
        self.assertEqual(sorted(re.findall(r"^ +(\S+), 32-bit unsigned integer", header, re.M)),
                         ["f64hi.B", "f64hi.G", "f64hi.R", "f64lo.B", "f64lo.G", "f64lo.R"])
        self.assertNotIn("envmap", header)


class Oiiotool(unittest.TestCase):
    def test_a_png_of_the_default_part_is_opaque_and_not_black(self):
        png = path("oiio.png")
        run(OIIOTOOL, path("pinhole.exr"), "-o", png)
        info = run(OIIOTOOL, "--info", "-v", png)
        self.assertRegex(info, r"240 x +180, 3 channel")  # RGB: no alpha, opaque
        stats = run(OIIOTOOL, png, "--printstats")
        maxima = re.search(r"Stats Max: (\d+) (\d+) (\d+)", stats)
        self.assertIsNotNone(maxima, stats)
        # The exposure baked into part 0 maps the bright cores to display white.
        self.assertTrue(all(int(level) == 255 for level in maxima.groups()), stats)
        # oiiotool sees the two parts as two subimages, the words in the second.
        subimages = run(OIIOTOOL, "--info", "-a", "-v", path("pinhole.exr"))
        self.assertRegex(subimages, r"subimage +0: +240 x +180, 3 channel, float")
        self.assertRegex(subimages, r"subimage +1: +240 x +180, 6 channel, uint")

    def test_the_default_part_is_the_physical_frame_over_the_exposure(self):
        # What oiiotool reads (part 0) times starlensExposure is the physical frame, here the
        # FITS planes (float32 of the same doubles).
        header = run(EXRHEADER, path("pinhole.exr"))
        exposure = float(re.search(r"starlensExposure \(type double\): (\S+)", header).group(1))
        self.assertGreater(exposure, 0)
        with fits.open(path("pinhole.fits")) as hdus:
            brightest = float(np.max(hdus[0].data[:3]))
        stats = run(OIIOTOOL, path("pinhole.exr"), "--printstats")
        maximum = max(float(v) for v in re.search(r"Stats Max: (\S+) (\S+) (\S+)",
                                                   stats).groups())
        self.assertGreater(maximum, 1)  # the brightest cores are above display white
        self.assertAlmostEqual(maximum * exposure, brightest, delta=1e-5 * brightest)


class Replay(unittest.TestCase):
    def test_a_replay_gives_the_same_exr_fits_and_png_bytes(self):
        report = run(SPLAT, "--from-manifest", path("pinhole.exr.manifest.json"), "--quiet")
        for name in ("pinhole.replay.exr", "pinhole.replay.fits", "pinhole.replay.png"):
            self.assertTrue(os.path.exists(path(name)), name)
        with open(path("pinhole.fits"), "rb") as a, open(path("pinhole.replay.fits"), "rb") as b:
            self.assertEqual(a.read(), b.read())
        self.assertNotIn('"match": false', report)


class BadInput(unittest.TestCase):
    """--lensmap, --fits and --frame-number: exit 2, one line naming the file or flag, nothing
    written."""

    def refused(self, message, *args):
        result = subprocess.run([SPLAT, "-i", path("pinhole.sle"), "-o", path("bad.exr"),
                                 "--quiet"] + [str(a) for a in args],
                                capture_output=True, text=True)
        self.assertEqual(result.returncode, 2, result.stderr)
        lines = result.stderr.strip().splitlines()
        self.assertEqual(len(lines), 1, result.stderr)
        self.assertIn(message, lines[0])
        left = [name for name in os.listdir(work) if name.startswith("bad")]
        self.assertEqual(left, [])

    def test_each_bad_input_is_refused(self):
        self.refused("--fits: the WCS needs the camera: give the lens map (--lensmap)",
                     "--fits", path("bad.fits"))
        self.refused(f"{path('missing.h5')}: no such file", "--lensmap", path("missing.h5"))
        self.refused(f"{path('catalog.h5')}: ", "--lensmap", path("catalog.h5"))
        self.refused("--frame-number", "--frame-number", -1)
        run(TRACE, "--spacetime", "minkowski", "--width", 60, "--height", 40, "--fov", 10,
            "-o", path("small.h5"), "--quiet")
        self.refused(f"{path('bad.exr')}: camera: lens map of 60 x 40 px for a frame of "
                     f"240 x 180", "--lensmap", path("small.h5"), "--fits", path("bad.fits"),
                     "--png", path("bad.png"))


class AstropyWcs(unittest.TestCase):
    def check_stars(self, name, code):
        with fits.open(path(name + ".fits")) as hdus:
            header = hdus[0].header
            cube = hdus[0].data
        self.assertEqual(cube.shape, (4, HEIGHT, WIDTH))
        self.assertEqual([header[f"PLANE{k}"] for k in range(1, 5)], ["R", "G", "B", "Y"])
        self.assertEqual(header["BUNIT"], "Vega")
        self.assertEqual(header["FRAMENUM"], 7)
        wcs = WCS(header).celestial
        self.assertEqual(list(wcs.wcs.ctype), [f"RA---{code}", f"DEC--{code}"])
        y_plane = cube[3].astype(np.float64)
        worst = 0.0
        for ra, dec in stars():
            # Where the WCS expects the star, then the centroid of its light around there.
            x0, y0 = wcs.world_to_pixel(SkyCoord(ra * u.deg, dec * u.deg, frame="icrs"))
            xc, yc = int(round(float(x0))), int(round(float(y0)))
            self.assertTrue(WINDOW <= xc < WIDTH - WINDOW and WINDOW <= yc < HEIGHT - WINDOW)
            patch = y_plane[yc - WINDOW:yc + WINDOW + 1, xc - WINDOW:xc + WINDOW + 1]
            ys, xs = np.mgrid[yc - WINDOW:yc + WINDOW + 1, xc - WINDOW:xc + WINDOW + 1]
            total = patch.sum()
            self.assertGreater(total, 0)
            centroid = wcs.pixel_to_world((xs * patch).sum() / total, (ys * patch).sum() / total)
            separation = centroid.separation(SkyCoord(ra * u.deg, dec * u.deg, frame="icrs"))
            worst = max(worst, separation.to(u.arcsec).value)
        print(f"{name}: worst star offset {worst:.2e} arcsec (pixel scale "
              f"{abs(header['CDELT1']) * 3600:.2f} arcsec)")
        self.assertLess(worst, 0.01)

    def test_pinhole_stars_are_where_the_tan_wcs_puts_them(self):
        self.check_stars("pinhole", "TAN")

    def test_fisheye_stars_are_where_the_arc_wcs_puts_them(self):
        self.check_stars("fisheye", "ARC")


if __name__ == "__main__":
    unittest.main(argv=sys.argv[:1], verbosity=2)
