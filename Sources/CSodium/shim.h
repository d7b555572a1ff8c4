#ifndef DIARY_CSODIUM_SHIM_H
#define DIARY_CSODIUM_SHIM_H
// Everything DiaryCrypto needs is a plain libsodium function; the *_MACRO constants do not
// import into Swift, so DiaryCrypto calls their function forms (crypto_pwhash_opslimit_moderate()).
#include <sodium.h>
#ifdef __linux__
// malloc_trim: DiaryCrypto gives freed heap memory back before Argon2 maps its own.
#include <malloc.h>
#endif
#endif
