#pragma once
// What a producer run (or one read unit of it) counted: stars, images and events by class.
#include <cstdint>

namespace starlens::produce {

struct ProducerCounts {
  std::uint64_t stars_read = 0;
  std::uint64_t stars_outside_region = 0;  // read, but outside --sky-region
  std::uint64_t stars_too_faint = 0;       // no image of theirs could reach min-Y: not mapped
  std::uint64_t stars_imaged = 0;          // with at least one image
  std::uint64_t images = 0;                // star-triangle hits
  // Images by order (0 primary, 1 secondary, 2, 3 and more: the photon ring); all order 0
  // without a point lens.
  std::uint64_t images_by_order[4] = {0, 0, 0, 0};
  // Images of a point-lens map given their triangle's mu because Newton's search for the exact
  // image did not settle (point_magnification.h).
  std::uint64_t images_triangle_mu = 0;
  // Kerr maps (traced_images.h): images whose traced point mu exceeds their triangle's bound
  // (mu times TracedImages::kMuMargin), which the selection of visible stars took.
  std::uint64_t images_point_mu_above_bound = 0;
  // With the photon ring (photon_ring.h): the point lens's images of orders >=
  // PhotonRing::kFirstOrder (1: the secondaries and the ring) in the frame (also in `images`),
  // and those outside it.
  std::uint64_t ring_images = 0;
  std::uint64_t ring_images_outside_frame = 0;
  std::uint64_t events_by_class[4] = {0, 0, 0, 0};  // by EventClass; [discarded] never written
  std::uint64_t direct_bounded = 0;                 // direct supports cut at --psf-max-radius
  std::uint64_t triangles_with_events = 0;
  std::uint64_t events_written() const {
    return events_by_class[1] + events_by_class[2] + events_by_class[3];
  }
  // Sums everything but triangles_with_events (a count of distinct triangles).
  void add(const ProducerCounts& other) {
    stars_read += other.stars_read;
    stars_outside_region += other.stars_outside_region;
    stars_too_faint += other.stars_too_faint;
    stars_imaged += other.stars_imaged;
    images += other.images;
    for (int o = 0; o < 4; ++o) images_by_order[o] += other.images_by_order[o];
    images_triangle_mu += other.images_triangle_mu;
    images_point_mu_above_bound += other.images_point_mu_above_bound;
    ring_images += other.ring_images;
    ring_images_outside_frame += other.ring_images_outside_frame;
    for (int c = 0; c < 4; ++c) events_by_class[c] += other.events_by_class[c];
    direct_bounded += other.direct_bounded;
  }
};

}  // namespace starlens::produce
