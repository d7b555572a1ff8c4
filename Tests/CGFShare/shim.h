#ifndef DIARY_CGFSHARE_SHIM_H
#define DIARY_CGFSHARE_SHIM_H
// Debian's libgfshare, which the tests check diary's Shamir shares against; the product never
// links it.
#include <libgfshare.h>

// libgfshare draws its coefficients through this global pointer; setting it through a function
// keeps Swift's concurrency checking away from a C global.
static inline void diary_gfshare_set_fill(gfshare_rand_func_t fill) { gfshare_fill_rand = fill; }
#endif
