// libcurl for Swift on Linux, for HTTPS requests that must trust a CA of our choosing (the ACME
// client's: see CurlHTTP).
//
// curl_easy_setopt and curl_easy_getinfo are C-variadic, which Swift cannot call: the helpers below
// give Swift one plain function per argument type libcurl reads for an option.
#ifndef LINKHOST_CCURL_SHIM_H
#define LINKHOST_CCURL_SHIM_H

// typecheck-gcc.h turns the calls below into macros of GCC builtins; the helpers are typed already.
#define CURL_DISABLE_TYPECHECK 1
#include <curl/curl.h>

/// An option that takes a `long` (flags, sizes, timeouts in milliseconds).
static inline CURLcode linkhost_curl_setopt_long(CURL *handle, CURLoption option, long value) {
    return curl_easy_setopt(handle, option, value);
}

/// An option that takes a `curl_off_t` (CURLOPT_POSTFIELDSIZE_LARGE, CURLOPT_MAXFILESIZE_LARGE).
static inline CURLcode linkhost_curl_setopt_offset(CURL *handle, CURLoption option, curl_off_t value) {
    return curl_easy_setopt(handle, option, value);
}

/// An option that takes a C string or a plain pointer (libcurl copies strings it is given, except
/// CURLOPT_POSTFIELDS, which is why the Swift side uses CURLOPT_COPYPOSTFIELDS).
static inline CURLcode linkhost_curl_setopt_pointer(CURL *handle, CURLoption option, const void *value) {
    return curl_easy_setopt(handle, option, value);
}

/// CURLOPT_HTTPHEADER: the list must stay alive until the transfer ends.
static inline CURLcode linkhost_curl_setopt_list(CURL *handle, CURLoption option, struct curl_slist *list) {
    return curl_easy_setopt(handle, option, list);
}

/// CURLOPT_WRITEFUNCTION and CURLOPT_HEADERFUNCTION, which share one signature.
static inline CURLcode linkhost_curl_setopt_write_callback(CURL *handle, CURLoption option, curl_write_callback callback) {
    return curl_easy_setopt(handle, option, callback);
}

/// An information item that is a `long` (CURLINFO_RESPONSE_CODE).
static inline CURLcode linkhost_curl_getinfo_long(CURL *handle, CURLINFO info, long *value) {
    return curl_easy_getinfo(handle, info, value);
}

/// CURLINFO_CERTINFO: the peer's chain, read after a transfer with CURLOPT_CERTINFO set.
static inline CURLcode linkhost_curl_getinfo_certinfo(CURL *handle, struct curl_certinfo **value) {
    return curl_easy_getinfo(handle, CURLINFO_CERTINFO, value);
}

#endif
