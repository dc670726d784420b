// GnuTLS for Swift on Linux, for the certificates the HTTPS listener chooses per handshake
// (libmicrohttpd's MHD_OPTION_HTTPS_CERT_CALLBACK hands GnuTLS structures over: see TLSCertificates).
//
// Nothing here is variadic; the header only gathers what the callback needs (sessions, pcerts,
// private keys) and names the callback's pointer type, so Swift checks our callback against
// GnuTLS's own signature rather than a copy of it.
#ifndef LINKHOST_CGNUTLS_SHIM_H
#define LINKHOST_CGNUTLS_SHIM_H

#include <gnutls/gnutls.h>
#include <gnutls/x509.h>
#include <gnutls/abstract.h>

/// A pointer to GnuTLS's server certificate callback (`gnutls_certificate_set_retrieve_function2`),
/// the type libmicrohttpd's MHD_OPTION_HTTPS_CERT_CALLBACK takes.
typedef gnutls_certificate_retrieve_function2 *linkhost_gnutls_retrieve_function;

#endif
