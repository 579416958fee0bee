#include "frame/fits_wcs.h"

#include <wcslib/wcs.h>
#include <wcslib/wcshdr.h>
#include <wcslib/wcsutil.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <numbers>

#include "core/errors.h"

namespace starlens {
namespace {

using Vector = std::array<double, 3>;

constexpr double kDegreesPerRadian = 180 / std::numbers::pi;

double dot(const Vector& a, const Vector& b) {
  return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
}

// wcsprm owns its arrays: freed whatever happens.
struct WcsGuard {
  wcsprm wcs{};
  WcsGuard() { wcs.flag = -1; }
  ~WcsGuard() { wcsfree(&wcs); }
  WcsGuard(const WcsGuard&) = delete;
  WcsGuard& operator=(const WcsGuard&) = delete;
};

void set_axis_types(wcsprm& wcs, const char* code) {
  std::snprintf(wcs.ctype[0], sizeof wcs.ctype[0], "RA---%s", code);
  std::snprintf(wcs.ctype[1], sizeof wcs.ctype[1], "DEC--%s", code);
  std::snprintf(wcs.cunit[0], sizeof wcs.cunit[0], "deg");
  std::snprintf(wcs.cunit[1], sizeof wcs.cunit[1], "deg");
}

// Pinhole and fisheye: zenithal projections about the forward direction, with the reference
// point at the native pole and the celestial pole at native longitude 180 (the default of
// Paper II), so that intermediate x points east and y north at the reference point. The
// camera's right and up arrows in that east/north basis make the PC matrix; the scale is one
// pixel per 1/F of tan(angle) (TAN) or of the angle (ARC) at the centre.
void set_zenithal(wcsprm& wcs, const FrameCamera& camera, const char* code, double ra, double dec) {
  set_axis_types(wcs, code);
  const Vector east = {-std::sin(ra), std::cos(ra), 0};
  const Vector north = {-std::sin(dec) * std::cos(ra), -std::sin(dec) * std::sin(ra),
                        std::cos(dec)};
  // Pixel offsets (right, up) = F M (x_east, y_north): PC is M's transpose.
  const double m[2][2] = {{dot(camera.right, east), dot(camera.right, north)},
                          {dot(camera.up, east), dot(camera.up, north)}};
  // PCi_j of a three-axis WCS, row-major: pc[3 (i - 1) + (j - 1)].
  wcs.pc[0] = m[0][0];
  wcs.pc[1] = m[1][0];
  wcs.pc[3] = m[0][1];
  wcs.pc[4] = m[1][1];
  wcs.cdelt[0] = wcs.cdelt[1] = kDegreesPerRadian / camera.focal_px;
  wcs.lonpole = 180;
}

// Equirect: the camera's own longitude/latitude grid, whose pole is `up` and whose origin is
// `forward`, longitude growing toward `right`. As a right-handed native sphere (pole up,
// x forward, y = up x forward = -right) that is CAR with native longitude = -camera longitude;
// the celestial pole's native coordinates and the native pole's declination fix the rotation.
void set_cylindrical(wcsprm& wcs, const FrameCamera& camera) {
  set_axis_types(wcs, "CAR");
  wcs.cdelt[0] = -360.0 / camera.width;
  wcs.cdelt[1] = 180.0 / camera.height;
  const Vector pole = {0, 0, 1};
  const Vector native_y = {-camera.right[0], -camera.right[1], -camera.right[2]};
  wcs.lonpole = kDegreesPerRadian * std::atan2(dot(pole, native_y), dot(pole, camera.forward));
  wcs.latpole = kDegreesPerRadian * std::asin(std::clamp(camera.up[2], -1.0, 1.0));
}

}  // namespace

std::vector<std::string> camera_wcs_cards(const FrameCamera& camera, const std::string& path) {
  WcsGuard guard;
  wcsprm& wcs = guard.wcs;
  // Three axes, as FITS readers count them for the cube (the highest of NAXIS and WCSAXES):
  // the two celestial axes, and the plane number 1..4 as a linear third axis.
  if (const int status = wcsini(1, 3, &wcs))
    throw_run_failure(path, std::string("WCS: ") + wcs_errmsg[status]);
  const Vector& f = camera.forward;
  const double ra = std::atan2(f[1], f[0]);
  const double dec = std::asin(std::clamp(f[2], -1.0, 1.0));
  wcs.crval[0] = std::fmod(kDegreesPerRadian * ra + 360, 360);
  wcs.crval[1] = kDegreesPerRadian * dec;
  // The camera's centre (width/2, height/2 in pixel-corner coordinates, y down) is FITS pixel
  // (width/2 + 0.5, height/2 + 0.5) with FITS rows counted from the bottom.
  wcs.crpix[0] = camera.width / 2.0 + 0.5;
  wcs.crpix[1] = camera.height / 2.0 + 0.5;
  wcs.crpix[2] = 1;
  wcs.crval[2] = 1;
  wcs.cdelt[2] = 1;
  std::snprintf(wcs.cname[2], sizeof wcs.cname[2], "plane");
  std::snprintf(wcs.radesys, sizeof wcs.radesys, "ICRS");
  if (camera.projection == "pinhole")
    set_zenithal(wcs, camera, "TAN", ra, dec);
  else if (camera.projection == "fisheye")
    set_zenithal(wcs, camera, "ARC", ra, dec);
  else if (camera.projection == "equirect")
    set_cylindrical(wcs, camera);
  else
    throw_input_error(path, "projection", "no WCS for projection '" + camera.projection + "'");
  if (const int status = wcsset(&wcs))
    throw_run_failure(path, std::string("WCS: ") + wcs_errmsg[status]);
  int count = 0;
  char* header = nullptr;
  if (const int status = wcshdo(WCSHDO_P17, &wcs, &count, &header))
    throw_run_failure(path, std::string("WCS header: ") + wcs_errmsg[status]);
  std::vector<std::string> cards;
  for (int k = 0; k < count; ++k) cards.emplace_back(header + 80 * k, 80);
  wcsdealloc(header);
  return cards;
}

}  // namespace starlens
