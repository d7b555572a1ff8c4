#ifndef DIARY_CZLIBINFLATE_SHIM_H
#define DIARY_CZLIBINFLATE_SHIM_H
// DiaryExchange inflates the deflated members of a Day One zip with zlib itself: the zip
// library it used before trapped on crafted archives (see Sources/DiaryExchange/Zip/).
#include <zlib.h>
#endif
