"""Lens-map rasters (`starlens-trace inspect --quantity ... --raster`) checked by routes
independent of the rasteriser, and opened by the tools of astronomy and VFX:

- Minkowski (the identity lens): astropy's WCS of the FITS raster, evaluated at each pixel,
  gives the pixel's own sky direction; the source plane must equal it, mu, parity and g be 1
  and the deflection 0.
- Schwarzschild: the exact point magnification of the mu plane against the one the traced
  rays give on their own: with psi the ray's angle from the hole (from the WCS) and delta its
  deflection (the rays' source directions, from the mesh), the escape azimuth is
  phi = pi - psi - delta and mu = sin(psi) / (|sin(phi)| |d phi / d psi|), d delta / d psi
  from a fit over the primary image; the critical curves' pixels see sources next to the
  points straight behind and in front of the hole (the caustic points).
- STMap: OpenImageIO's `oiiotool --st_warp` lenses a lat-long texture whose texels hold their
  own longitude and latitude through the STMap; for Minkowski the result is each pixel's sky
  direction (from the equirect camera's WCS).
- The pictures of python/starlens/pictures.py (matplotlib) are PNGs with content.

usage: lensmap_raster_tools.py SOURCE_ROOT TRACE OIIOTOOL (run by /usr/bin/python3, whose
numpy, astropy, matplotlib and OpenImageIO come from Debian)."""
import os
import shutil
import subprocess
import sys
import tempfile
import unittest

import numpy as np
from astropy.io import fits
from astropy.wcs import WCS

SOURCE_ROOT, TRACE, OIIOTOOL = sys.argv[1:4]
sys.path.insert(0, os.path.join(SOURCE_ROOT, "python"))
work = None
HOLE = (266.4, -29.0)  # ICRS degrees


def run(*args, expect=0):
    result = subprocess.run([str(a) for a in args], capture_output=True, text=True,
                            env={**os.environ, "PYTHONPATH": os.path.join(SOURCE_ROOT, "python")})
    if result.returncode != expect:
        raise AssertionError(f"{args[:3]} exited {result.returncode}: {result.stderr}")
    return result


def path(name):
    return os.path.join(work, name)


def trace(name, *flags):
    placed = () if "--bh-l" in flags else ("--bh-ra", HOLE[0], "--bh-dec", HOLE[1])
    run(TRACE, *placed, *flags, "-o", path(name + ".h5"), "--threads", 2, "--quiet")


def raster(name, quantities, suffix=".fits"):
    out = path(f"{name}-{quantities.replace(',', '-')}{suffix}")
    run(TRACE, "inspect", path(name + ".h5"), "--quantity", quantities, "--raster", out)
    return out


def planes(fits_path):
    """Planes by name, with FITS's 0-based pixel grid (row 0 at the bottom), and the WCS."""
    with fits.open(fits_path) as hdus:
        header, data = hdus[0].header, hdus[0].data
        named = {header[f"PLANE{k + 1}"]: np.array(data[k], dtype=np.float64)
                 for k in range(data.shape[0])}
        return named, WCS(header).celestial, header


def sky_directions(wcs, shape):
    """Unit ICRS vectors of every pixel centre, from astropy's WCS."""
    y, x = np.mgrid[0:shape[0], 0:shape[1]]
    ra, dec = wcs.all_pix2world(x, y, 0)
    ra, dec = np.radians(ra), np.radians(dec)
    return np.stack([np.cos(dec) * np.cos(ra), np.cos(dec) * np.sin(ra), np.sin(dec)], axis=-1)


def unit(lon_deg, lat_deg):
    lon, lat = np.radians(lon_deg), np.radians(lat_deg)
    return np.stack([np.cos(lat) * np.cos(lon), np.cos(lat) * np.sin(lon), np.sin(lat)], axis=-1)


def angle_deg(a, b):
    return np.degrees(np.arctan2(np.linalg.norm(np.cross(a, b), axis=-1),
                                 np.sum(a * b, axis=-1)))


def setUpModule():
    global work
    work = tempfile.mkdtemp(prefix="starlens-rasters-")
    trace("flat", "--spacetime", "minkowski", "--projection", "pinhole", "--fov", 40,
          "--roll", 25, "--width", 160, "--height", 120, "--mesh-step", 8)
    trace("hole", "--spacetime", "schwarzschild", "--r-obs", 30, "--projection", "pinhole",
          "--fov", 50, "--width", 240, "--height", 180, "--mesh-step", 4)
    trace("sphere", "--spacetime", "minkowski", "--projection", "equirect", "--width", 360,
          "--height", 180, "--mesh-step", 6, "--bh-l", 30, "--bh-b", 10)


def tearDownModule():
    shutil.rmtree(work, ignore_errors=True)


class Minkowski(unittest.TestCase):
    def test_source_plane_is_the_wcs_sky(self):
        named, wcs, header = planes(raster("flat", "source,mu,parity,g,deflection"))
        self.assertEqual(header["CAMPROJ"], "pinhole")
        self.assertEqual(header["UNIT1"], "deg")
        want = sky_directions(wcs, named["mu"].shape)
        got = unit(named["source.lon"], named["source.lat"])
        self.assertTrue(np.all(np.isfinite(got)))
        # The mesh interpolates the source linearly in the image; its tolerance is 0.01 px
        # of a 0.25-degree pixel.
        self.assertLess(angle_deg(got, want).max(), 0.01 * 0.25 * 1.5)
        np.testing.assert_allclose(named["mu"], 1, rtol=1e-12)
        np.testing.assert_array_equal(named["parity"], 1)
        np.testing.assert_allclose(named["g"], 1, rtol=1e-12)
        self.assertLess(named["deflection"].max(), 0.01 * 0.25 * 1.5)


class Schwarzschild(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.named, cls.wcs, cls.header = planes(
            raster("hole", "mu,parity,deflection,source,critical"))
        rays = sky_directions(cls.wcs, cls.named["mu"].shape)
        cls.psi = np.radians(angle_deg(rays, unit(*HOLE)))

    def test_point_magnification_against_the_traced_deflection(self):
        mu, parity = self.named["mu"], self.named["parity"]
        psi, delta = self.psi, np.radians(self.named["deflection"])
        # The Einstein ring lies at psi ~ 0.41 rad here, the shadow's edge at 0.17: the primary
        # images outside the ring, the secondary ones inside, each away from both.
        for sign, low, high in ((1, 0.425, 0.53), (-1, 0.22, 0.39)):
            chosen = (parity == sign) & (psi > low) & (psi < high) & np.isfinite(delta)
            self.assertGreater(chosen.sum(), 3000)
            # The source lies at phi = pi + delta - psi from -h's side (the ray bends toward
            # the hole: phi grows from the unlensed pi - psi by the deflection).
            fit = np.polynomial.Polynomial.fit(psi[chosen], delta[chosen], 12)
            phi = np.pi + fit(psi[chosen]) - psi[chosen]
            slope = fit.deriv()(psi[chosen]) - 1
            reference = np.sin(psi[chosen]) / (np.abs(np.sin(phi)) * np.abs(slope))
            relative = np.abs(mu[chosen] / reference - 1)
            # The reference's own error: the fit of the mesh's interpolated deflection.
            self.assertLess(np.median(relative), 2e-4, sign)
            self.assertLess(relative.max(), 1e-2, sign)

    def test_secondary_images_are_mirrored_and_the_critical_curve_sees_the_caustics(self):
        parity, critical = self.named["parity"], self.named["critical"]
        self.assertGreater(np.sum(parity == -1), 100)
        on_curve = critical == 1
        self.assertGreater(on_curve.sum(), 50)
        sources = unit(self.named["source.lon"][on_curve], self.named["source.lat"][on_curve])
        hole = unit(*HOLE)
        # At the Einstein ring (psi ~ 0.41 rad), a pixel of 50/240 degrees beside the ring sees
        # a source within a pixel's worth of h, straight behind the hole. (At the shadow's edge the photon ring's
        # orders are thinner than a pixel: every pixel there sits beside a critical curve.)
        ring = self.psi[on_curve] > 0.3
        self.assertGreater(ring.sum(), 300)
        self.assertLess(angle_deg(sources[ring], hole).max(), 0.6)
        self.assertEqual(self.header["SPACETIM"], "schwarzschild")


class StMap(unittest.TestCase):
    def test_oiiotool_warps_a_lat_long_texture_to_the_sky(self):
        stmap = raster("sphere", "stmap", ".exr")
        # A lat-long texture in galactic coordinates (OpenEXR's latlong: longitude +180 at the
        # left to -180 at the right, latitude +90 at the top), each texel holding its own
        # direction as a unit vector.
        width, height = 360, 180  # oiiotool gives the result the texture's size: the raster's
        lon = 180 - (np.arange(width) + 0.5) * 360 / width
        lat = 90 - (np.arange(height) + 0.5) * 180 / height
        texture = unit(*np.meshgrid(lon, lat)).astype(np.float32)
        import OpenImageIO as oiio

        out = oiio.ImageOutput.create(path("texture.exr"))
        out.open(path("texture.exr"), oiio.ImageSpec(width, height, 3, "float"))
        out.write_image(texture)
        out.close()
        # Nuke's STMap convention, t = 0 at the bottom: oiiotool's flip_t.
        run(OIIOTOOL, path("texture.exr"), stmap, "--st_warp:flip_t=1:filter=triangle", "-o",
            path("warped.exr"))
        warped = oiio.ImageInput.open(path("warped.exr")).read_image("float")[:, :, :3]
        named, wcs, _ = planes(raster("sphere", "source"))
        # The camera's sky (ICRS) as galactic unit vectors: from the source plane's own frame
        # checked against the WCS in the pinhole test; here the equirect WCS directly.
        from astropy.coordinates import SkyCoord
        import astropy.units as u

        rays = sky_directions(wcs, named["source.lon"].shape)[::-1]  # row 0 at the top
        icrs = SkyCoord(x=rays[..., 0], y=rays[..., 1], z=rays[..., 2],
                        representation_type="cartesian", frame="icrs")
        gal = icrs.galactic.cartesian.xyz.value.transpose(1, 2, 0)
        got = warped / np.linalg.norm(warped, axis=-1, keepdims=True)
        # Away from the poles, where a lat-long texture's texels shrink to nothing.
        rows = slice(10, -10)
        error = angle_deg(got[rows], gal[rows])
        self.assertLess(np.median(error), 0.05)  # a texel is 1 degree
        self.assertLess(np.percentile(error, 99), 0.2)


class Pictures(unittest.TestCase):
    def test_raster_and_stage_pictures(self):
        import OpenImageIO as oiio

        fits_path = raster("hole", "mu,parity,source,critical")
        run(sys.executable, "-m", "starlens.pictures", "raster", fits_path, "--plane", "mu",
            "-o", path("mu.png"))
        image = oiio.ImageInput.open(path("mu.png")).read_image("float")
        self.assertGreater(image.shape[1], 1000)
        self.assertGreater(float(np.std(image)), 0.05)
        manifest = path("hole.h5.manifest.json")
        run(sys.executable, "-m", "starlens.pictures", "stages", manifest, "-o",
            path("stages.png"))
        self.assertTrue(os.path.getsize(path("stages.png")) > 1000)
        bad = run(sys.executable, "-m", "starlens.pictures", "raster", fits_path, "--plane",
                  "nothing", "-o", path("bad.png"), expect=2)
        self.assertIn("no plane 'nothing'", bad.stderr)
        self.assertFalse(os.path.exists(path("bad.png")))


if __name__ == "__main__":
    unittest.main(argv=sys.argv[:1], verbosity=2)
