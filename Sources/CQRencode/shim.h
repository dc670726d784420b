// libqrencode for Swift: QR Code symbols for the desktop fallback pages and `linkhost link --qr`.
//
// No shim functions are needed (the API is plain and non-variadic); this header only gives the
// module map one file to include, like the other C bridges.
#ifndef LINKHOST_CQRENCODE_SHIM_H
#define LINKHOST_CQRENCODE_SHIM_H

#include <qrencode.h>

#endif
