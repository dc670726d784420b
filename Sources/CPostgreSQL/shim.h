// libpq, PostgreSQL's C client library, for Swift on Linux. Nothing in it is variadic or a macro
// that Swift needs, so this header only includes it; it exists so the module map has one header of
// ours to name, as the other C bridges do.
#ifndef LINKHOST_CPOSTGRESQL_SHIM_H
#define LINKHOST_CPOSTGRESQL_SHIM_H

#include <libpq-fe.h>

#endif
