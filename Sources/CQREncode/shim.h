#ifndef DIARY_CQRENCODE_SHIM_H
#define DIARY_CQRENCODE_SHIM_H
// The CLI draws the recovery key as a QR code on the terminal; libqrencode makes the matrix.
#include <qrencode.h>
#endif
