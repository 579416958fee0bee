#include "psc_format.h"

#include <cmath>
#include <cstdio>

namespace starlens::catalog {
namespace {

// "hhmmssss+ddmmsss" from RA and Dec in degrees (truncated, as the 2MASS designations are).
void append_designation(std::string& out, double ra_deg, double dec_deg) {
  const auto ra_centiseconds = static_cast<long long>(ra_deg / 15.0 * 3600.0 * 100.0);
  const auto dec_deciarcsec = static_cast<long long>(std::fabs(dec_deg) * 3600.0 * 10.0);
  char text[96];
  std::snprintf(text, sizeof text, "%02lld%02lld%04lld%c%02lld%02lld%03lld",
                ra_centiseconds / 360000, ra_centiseconds / 6000 % 60, ra_centiseconds % 6000,
                dec_deg < 0 ? '-' : '+', dec_deciarcsec / 36000, dec_deciarcsec / 600 % 60,
                dec_deciarcsec % 600);
  out += text;
}

void append_band(std::string& out, int band, double magnitude, char quality) {
  char text[96];
  if (quality == 'U') {  // an upper limit: the limit as the magnitude, no uncertainties
    std::snprintf(text, sizeof text, "%.3f|\\N|\\N|\\N|", kPscLimit[band] + 0.6);
  } else {
    const double relative_noise =
        std::pow(10.0, 0.4 * (magnitude - kPscLimit[band]));  // SNR 10 at the limit
    const double sigma = 0.02 + 0.1 * relative_noise;
    std::snprintf(text, sizeof text, "%.3f|%.3f|%.3f|%.1f|", magnitude, sigma, sigma + 0.002,
                  10.0 / relative_noise);
  }
  out += text;
}

}  // namespace

char psc_quality(int band, double magnitude) {
  const double margin = kPscLimit[band] - magnitude;
  if (margin >= 1.0) return 'A';
  if (margin >= 0.5) return 'B';
  if (margin >= 0.0) return 'C';
  if (margin >= -0.3) return 'D';
  if (margin >= -0.6) return 'E';
  return 'U';
}

void append_psc_row(std::string& out, const SynthStar& star, std::uint64_t row_id) {
  const double magnitudes[3] = {star.j, star.h, star.ks};
  char quality[4] = {psc_quality(0, star.j), psc_quality(1, star.h), psc_quality(2, star.ks), 0};
  char text[160];
  std::snprintf(text, sizeof text, "%.6f|%.6f|0.06|0.06|90|", star.ra_deg, star.dec_deg);
  out += text;
  append_designation(out, star.ra_deg, star.dec_deg);
  out += '|';
  for (int band = 0; band < 3; ++band) append_band(out, band, magnitudes[band], quality[band]);
  out += quality;
  // rd_flg .. date: fixed plausible values (not used by starlens).
  std::snprintf(text, sizeof text,
                "|222|111|000|666666|10.0|90|%llu|0|0|%llu|%c|2000-01-01|1|%.6f|%.6f|",
                static_cast<unsigned long long>(row_id), static_cast<unsigned long long>(row_id),
                star.dec_deg < 0 ? 's' : 'n', star.glon_deg, star.glat_deg);
  out += text;
  // x_scan .. coadd (fields 35-60).
  out +=
      "0.0|2451544.5|1.0|1.0|1.0|\\N|\\N|\\N|\\N|\\N|\\N|100|100|ne|0|1|0|\\N|\\N|\\N|\\N|0|\\N|1|"
      "1|1\n";
}

}  // namespace starlens::catalog
