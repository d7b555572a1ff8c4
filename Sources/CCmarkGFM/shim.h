#ifndef DIARY_CCMARKGFM_SHIM_H
#define DIARY_CCMARKGFM_SHIM_H
// DiaryMarkdown parses entries with cmark-gfm (CommonMark) and walks the tree itself: it renders
// for the terminal and for HTML on its own, so no renderer of the library decides what is safe.
#include <cmark-gfm.h>
#endif
