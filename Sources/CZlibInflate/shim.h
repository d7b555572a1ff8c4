#ifndef DIARY_CZLIBINFLATE_SHIM_H
#define DIARY_CZLIBINFLATE_SHIM_H
// DiaryExchange inflates the deflated members of a Day One zip with zlib itself, behind its
// own strict zip reader (Sources/DiaryExchange/Zip/): a general zip library traps on crafted archives.
#include <zlib.h>
#endif
