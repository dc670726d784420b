// zlib for Swift: the deflate stream and CRC-32 of PNG files (`linkhost link --qr png`).
// Foundation on Linux exposes no deflate, so zlib is bridged directly.
//
// No shim functions are needed (compress2, compressBound and crc32 are plain calls); this header
// only gives the module map one file to include, like the other C bridges.
#ifndef LINKHOST_CZLIB_SHIM_H
#define LINKHOST_CZLIB_SHIM_H

#include <zlib.h>

#endif
